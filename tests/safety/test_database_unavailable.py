"""While the database cannot be reached every page answers a short 503 "riprova tra poco" with
Retry-After, no traceback on the page nor in the log; a public page already in the cache is still
served."""
import logging

import pytest
from django.db import OperationalError
from django.db.backends.base.base import BaseDatabaseWrapper
from django.test import Client
from django.urls import reverse

from risiko_site.errors import NOTICE
from tests.factories import RegistrationFactory, seat_round
from tests.html import one, parse, select, text, tr

IT = {"Accept-Language": "it"}
TITLE = "Service unavailable"
UNAVAILABLE = "The site cannot reach its database right now: try again in a moment."


@pytest.fixture
def database_down():
    """Call it to make every new query fail as with the server stopped; undone before the test's
    other fixtures (which need the database) are torn down."""
    def refuse(self):
        raise OperationalError('connection to server at "127.0.0.1", port 5432 failed: Connection refused')
    original = BaseDatabaseWrapper.ensure_connection
    yield lambda: setattr(BaseDatabaseWrapper, "ensure_connection", refuse)
    BaseDatabaseWrapper.ensure_connection = original


def _unavailable(response):
    """The short Italian page: its title, the message and the trademark notice, nothing else (no traceback)."""
    assert response.status_code == 503
    assert response["Retry-After"] == "5"
    page = parse(response)
    assert one(page, "html")["lang"] == "it" and tr(UNAVAILABLE, "it") != UNAVAILABLE
    assert text(one(page, "[data-unavailable]")) == tr(UNAVAILABLE, "it")
    assert list(page.body.stripped_strings) == [tr(TITLE, "it"), tr(UNAVAILABLE, "it"), NOTICE]
    assert text(one(page, "[data-trademark]")) == NOTICE
    assert not select(page, "script, style, pre")


@pytest.fixture
def round_1(tournament):
    regs = [RegistrationFactory(tournament=tournament) for _ in range(4)]
    return seat_round(tournament, [regs])


def test_every_kind_of_page_answers_503_without_a_traceback(tournament, round_1, arbiter, database_down, caplog):
    logged_in = Client(raise_request_exception=False)
    logged_in.force_login(arbiter)
    form = reverse("arbiter:table", args=[tournament.pk, 1, 1])
    database_down()
    caplog.set_level(logging.WARNING)
    anonymous = Client(raise_request_exception=False)
    _unavailable(anonymous.get(reverse("public:standings", args=[tournament.pk]), headers=IT))
    _unavailable(anonymous.post(reverse("login"), {"username": "arturo", "password": "x"}, headers=IT))
    _unavailable(logged_in.get(form, headers=IT))  # the session itself is in the database
    _unavailable(logged_in.post(form, {"version": "0"}, headers=IT))
    records = [r for r in caplog.records if r.name == "django.request"]
    assert records and all(r.exc_info is None and "database unavailable" in r.getMessage() for r in records)
    assert all(r.levelno < logging.CRITICAL for r in caplog.records)


def test_the_page_is_in_english_for_an_english_visitor(tournament, database_down):
    database_down()
    response = Client(raise_request_exception=False).get(reverse("public:standings", args=[tournament.pk]),
                                                         headers={"Accept-Language": "en"})
    assert response.status_code == 503
    assert one(response, "html")["lang"] == "en"
    assert text(one(response, "[data-unavailable]")) == tr(UNAVAILABLE, "en")


def test_a_public_page_in_the_cache_is_still_served(tournament, round_1, database_down):
    url = reverse("public:standings", args=[tournament.pk])
    first = Client().get(url)
    database_down()
    again = Client(raise_request_exception=False).get(url)
    assert (again.status_code, again.content) == (200, first.content)


def test_other_errors_stay_a_500(tournament, monkeypatch):
    from tables.standings import views as standings_views

    def broken(*args, **kwargs):
        raise ValueError("a bug")
    monkeypatch.setattr(standings_views, "tournament_for_public", broken)
    response = Client(raise_request_exception=False).get(reverse("public:standings", args=[tournament.pk]))
    assert response.status_code == 500 and "Retry-After" not in response


def test_a_public_page_of_a_newer_version_falls_back_to_its_last_render(tournament, round_1, database_down):
    from tables.standings.cache import VERSION_HEADER
    from tournaments.versions import bump
    url = reverse("public:standings", args=[tournament.pk])
    first = Client().get(url)
    bump(tournament.pk)  # a change saved just before the database went away
    database_down()
    again = Client(raise_request_exception=False).get(url)
    assert (again.status_code, again.content) == (200, first.content)
    assert again[VERSION_HEADER] == first[VERSION_HEADER]
    other = Client(raise_request_exception=False).get(reverse("public:standings_print", args=[tournament.pk]),
                                                      headers=IT)
    _unavailable(other)  # never rendered: nothing to fall back on
