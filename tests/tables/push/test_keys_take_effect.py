"""Settings that take effect: the site's push keys set (and the processes restarted with them) show
"Avvisami" on the players' pages at once, though their pages were cached before, with no result changed."""
import pytest
from django.test import Client
from django.urls import reverse

from tables.push.keys import generate
from tests.factories import RegistrationFactory, seat_round
from tests.html import attr, select
from tests.tables.push.conftest import PRIVATE_KEY, PUBLIC_KEY

pytestmark = pytest.mark.django_db


def _offered(client, url):
    return bool(select(client.get(url), "[data-push]"))


def test_the_notify_option_shows_once_the_keys_are_set_though_the_page_was_cached(tournament, settings):
    reg = RegistrationFactory(tournament=tournament)
    seat_round(tournament, [[reg] + [RegistrationFactory(tournament=tournament) for _ in range(3)]])
    url = reverse("public:player", args=[tournament.pk, reg.pk])
    anonymous = Client()
    settings.VAPID_PUBLIC_KEY = settings.VAPID_PRIVATE_KEY = ""
    assert not _offered(anonymous, url)
    assert not _offered(Client(), url)  # the page is cached now
    settings.VAPID_PUBLIC_KEY, settings.VAPID_PRIVATE_KEY = PUBLIC_KEY, PRIVATE_KEY
    settings.VAPID_SUBJECT = "mailto:club@example.org"
    assert _offered(anonymous, url) and _offered(Client(), url)
    settings.VAPID_PUBLIC_KEY = settings.VAPID_PRIVATE_KEY = ""  # switched off again: no longer offered
    assert not _offered(Client(), url)


def test_new_keys_replace_the_old_ones_on_a_cached_page(tournament, settings):
    """A new key pair (the old one leaked, docs/admin/notifications.md) is a new cache generation: a page
    cached with the old public key is never served again, or the phones would subscribe with a key the
    site no longer signs with."""
    reg = RegistrationFactory(tournament=tournament)
    seat_round(tournament, [[reg] + [RegistrationFactory(tournament=tournament) for _ in range(3)]])
    url = reverse("public:player", args=[tournament.pk, reg.pk])
    settings.VAPID_PUBLIC_KEY, settings.VAPID_PRIVATE_KEY = PUBLIC_KEY, PRIVATE_KEY
    settings.VAPID_SUBJECT = "mailto:club@example.org"
    assert attr(Client().get(url), "[data-push]", "data-key") == [PUBLIC_KEY]
    assert attr(Client().get(url), "[data-push]", "data-key") == [PUBLIC_KEY]  # the page is cached now
    new_public, new_private = generate()
    settings.VAPID_PUBLIC_KEY, settings.VAPID_PRIVATE_KEY = new_public, new_private
    assert attr(Client().get(url), "[data-push]", "data-key") == [new_public] != [PUBLIC_KEY]
