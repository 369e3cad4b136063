"""While results pour in, a public page is rendered by one request at a time and the others get the
last rendered page, never one whose render started more than PUBLIC_PAGE_STALE_SECONDS ago
(tables/standings/cache.py). The clock is the module's `_now`; every server reads one shared cache."""
from decimal import Decimal

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from tables.arbitration import services as arbitration
from tables.standings import cache as public_cache
from tables.models import Table
from tests.factories import RegistrationFactory, report, seat_round
from tests.html import one, select
from tournaments.models import AuditLog
from tournaments.versions import results_through

STALE, REFRESH = 1.5, 0.5
POLL = {"HX-Request": "true"}


class Clock:
    def __init__(self):
        self.now = 1_000_000.0

    def __call__(self):
        return self.now


@pytest.fixture
def clock(monkeypatch, settings):
    settings.PUBLIC_PAGE_STALE_SECONDS, settings.PUBLIC_PAGE_REFRESH_SECONDS = STALE, REFRESH
    clock = Clock()
    monkeypatch.setattr(public_cache, "_now", clock)
    return clock


@pytest.fixture
def played(tournament, organiser):
    """8 players, round 1 played and published; round 2 published with no result yet."""
    regs = [RegistrationFactory(tournament=tournament, player__last_name=f"Gioc{i:03d}") for i in range(8)]
    from tables.rounds import services
    rnd = seat_round(tournament, [regs[:4], regs[4:]])
    for table in rnd.tables.all():
        report(table, [(40,), (30,), (20,), (0, 1)])
    services.round_close(user=organiser, rnd=rnd)
    services.standings_publish(user=organiser, rnd=rnd)
    seat_round(tournament, [regs[::2], regs[1::2]])
    return regs


def _url(tournament):
    return reverse("public:standings", args=[tournament.pk])


def _save(tournament, number, points, organiser, capture):
    """Save round 2 table `number` with first place `points`, committed (so the version names it);
    returns the id of its last audit entry."""
    table = Table.objects.get(round__tournament=tournament, round__number=2, number=number)
    with capture(execute=True):
        report(table, [(points,), (30,), (20,), (0, 1)], user=organiser)
    return AuditLog.objects.filter(tournament=tournament).latest("pk").pk


def _through(response):
    return results_through(response[public_cache.VERSION_HEADER])


def test_a_save_shows_in_the_first_poll_after_the_stale_bound(clock, tournament, played, organiser,
                                                             django_capture_on_commit_callbacks):
    url = _url(tournament)
    first = Client().get(url, headers=POLL)
    saved = _save(tournament, 1, 77, organiser, django_capture_on_commit_callbacks)
    clock.now += 0.2  # within the refresh interval of the last render: its page stands in
    early = Client().get(url, headers=POLL)
    assert (early.content, early["ETag"], early[public_cache.VERSION_HEADER]) == (
        first.content, first["ETag"], first[public_cache.VERSION_HEADER])
    assert _through(early) < saved
    clock.now += REFRESH  # past it: the next request renders the new version
    late = Client().get(url, headers=POLL)
    assert _through(late) >= saved
    assert late.content != first.content and late["ETag"] != first["ETag"]


def test_past_the_stale_bound_a_request_waits_for_the_render_under_way(clock, tournament, played, organiser,
                                                                      django_capture_on_commit_callbacks,
                                                                      monkeypatch):
    url = _url(tournament)
    first = Client().get(url, headers=POLL)
    lock = public_cache.page_key(tournament.pk, url, first["Content-Language"], True) + ":lock"
    saved = _save(tournament, 1, 77, organiser, django_capture_on_commit_callbacks)
    clock.now += REFRESH + 0.1
    assert cache.add(lock, 1, 60)  # another server starts rendering the new version
    during = Client().get(url, headers=POLL)  # the last render started 0.6 s ago: it stands in
    assert during.content == first.content and _through(during) < saved
    clock.now = 1_000_000.0 + STALE + 0.01  # the last render started more than the bound ago: not served
    waits = []

    def other_server_gives_up(seconds):
        waits.append(seconds)
        cache.delete(lock)
    monkeypatch.setattr(public_cache.time, "sleep", other_server_gives_up)
    after = Client().get(url, headers=POLL)
    assert waits, "the request waited for the render under way"
    assert after.content != first.content and _through(after) >= saved
    assert cache.get(lock) is None  # released once rendered
    assert Client().get(url, headers=POLL).content == after.content  # and kept


def test_a_correction_of_a_published_round_and_a_penalty_change_the_page_like_a_save(
        clock, tournament, played, organiser, django_capture_on_commit_callbacks):
    url = _url(tournament)
    before = Client().get(url, headers=POLL)
    table = Table.objects.get(round__tournament=tournament, round__number=1, number=1)
    with django_capture_on_commit_callbacks(execute=True):
        report(table, [(88,), (30,), (20,), (0, 1)], user=organiser)  # the organiser corrects round 1
    corrected = AuditLog.objects.filter(tournament=tournament).latest("pk")
    assert corrected.action == "result.correct"
    clock.now += STALE + 0.01
    after_correction = Client().get(url, headers={**POLL, "If-None-Match": before["ETag"]})
    assert after_correction.status_code == 200 and after_correction.content != before.content
    assert _through(after_correction) >= corrected.pk
    seat = table.seats.order_by("position").first()
    with django_capture_on_commit_callbacks(execute=True):
        arbitration.penalty_give(user=organiser, tournament=tournament, registration=seat.registration,
                                 kind="points", points=Decimal(5), reason="ritardo", seat=seat)
    penalised = AuditLog.objects.filter(tournament=tournament).latest("pk")
    clock.now += 0.1  # within the refresh interval: the page before the penalty stands in
    assert Client().get(url, headers=POLL).content == after_correction.content
    clock.now += STALE
    after_penalty = Client().get(url, headers={**POLL, "If-None-Match": after_correction["ETag"]})
    assert after_penalty.status_code == 200 and after_penalty.content != after_correction.content
    assert _through(after_penalty) >= penalised.pk


class Servers:
    """Two servers over one shared cache."""

    def __init__(self, monkeypatch):
        self.monkeypatch = monkeypatch

    def get(self, server, url, **headers):
        return Client().get(url, headers=headers)


def test_two_servers_never_serve_different_versions_longer_than_the_bound(clock, tournament, played, organiser,
                                                                          django_capture_on_commit_callbacks,
                                                                          monkeypatch):
    url = _url(tournament)
    servers = Servers(monkeypatch)
    saves = []  # (time, audit id) of each committed save
    for step in range(16):
        if step % 3 != 2:
            saves.append((clock.now, _save(tournament, 1 + step % 2, 50 + step, organiser,
                                           django_capture_on_commit_callbacks)))
        clock.now += 0.3
        answers = [servers.get(step % 2, url, **POLL), servers.get(1 - step % 2, url, **POLL),
                   servers.get(step % 2, url)]  # and the full page, a page of its own
        versions = {a[public_cache.VERSION_HEADER] for a in answers[:2]}
        assert len(versions) == 1, f"step {step}: the two servers differ"
        assert answers[0].content == answers[1].content
        due = max((audit for at, audit in saves if at <= clock.now - STALE), default=0)
        for answer in answers:
            assert _through(answer) >= due, f"step {step}: a save older than the bound is missing"


def test_stale_pages_keep_the_anonymous_and_logged_in_split(clock, tournament, played, organiser,
                                                            django_capture_on_commit_callbacks):
    url = _url(tournament)
    anonymous = Client().get(url)
    sessions = [Client(enforce_csrf_checks=True), Client(enforce_csrf_checks=True)]
    for session in sessions:
        session.force_login(organiser)
    theirs = sessions[0].get(url)
    _save(tournament, 1, 77, organiser, django_capture_on_commit_callbacks)
    clock.now += 0.1  # the anonymous page stands in for the new version for now
    again = Client().get(url)
    assert again.content == anonymous.content and select(again, "form[data-logout]") == []
    assert "csrftoken" not in again.cookies
    for session in sessions:
        page = session.get(url)  # a logged-in page is never kept: it shows the new version at once
        assert page["ETag"] not in (theirs["ETag"], anonymous["ETag"])
        assert page[public_cache.VERSION_HEADER] != anonymous[public_cache.VERSION_HEADER]
        token = one(page, "form[data-logout] input[name=csrfmiddlewaretoken]")["value"]
        assert session.post(reverse("logout"), {"csrfmiddlewaretoken": token}).status_code == 302
    clock.now += STALE
    fresh = Client().get(url)
    assert fresh.content != anonymous.content and select(fresh, "form[data-logout]") == []
