"""Settings that take effect: the site's push keys set (and the processes restarted with them) show
"Avvisami" on the players' pages at once, though their pages were cached before, with no result changed."""
import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import RegistrationFactory, seat_round
from tests.html import select
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
