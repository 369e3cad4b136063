"""When a round's seating is published, after the publication commits, each phone following one of
its players gets one notification, and a player moved to another table of a published round is
told the new one; nothing for a draft round, for an unpublished tournament or without the site's keys. A push service answering 404 or 410 (the phone unsubscribed, or its
subscription expired) makes the site forget the phone; any other failure is logged, keeps the
phone and never undoes the publication."""
import json
import logging

import pytest
import requests
from pywebpush import WebPushException

from tables.models import PushSubscription, Round
from tables.push import sender
from tables.push.address import public_session
from tables.push.keys import b64url
from tables.push.services import notify_round, subscription_save
from tables.rounds import services as rounds
from tests.factories import RegistrationFactory, TournamentFactory, seat_round
from tests.tables.push.conftest import phone


def _follow(reg, n, language="it"):
    data = phone(n)
    return subscription_save(registration=reg, endpoint=data["endpoint"], p256dh=data["keys"]["p256dh"],
                             auth=data["keys"]["auth"], language=language)


@pytest.fixture
def draft(tournament):
    """A draft round of two tables of four; each player of table 1 and one of table 2 follow on a phone."""
    regs = [RegistrationFactory(tournament=tournament, player__last_name=n, present=True) for n in "ABCDEFGH"]
    rnd = seat_round(tournament, [regs[:4], regs[4:]], status="draft")
    return rnd, regs


def _publish(organiser, rnd, capture):
    with capture(execute=True):
        return rounds.round_publish(user=organiser, rnd=rnd)


def _answer(status):
    response = requests.Response()
    response.status_code = status
    return WebPushException(f"Push failed: {status}", response=response)


def test_each_phone_of_the_rounds_players_gets_one_notification(vapid, pushed, organiser, draft,
                                                                 django_capture_on_commit_callbacks):
    rnd, regs = draft
    _follow(regs[0], 1)
    _follow(regs[5], 2, language="en")
    elsewhere = RegistrationFactory(tournament=rnd.tournament)  # registered, not seated in this round
    _follow(elsewhere, 3)
    other = RegistrationFactory(tournament=TournamentFactory())
    seat_round(other.tournament, [[other]], status="draft")
    _follow(other, 4)
    _publish(organiser, rnd, django_capture_on_commit_callbacks)
    sent = {m["endpoint"]: json.loads(m["data"])["body"] for m in pushed.sent}
    assert sent == {phone(1)["endpoint"]: "Turno 1 — Tavolo 1, con B, C, D",
                    phone(2)["endpoint"]: "Round 1 — Table 2, with E, G, H"}


def test_a_message_is_signed_with_the_sites_key_and_kept_half_an_hour(vapid, pushed, organiser, draft,
                                                                     django_capture_on_commit_callbacks):
    rnd, regs = draft
    _follow(regs[0], 1)
    _publish(organiser, rnd, django_capture_on_commit_callbacks)
    [message] = pushed.sent
    assert message["vapid_claims"] == {"sub": "mailto:club@example.org"}
    assert message["ttl"] == 1800 and message["timeout"] == vapid.PUSH_TIMEOUT_SECONDS
    assert message["headers"] == {"Urgency": "high"}


def test_nothing_is_sent_before_the_publication_commits(vapid, pushed, organiser, draft,
                                                        django_capture_on_commit_callbacks):
    rnd, regs = draft
    _follow(regs[0], 1)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        rounds.round_publish(user=organiser, rnd=rnd)
    assert pushed.sent == [] and len(callbacks) >= 1


def test_nothing_is_sent_for_an_unpublished_tournament(vapid, pushed, organiser, draft,
                                                       django_capture_on_commit_callbacks):
    rnd, regs = draft
    _follow(regs[0], 1)
    rnd.tournament.published = False
    rnd.tournament.save()
    _publish(organiser, rnd, django_capture_on_commit_callbacks)
    assert Round.objects.get(pk=rnd.pk).status == Round.Status.PUBLISHED
    assert pushed.sent == []


def test_nothing_is_sent_for_a_draft_round(vapid, pushed, organiser, draft, django_capture_on_commit_callbacks):
    rnd, regs = draft
    _follow(regs[0], 1)
    with django_capture_on_commit_callbacks(execute=True):
        rounds.round_reseat(user=organiser, rnd=rnd)  # the draft changed, still not public
    assert notify_round(rnd.pk) == {}
    assert pushed.sent == []


def test_nothing_is_sent_without_the_sites_keys(vapid, pushed, organiser, draft, django_capture_on_commit_callbacks):
    rnd, regs = draft
    _follow(regs[0], 1)
    vapid.VAPID_PUBLIC_KEY = vapid.VAPID_PRIVATE_KEY = ""
    _publish(organiser, rnd, django_capture_on_commit_callbacks)
    assert pushed.sent == []


@pytest.mark.parametrize("status", [404, 410])
def test_a_phone_the_push_service_no_longer_knows_is_forgotten(vapid, pushed, organiser, draft, status,
                                                               django_capture_on_commit_callbacks):
    rnd, regs = draft
    gone, kept = _follow(regs[0], 1), _follow(regs[1], 2)
    pushed.answers[gone.endpoint] = _answer(status)
    _publish(organiser, rnd, django_capture_on_commit_callbacks)
    assert len(pushed.sent) == 2
    assert list(PushSubscription.objects.values_list("pk", flat=True)) == [kept.pk]


@pytest.mark.parametrize("refusal", [_answer(400), _answer(401), _answer(403), _answer(413)])
def test_a_subscription_its_push_service_refuses_goes(vapid, pushed, organiser, draft, refusal,
                                                       django_capture_on_commit_callbacks):
    rnd, regs = draft
    refused, kept = _follow(regs[0], 1), _follow(regs[1], 2)
    pushed.answers[refused.endpoint] = refusal
    _publish(organiser, rnd, django_capture_on_commit_callbacks)
    assert list(PushSubscription.objects.values_list("pk", flat=True)) == [kept.pk]


def test_a_subscription_with_keys_no_message_can_be_encrypted_to_goes_without_a_request(
        vapid, organiser, draft, monkeypatch, django_capture_on_commit_callbacks):
    """Stored before the keys were checked: the real sending fails before a byte leaves, and the place is freed."""
    rnd, regs = draft
    kept = _follow(regs[1], 2)
    junk = PushSubscription.objects.create(registration=regs[0], endpoint=phone(1)["endpoint"],
                                           p256dh=b64url(b"\x04" + b"\x01" * 64), auth=phone(1)["keys"]["auth"])
    posted = []

    class Offline:
        def post(self, url, **kwargs):
            posted.append(url)
            raise requests.ConnectionError("offline")

    monkeypatch.setattr(sender, "_session", Offline)
    _publish(organiser, rnd, django_capture_on_commit_callbacks)
    assert posted == [kept.endpoint]            # the junk keys' message never left
    assert list(PushSubscription.objects.values_list("pk", flat=True)) == [kept.pk]


def test_a_phone_a_notification_reached_is_marked_so(vapid, pushed, organiser, draft,
                                                    django_capture_on_commit_callbacks):
    rnd, regs = draft
    reached, failing = _follow(regs[0], 1), _follow(regs[1], 2)
    pushed.answers[failing.endpoint] = _answer(500)
    _publish(organiser, rnd, django_capture_on_commit_callbacks)
    reached.refresh_from_db()
    failing.refresh_from_db()
    assert reached.delivered_at is not None and failing.delivered_at is None


def test_the_sending_never_follows_a_redirect(vapid):
    """A push service's answer is its answer: a 3xx is never followed to another address."""
    asked = []

    class Redirecting(requests.adapters.BaseAdapter):
        def send(self, request, **kwargs):
            asked.append(request.url)
            response = requests.Response()
            response.status_code, response.url, response.request = 307, request.url, request
            response.headers["Location"] = "https://169.254.169.254/latest/meta-data"
            return response

        def close(self):
            pass

    session = public_session()
    session.mount("https://", Redirecting())
    response = session.post("https://fcm.googleapis.com/fcm/send/x", data=b"x", timeout=2)
    assert response.status_code == 307 and asked == ["https://fcm.googleapis.com/fcm/send/x"]
    with pytest.raises(requests.TooManyRedirects):   # even asked to, it would not follow one
        requests.Session.request(session, "POST", "https://fcm.googleapis.com/fcm/send/y", allow_redirects=True)


@pytest.mark.parametrize("failure", [_answer(500), _answer(429), requests.Timeout("slow"),
                                     requests.ConnectionError("no route")])
def test_any_other_failure_is_logged_and_keeps_the_phone_and_the_publication(vapid, pushed, organiser, draft,
                                                                             failure, caplog,
                                                                             django_capture_on_commit_callbacks):
    rnd, regs = draft
    failing, fine = _follow(regs[0], 1), _follow(regs[1], 2)
    pushed.answers[failing.endpoint] = failure
    with caplog.at_level(logging.INFO, logger="torneo.push"):
        _publish(organiser, rnd, django_capture_on_commit_callbacks)
    assert Round.objects.get(pk=rnd.pk).status == Round.Status.PUBLISHED
    assert sorted(PushSubscription.objects.values_list("pk", flat=True)) == sorted([failing.pk, fine.pk])
    assert [r.levelname for r in caplog.records if f"subscription {failing.pk} failed" in r.getMessage()] == \
        ["WARNING"]
    assert notify_round(rnd.pk) == {sender.FAILED: 1, sender.SENT: 1}


@pytest.mark.django_db(transaction=True)
def test_the_notifications_wait_in_the_database_for_the_push_worker(vapid, pushed, tournament, organiser):
    """In production the publication queues one job in the database (TASKS_BACKEND=database): nothing is
    sent by the organiser's request, a restart of any process loses nothing, and the push worker sends
    it (`manage.py db_worker --backend default`, here one batch)."""
    from django.core.management import call_command
    from django_tasks_db.models import DBTaskResult
    vapid.TASKS = {**vapid.TASKS, "default": {"BACKEND": "django_tasks_db.DatabaseBackend", "QUEUES": ["push"]}}
    regs = [RegistrationFactory(tournament=tournament, player__last_name=n) for n in "ABCD"]
    rnd = seat_round(tournament, [regs], status="draft")
    _follow(regs[3], 1)
    rounds.round_publish(user=organiser, rnd=rnd)
    assert pushed.sent == []
    [job] = DBTaskResult.objects.all()
    assert (job.task_path, job.status, job.args_kwargs["args"]) == (
        "tables.push.services.send_round", "READY", [rnd.pk])
    call_command("db_worker", "--backend", "default", "--queue-name", "push", "--batch", "--no-startup-delay",
                 verbosity=0)
    assert [json.loads(m["data"])["body"] for m in pushed.sent] == ["Turno 1 — Tavolo 1, con A, B, C"]
    assert DBTaskResult.objects.get().status == "SUCCESSFUL"


def test_players_moved_in_a_published_round_are_told_their_new_table(vapid, pushed, organiser, draft,
                                                                      django_capture_on_commit_callbacks):
    rnd, regs = draft
    for n, reg in enumerate(regs, start=1):
        _follow(reg, n)
    _publish(organiser, rnd, django_capture_on_commit_callbacks)
    pushed.sent.clear()
    seat_a = rnd.tables.get(number=1).seats.get(registration=regs[0])
    seat_e = rnd.tables.get(number=2).seats.get(registration=regs[4])
    with django_capture_on_commit_callbacks(execute=True):
        rounds.seats_swap(user=organiser, rnd=rnd, seat_a=seat_a.pk, seat_b=seat_e.pk)
    sent = {m["endpoint"]: json.loads(m["data"])["body"] for m in pushed.sent}
    assert sent == {phone(1)["endpoint"]: "Turno 1 — Tavolo 2, con F, G, H",
                    phone(5)["endpoint"]: "Turno 1 — Tavolo 1, con B, C, D"}
    pushed.sent.clear()
    with django_capture_on_commit_callbacks(execute=True):
        rounds.seat_move(user=organiser, rnd=rnd, seat=seat_a.pk, table_number=1)
    assert [(m["endpoint"], json.loads(m["data"])["body"]) for m in pushed.sent] == [
        (phone(1)["endpoint"], "Turno 1 — Tavolo 1, con E, B, C, D")]


def test_a_change_of_a_draft_tells_nobody(vapid, pushed, organiser, draft, django_capture_on_commit_callbacks):
    rnd, regs = draft
    _follow(regs[0], 1)
    seat_a = rnd.tables.get(number=1).seats.get(registration=regs[0])
    seat_e = rnd.tables.get(number=2).seats.get(registration=regs[4])
    with django_capture_on_commit_callbacks(execute=True):
        rounds.seats_swap(user=organiser, rnd=rnd, seat_a=seat_a.pk, seat_b=seat_e.pk)
        rounds.seat_move(user=organiser, rnd=rnd, seat=seat_a.pk, table_number=1)
    assert pushed.sent == []


@pytest.mark.parametrize("endpoint", ["https://attacker.example\\.fcm.googleapis.com/x",
                                      "https://169.254.169.254\\.fcm.googleapis.com/latest/meta-data",
                                      "http://fcm.googleapis.com/fcm/send/x"])
def test_an_address_stored_before_the_check_is_never_posted_to(vapid, pushed, organiser, draft, endpoint,
                                                               django_capture_on_commit_callbacks):
    rnd, regs = draft
    PushSubscription.objects.create(registration=regs[0], endpoint=endpoint, p256dh=phone(1)["keys"]["p256dh"],
                                    auth=phone(1)["keys"]["auth"], language="it")
    _publish(organiser, rnd, django_capture_on_commit_callbacks)
    assert pushed.sent == []


def test_the_sending_never_connects_to_a_private_or_loopback_address(vapid):
    """Whatever a push service's name resolves to at the time of sending, the connection is made only to
    a public network address: here a listener on this machine receives nothing."""
    import socket
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(1)
    listener.settimeout(0.5)
    port = listener.getsockname()[1]
    try:
        with pytest.raises(requests.ConnectionError):
            sender._session().post(f"https://127.0.0.1:{port}/fcm/send/x", data=b"x", timeout=2)
        connection, _address = listener.accept()  # the TCP connection is made, then closed unread
        connection.settimeout(0.5)
        assert connection.recv(1) == b""  # not a byte sent: not even the TLS greeting
    finally:
        listener.close()
