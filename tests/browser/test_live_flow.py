"""The live channel in a browser: the public standings open on a phone show a result saved at the
table within 2 seconds, without the page being reloaded (the test server is WSGI: the channel reads
the last message once a second there). The snapshot job runs when the save commits (`snapshots`, as
the worker would): the event carries the page itself and the phone asks for nothing; a page the job
did not render is asked for. While the channel works, the page's own poll is let through once a
minute only."""
import time

import pytest
from django.urls import reverse

from tests.factories import RegistrationFactory, report, seat_round

pytestmark = pytest.mark.django_db(transaction=True)


def _open_standings(live_server, phone, tournament):
    """A round of four seated; the standings open on the phone with its channel working; returns the
    registrations and the round, and the list of the fragment requests the phone makes from now on."""
    regs = [RegistrationFactory(tournament=tournament) for _ in range(4)]
    rnd = seat_round(tournament, [regs])
    url = reverse("public:standings", args=[tournament.pk])
    asked = []
    phone.on("request", lambda r: asked.append(r.url) if r.url.endswith(url) and r.headers.get("hx-request") else None)
    phone.goto(live_server.url + url)
    phone.wait_for_function("() => window.TorneoLive && window.TorneoLive.alive()", timeout=5000)
    assert phone.locator("#standings tr[data-reg]").count() == 0
    phone.evaluate("() => { window.sameDocument = true; }")
    return regs, rnd, asked


def _shows_the_save_within_2_s(phone, regs, rnd):
    saved = time.monotonic()
    report(rnd.tables.get(), [(62,), (48,), (30,), (0, 1)])
    phone.wait_for_selector(f'#standings tr[data-reg="{regs[0].pk}"]', timeout=2000)
    assert time.monotonic() - saved < 2
    assert phone.evaluate("() => window.sameDocument") is True
    assert phone.locator("#standings tr[data-reg]").count() == 4
    assert phone.console_errors == []


def test_a_page_the_job_did_not_render_is_asked_for_within_2_s(live_server, phone, monkeypatch, tournament):
    monkeypatch.setattr("tables.live.snapshot.page_list", lambda: [])  # the event names the version alone
    regs, rnd, asked = _open_standings(live_server, phone, tournament)
    _shows_the_save_within_2_s(phone, regs, rnd)
    assert asked  # the event said "ask for it"


def test_the_event_brings_the_page_and_the_phone_asks_for_nothing(live_server, phone, tournament):
    regs, rnd, asked = _open_standings(live_server, phone, tournament)
    _shows_the_save_within_2_s(phone, regs, rnd)
    assert asked == []
    with phone.expect_request(lambda r: r.headers.get("hx-request") == "true"):
        phone.evaluate("() => htmx.trigger('#standings', 'live')")  # the page swapped in still works as htmx's
    assert len(asked) == 1


def test_while_the_channel_works_the_pages_own_poll_is_let_through_once_a_minute(
        live_server, phone, settings, tournament):
    settings.STANDINGS_POLL_SECONDS = 1
    phone.add_init_script("""window.pollsDue = 0;
        document.addEventListener("htmx:confirm", (event) => {
            const cause = event.detail.triggeringEvent;
            if (event.detail.elt.id === "standings" && !(cause && cause.type === "live")) window.pollsDue++;
        });""")
    _regs, _rnd, asked = _open_standings(live_server, phone, tournament)
    phone.wait_for_function("() => window.pollsDue >= 3", timeout=10000)  # three polls due, each asked leave
    assert len(asked) == 1


def test_without_the_channel_the_page_polls_by_itself(live_server, phone, settings, tournament):
    settings.STANDINGS_POLL_SECONDS = 1
    phone.add_init_script("delete window.EventSource;")  # an old browser, or a channel refused
    regs = [RegistrationFactory(tournament=tournament) for _ in range(4)]
    rnd = seat_round(tournament, [regs])
    phone.goto(live_server.url + reverse("public:standings", args=[tournament.pk]))
    phone.wait_for_function("() => window.TorneoLive", timeout=5000)
    assert phone.evaluate("() => window.TorneoLive.alive()") is False
    report(rnd.tables.get(), [(62,), (48,), (30,), (0, 1)])
    phone.wait_for_selector(f'#standings tr[data-reg="{regs[0].pk}"]', timeout=3000)
    assert phone.console_errors == []


def test_the_players_page_follows_the_channel(live_server, phone, tournament):
    """The player's page (with "my table") follows the channel: the event names the version, the page
    asks for itself once and swaps it in by its hx-select."""
    regs = [RegistrationFactory(tournament=tournament) for _ in range(4)]
    rnd = seat_round(tournament, [regs])
    url = reverse("public:player", args=[tournament.pk, regs[0].pk])
    asked = []
    phone.on("request", lambda r: asked.append(r.url) if r.url.endswith(url) and r.headers.get("hx-request") else None)
    phone.goto(live_server.url + url)
    phone.wait_for_function("() => window.TorneoLive && window.TorneoLive.alive()", timeout=5000)
    assert phone.locator("#player-live [data-stats]").count() == 0
    report(rnd.tables.get(), [(62,), (48,), (30,), (0, 1)])
    phone.wait_for_selector("#player-live [data-stats]", timeout=2000)
    assert len(asked) == 1 and phone.locator("#player-live").count() == 1
    assert phone.console_errors == []
