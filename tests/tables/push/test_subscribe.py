"""A phone following a player (the player's page posts its browser's subscription) and switching the
notifications off: public, CSRF-protected, only for a player of a published tournament, only the
browsers' own push services, each field checked; the player's page offers the option only when the
site has its VAPID keys."""
import json

import pytest
from django.contrib.staticfiles import finders
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tables.models import PushSubscription
from tables.push.services import PHONES_PER_PLAYER, RATE_LIMIT
from tests.factories import RegistrationFactory, TournamentFactory
from tests.html import attr, one, parse, select, shown, tr
from tables.push.keys import b64url
from tests.tables.push.conftest import PUBLIC_KEY, phone

NOT_A_PUSH_SERVICE = "This browser's push address is not one of the browsers' push services."
BAD_KEYS = "This browser's push keys are not valid."


@pytest.fixture
def reg(tournament):
    return RegistrationFactory(tournament=tournament)


def _url(reg):
    return reverse("public:push_subscribe", args=[reg.tournament_id, reg.pk])


def _post(client, url, data, **extra):
    body = data if isinstance(data, (str, bytes)) else json.dumps(data)
    return client.post(url, body, content_type="application/json", **extra)


def _csrf_client():
    """A phone's browser: CSRF checked, the token asked of the subscription's address first."""
    return Client(enforce_csrf_checks=True)


def test_a_phone_follows_the_player_with_the_token_the_address_gives(vapid, reg):
    client = _csrf_client()
    token = client.get(_url(reg)).json()["token"]
    response = _post(client, _url(reg), phone(1), HTTP_X_CSRFTOKEN=token, HTTP_ACCEPT_LANGUAGE="it")
    assert response.status_code == 201 and response.json() == {"subscribed": True}
    sub = PushSubscription.objects.get()
    assert (sub.registration, sub.endpoint, sub.language) == (reg, phone(1)["endpoint"], "it")


def test_the_token_is_never_cached(vapid, reg, client):
    response = client.get(_url(reg))
    assert "no-cache" in response["Cache-Control"] and "csrftoken" in response.cookies


@pytest.mark.parametrize("name", ["push_subscribe", "push_unsubscribe"])
def test_a_post_without_the_token_is_refused(vapid, reg, name):
    url = _url(reg) if name == "push_subscribe" else reverse("public:push_unsubscribe")
    assert _post(_csrf_client(), url, phone(1)).status_code == 403
    assert PushSubscription.objects.count() == 0


def test_the_post_is_refused_for_a_get(vapid, client):
    assert client.get(reverse("public:push_unsubscribe")).status_code == 405


@pytest.mark.parametrize("change", [
    lambda d: d.update(endpoint="http://fcm.googleapis.com/fcm/send/x"),
    lambda d: d.update(endpoint="https://evil.example.org/fcm/send/x"),
    lambda d: d.update(endpoint="https://fcm.googleapis.com.evil.example.org/x"),
    lambda d: d.update(endpoint="https://10.0.0.1/x"),
    lambda d: d.update(endpoint="https://fcm.googleapis.com:8443/x"),
    lambda d: d.update(endpoint="https://user:pw@fcm.googleapis.com/x"),
    lambda d: d.update(endpoint="https://fcm.googleapis.com/" + "x" * 1000),
    lambda d: d.update(endpoint=["https://fcm.googleapis.com/x"]),
    lambda d: d.pop("endpoint"),
    # a host the sending library reads differently: it stops at the backslash and connects elsewhere
    lambda d: d.update(endpoint="https://attacker.example\\.fcm.googleapis.com/x"),
    lambda d: d.update(endpoint="https://169.254.169.254\\.fcm.googleapis.com/x"),
    lambda d: d.update(endpoint="https://10.0.0.1\\.fcm.googleapis.com/x"),
    lambda d: d.update(endpoint="https://evil.example%2f.fcm.googleapis.com/x"),
    lambda d: d.update(endpoint="https://fcm.googleapis.com\t.evil.example/x"),
    lambda d: d.update(endpoint="https://fcm.googleapis.com./x"),
])
def test_an_address_outside_the_browsers_push_services_is_refused(vapid, reg, client, change):
    data = phone(1)
    change(data)
    response = _post(client, _url(reg), data)
    assert response.status_code == 400 and response.json() == {"error": tr(NOT_A_PUSH_SERVICE)}
    assert PushSubscription.objects.count() == 0


@pytest.mark.parametrize("change", [
    lambda d: d["keys"].update(p256dh="not a key"),
    lambda d: d["keys"].update(p256dh=d["keys"]["auth"]),          # 16 bytes, not a public key
    lambda d: d["keys"].update(p256dh="A" * 87),                   # 65 bytes, not an uncompressed point
    lambda d: d["keys"].update(p256dh=b64url(b"\x04" + b"\x01" * 64)),  # a point, but not of the curve
    lambda d: d["keys"].update(auth=d["keys"]["p256dh"]),
    lambda d: d["keys"].update(auth=12),
    lambda d: d.pop("keys"),
    lambda d: d.update(keys="p256dh"),
])
def test_keys_a_browser_never_sends_are_refused(vapid, reg, client, change):
    data = phone(1)
    change(data)
    response = _post(client, _url(reg), data)
    assert response.status_code == 400 and response.json() == {"error": tr(BAD_KEYS)}
    assert PushSubscription.objects.count() == 0


@pytest.mark.parametrize("body", ["not json", "[1, 2]", b"\xff\xfe", json.dumps({"x": "y" * 5000})])
def test_a_body_that_is_not_a_subscription_is_refused(vapid, reg, client, body):
    assert _post(client, _url(reg), body).status_code == 400
    assert PushSubscription.objects.count() == 0


def test_a_withdrawn_player_cannot_be_followed(vapid, reg, client):
    reg.status = reg.Status.WITHDRAWN
    reg.save()
    response = _post(client, _url(reg), phone(1))
    assert response.status_code == 400
    assert response.json() == {"error": tr("This player has withdrawn from the tournament.")}


def test_no_player_of_an_unpublished_tournament_or_of_another_one(vapid, reg, client):
    other = RegistrationFactory(tournament=TournamentFactory())
    url = reverse("public:push_subscribe", args=[reg.tournament_id, other.pk])
    assert _post(client, url, phone(1)).status_code == 404
    reg.tournament.published = False
    reg.tournament.save()
    assert _post(client, _url(reg), phone(1)).status_code == 404
    assert client.get(_url(reg)).status_code == 404
    assert PushSubscription.objects.count() == 0


def test_without_the_sites_keys_there_is_nothing_to_follow(settings, reg, client):
    settings.VAPID_PUBLIC_KEY = settings.VAPID_PRIVATE_KEY = ""
    assert client.get(_url(reg)).status_code == 404
    assert _post(client, _url(reg), phone(1)).status_code == 404


def test_a_phone_follows_one_player_the_last_one_chosen(vapid, reg, client):
    other = RegistrationFactory(tournament=reg.tournament)
    _post(client, _url(reg), phone(1))
    assert _post(client, _url(other), phone(1)).status_code == 201
    assert list(PushSubscription.objects.values_list("registration", flat=True)) == [other.pk]


def _endpoints(reg):
    return set(PushSubscription.objects.filter(registration=reg).values_list("endpoint", flat=True))


def test_strangers_filling_the_five_places_never_shut_the_players_own_phone_out(vapid, reg, client):
    for n in range(1, PHONES_PER_PLAYER + 1):                      # strangers, first
        assert _post(Client(), _url(reg), phone(n)).status_code == 201
    own = phone(0)
    assert _post(client, _url(reg), own).status_code == 201       # the player's own phone is taken
    assert _endpoints(reg) == {own["endpoint"]} | {phone(n)["endpoint"] for n in range(2, PHONES_PER_PLAYER + 1)}
    assert _post(client, _url(reg), own).status_code == 201       # a phone that follows may subscribe again
    assert PushSubscription.objects.filter(registration=reg).count() == PHONES_PER_PLAYER


def test_a_phone_a_notification_reached_keeps_its_place_before_those_none_ever_reached(vapid, reg, client):
    own = phone(0)
    assert _post(client, _url(reg), own).status_code == 201
    PushSubscription.objects.filter(endpoint=own["endpoint"]).update(delivered_at=timezone.now())
    for n in range(1, 3 * PHONES_PER_PLAYER):                      # strangers keep posting
        assert _post(Client(), _url(reg), phone(n)).status_code == 201
    assert own["endpoint"] in _endpoints(reg)
    assert _endpoints(reg) - {own["endpoint"]} == {phone(n)["endpoint"] for n in range(
        3 * PHONES_PER_PLAYER - PHONES_PER_PLAYER + 1, 3 * PHONES_PER_PLAYER)}


def test_one_connection_is_stopped_after_the_rate_limit(vapid, reg, client):
    players = [reg] + [RegistrationFactory(tournament=reg.tournament) for _ in range(RATE_LIMIT // PHONES_PER_PLAYER)]
    for n in range(RATE_LIMIT):
        assert _post(client, _url(players[n // PHONES_PER_PLAYER]), phone(n)).status_code == 201
    last = phone(RATE_LIMIT - 1)["endpoint"]
    response = _post(client, reverse("public:push_unsubscribe"), {"endpoint": last})
    assert response.status_code == 429
    assert response.json() == {"error": tr("Too many requests from this connection: try again in a few minutes.")}
    assert PushSubscription.objects.filter(endpoint=last).exists()


def test_switching_off_forgets_the_phone(vapid, reg, client):
    _post(client, _url(reg), phone(1))
    _post(client, _url(reg), phone(2))
    response = _post(client, reverse("public:push_unsubscribe"), {"endpoint": phone(1)["endpoint"]})
    assert response.status_code == 200 and response.json() == {"subscribed": False}
    assert list(PushSubscription.objects.values_list("endpoint", flat=True)) == [phone(2)["endpoint"]]
    again = _post(client, reverse("public:push_unsubscribe"), {"endpoint": phone(1)["endpoint"]})
    assert again.status_code == 200 and PushSubscription.objects.count() == 1


def test_the_players_page_offers_the_option_with_the_sites_public_key(vapid, reg, client):
    page = parse(client.get(reverse("public:player", args=[reg.tournament_id, reg.pk])))
    box = one(page, "[data-push]")
    assert not shown(box)  # push.js shows it on the phone that tapped "This is me"
    assert (box["data-key"], box["data-subscribe"], box["data-worker"]) == (
        PUBLIC_KEY, _url(reg), reverse("public:push_worker"))
    assert [b.has_attr("hidden") for b in select(box, "[data-push-on], [data-push-off]")] == [False, True]
    assert attr(page, "script[src$='push.js']", "src") != []


def test_without_the_sites_keys_the_players_page_has_no_option(settings, reg, client):
    settings.VAPID_PUBLIC_KEY = settings.VAPID_PRIVATE_KEY = ""
    page = parse(client.get(reverse("public:player", args=[reg.tournament_id, reg.pk])))
    assert select(page, "[data-push]") == [] and select(page, "script[src$='push.js']") == []


def test_the_players_worker_is_served_fresh_from_its_own_scope(client):
    response = client.get(reverse("public:push_worker"))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/javascript; charset=utf-8"
    assert "no-cache" in response["Cache-Control"]
    with open(finders.find("js/push-sw.js"), "rb") as source:
        assert response.content == source.read()


@pytest.mark.parametrize("name", ["push_subscribe", "push_unsubscribe"])
def test_a_form_posted_in_place_of_the_json_is_refused_by_name(vapid, reg, name):
    client = _csrf_client()
    token = client.get(_url(reg)).json()["token"]
    url = _url(reg) if name == "push_subscribe" else reverse("public:push_unsubscribe")
    response = client.post(url, {"csrfmiddlewaretoken": token, "endpoint": phone(1)["endpoint"]})   # multipart
    assert response.status_code == 400
    assert response.json() == {"error": tr("The subscription must be sent as JSON.")}
    assert PushSubscription.objects.count() == 0
