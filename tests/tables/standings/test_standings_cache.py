"""The public standings are computed once per change, and every change shows at once."""
import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse
from django.utils.translation import get_language

from tables.standings import versioned
from tables.standings import pages
from tables.standings import views as standings_views
from tables.standings.selectors import StandingsState
from tests.factories import RegistrationFactory, report, seat_round
from tests.html import attr, one, select, text, tr
from tournaments import services


@pytest.fixture(autouse=True)
def empty_cache():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def computed(monkeypatch):
    """How many times the standings were computed."""
    calls = []
    compute = pages.tournament_standings
    monkeypatch.setattr(pages, "tournament_standings", lambda t: calls.append(t.pk) or compute(t))
    return calls


@pytest.fixture
def table(tournament):
    regs = [RegistrationFactory(tournament=tournament, player__last_name=n) for n in "ABCDEFGH"]
    rnd = seat_round(tournament, [regs[:4], regs[4:]])
    report(rnd.tables.get(number=1), [(62,), (48,), (30,), (0, 1)])
    return rnd.tables.get(number=2)


def _rows(response):
    """(player, total) of each row of the standings table, as shown."""
    return [(text(row.a).split()[-1], text(one(row, "td.total"))) for row in select(response, "tr[data-reg]")]


def test_standings_are_computed_once_while_nothing_changes(client, tournament, table, computed):
    url = reverse("public:standings", args=[tournament.pk])
    first, second = client.get(url), Client().get(url)
    assert (first.status_code, second.status_code) == (200, 200)
    assert _rows(first) == _rows(second) == [("A", "150.14"), ("B", "86"), ("C", "60"), ("D", "10")]
    assert computed == [tournament.pk]


def test_a_saved_result_shows_at_once(client, tournament, table, computed, django_capture_on_commit_callbacks):
    url = reverse("public:standings", args=[tournament.pk])
    before = client.get(url)
    with django_capture_on_commit_callbacks(execute=True):
        report(table, [(50,), (40,), (30,), (0, 1)])
    after = client.get(url)
    assert before["ETag"] != after["ETag"]
    assert len(computed) == 2
    assert [name for name, _total in _rows(before)] == ["A", "B", "C", "D"]
    assert sorted(name for name, _total in _rows(after)) == list("ABCDEFGH")


def test_a_formula_change_shows_at_once(client, tournament, table, organiser, django_capture_on_commit_callbacks):
    url = reverse("public:standings", args=[tournament.pk])
    before = client.get(url)
    with django_capture_on_commit_callbacks(execute=True):
        services.tournament_save(user=organiser, tournament=tournament, data={"formula": "vittorie"})
    after = client.get(url)
    shown = [one(page, "[data-formula]") for page in (before, after)]
    assert [p["data-formula"] for p in shown] == ["conversione150", "vittorie"]
    assert text(shown[0]).endswith(" · " + tr("Conversion 150"))
    assert text(shown[1]).endswith(" · " + tr("Number of wins"))
    assert _rows(before) != _rows(after)


def test_htmx_poll_gets_the_same_rows_as_the_page(client, tournament, table):
    url = reverse("public:standings", args=[tournament.pk])
    page, poll = client.get(url), client.get(url, headers={"HX-Request": "true"})
    assert _rows(page) == _rows(poll) != []
    assert select(page, "html") and select(poll, "html") == [] and one(poll, "#standings")


def test_full_page_etag_is_the_same_between_requests(client, tournament, table):
    url = reverse("public:standings", args=[tournament.pk])
    etag = client.get(url)["ETag"]
    assert client.get(url)["ETag"] == etag
    assert client.get(url, headers={"If-None-Match": etag}).status_code == 304


def test_htmx_poll_and_full_page_have_different_etags(client, tournament, table):
    url = reverse("public:standings", args=[tournament.pk])
    assert client.get(url)["ETag"] != client.get(url, headers={"HX-Request": "true"})["ETag"]


def test_etag_changes_when_the_dispute_window_closes(client, tournament, table, organiser):
    from datetime import timedelta
    from unittest import mock

    from django.utils import timezone
    from django.utils.dateparse import parse_datetime

    from tables.rounds import services

    def localtime(value):
        return timezone.localtime(parse_datetime(value) if isinstance(value, str) else value)
    rnd = table.round
    report(table, [(40,), (30,), (20,), (0, 1)])
    services.round_close(user=organiser, rnd=rnd)
    services.standings_publish(user=organiser, rnd=rnd)
    rnd.refresh_from_db()
    url = reverse("public:standings", args=[tournament.pk])
    during = client.get(url)
    assert attr(during, "[data-state]", "data-state") == ["window"]
    closes = localtime(one(during, "[data-state]")["data-window-closes"])
    assert closes == localtime(rnd.standings_published_at) + timedelta(minutes=tournament.dispute_window_minutes)
    assert text(one(during, "[data-state]")) == (tr("Definitive at %(when)s unless a dispute is raised")
                                                 % {"when": closes.strftime("%H:%M")} + f' · {tr("updates by itself")}')
    later = timezone.now() + timedelta(minutes=tournament.dispute_window_minutes + 1)
    with mock.patch("django.utils.timezone.now", return_value=later):
        after = client.get(url, headers={"If-None-Match": during["ETag"]})
    assert after.status_code == 200
    assert after["ETag"] != during["ETag"]
    assert attr(after, "[data-state]", "data-state") == ["final"]
    assert text(one(after, "[data-state]")) == tr("Standings final")


def test_standings_being_computed_elsewhere_are_waited_for_not_computed_again(tournament, table, computed,
                                                                              monkeypatch, rf):
    """Another worker holds the computation of this version: this request waits for its result."""
    from django.contrib.auth.models import AnonymousUser
    request = rf.get("/")
    request.user = AnonymousUser()
    slot = versioned.tournament_slot("standings", tournament, standings_views._version(request, tournament))
    cache.set(slot.lock, 1)
    other = pages.tournament_standings(tournament)  # what the other worker computes
    computed.clear()

    def sleep(_seconds):  # the other worker finishes while this one waits
        cache.set(slot.key, other)
    monkeypatch.setattr(versioned.time, "sleep", sleep)
    assert standings_views.cached_standings(request, tournament) == other
    assert computed == []


def test_standings_are_computed_when_the_other_worker_never_finishes(tournament, table, computed, monkeypatch, rf):
    from django.contrib.auth.models import AnonymousUser
    request = rf.get("/")
    request.user = AnonymousUser()
    cache.set(versioned.tournament_slot("standings", tournament, standings_views._version(request, tournament)).lock, 1)
    monkeypatch.setattr(versioned.time, "sleep", lambda _s: None)
    result = standings_views.cached_standings(request, tournament)
    assert computed == [tournament.pk]
    assert [r.player.last_name for r in result.rows][:1] == ["A"]


def test_the_standings_table_being_rendered_elsewhere_is_waited_for_not_rendered_again(tournament, table, monkeypatch,
                                                                                     rf):
    """Another worker renders this version's table: this request takes its HTML."""
    from django.contrib.auth.models import AnonymousUser
    request = rf.get("/")
    request.user = AnonymousUser()
    context = {"tournament": tournament, "status": "provisional", "state": StandingsState("provisional"), "poll": True,
               "poll_seconds": 15}
    version = standings_views._version(request, tournament)
    slot = versioned.tournament_slot("standings", tournament, version).part(f"html:{get_language()}:provisional:True:15")
    cache.set(slot.lock, 1)
    rendered = []
    monkeypatch.setattr(pages, "render_to_string", lambda *args: rendered.append(args) or "mine")

    def sleep(_seconds):  # the other worker finishes while this one waits
        cache.set(slot.key, "<table>theirs</table>")
    monkeypatch.setattr(versioned.time, "sleep", sleep)
    assert pages.standings_table(tournament, version, context) == "<table>theirs</table>"
    assert rendered == []
    cache.delete(slot.lock)
    assert pages.standings_table(tournament, "another-version", context) == "mine"
    assert len(rendered) == 1
