"""The live channel in a browser: the public standings open on a phone show a result saved at the
table within 2 seconds, without the page being reloaded (the test server is WSGI: the channel reads
the last change announced once a second there); with render on write the event carries the page
itself and the phone asks for nothing; while the channel works, the page's own poll is let through
once a minute only."""
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


def test_the_public_standings_show_a_saved_result_within_2_s_without_a_reload(live_server, phone, tournament):
    regs, rnd, asked = _open_standings(live_server, phone, tournament)
    _shows_the_save_within_2_s(phone, regs, rnd)
    assert asked  # the page was not rendered on write: the event said "ask for it"


def test_with_render_on_write_the_event_brings_the_page_and_the_phone_asks_for_nothing(
        live_server, phone, settings, tournament):
    settings.PUBLIC_PAGE_RENDER_ON_WRITE = True
    regs, rnd, asked = _open_standings(live_server, phone, tournament)
    phone.evaluate("() => htmx.trigger('#standings', 'live')")  # a fragment asked for once: it is watched
    phone.wait_for_timeout(300)
    asked.clear()
    _shows_the_save_within_2_s(phone, regs, rnd)
    assert asked == []
    phone.evaluate("() => htmx.trigger('#standings', 'live')")  # the page swapped in still works as htmx's
    phone.wait_for_timeout(300)
    assert len(asked) == 1


def test_while_the_channel_works_the_pages_own_poll_is_let_through_once_a_minute(
        live_server, phone, settings, tournament):
    settings.STANDINGS_POLL_SECONDS = 1
    _regs, _rnd, asked = _open_standings(live_server, phone, tournament)
    phone.wait_for_timeout(3500)  # three polls or more due
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


def test_the_players_page_follows_the_channel_with_the_page_it_carries(live_server, phone, settings, tournament):
    """The player's page (with "my table") is carried as the standings are: swapped in by its
    hx-select, with no request."""
    settings.PUBLIC_PAGE_RENDER_ON_WRITE = True
    regs = [RegistrationFactory(tournament=tournament) for _ in range(4)]
    rnd = seat_round(tournament, [regs])
    url = reverse("public:player", args=[tournament.pk, regs[0].pk])
    asked = []
    phone.on("request", lambda r: asked.append(r.url) if r.url.endswith(url) and r.headers.get("hx-request") else None)
    phone.goto(live_server.url + url)
    phone.wait_for_function("() => window.TorneoLive && window.TorneoLive.alive()", timeout=5000)
    phone.evaluate("() => htmx.trigger('#player-live', 'live')")  # the page asked for once: it is watched
    phone.wait_for_timeout(300)
    assert phone.locator("#player-live [data-stats]").count() == 0
    asked.clear()
    report(rnd.tables.get(), [(62,), (48,), (30,), (0, 1)])
    phone.wait_for_selector("#player-live [data-stats]", timeout=2000)
    assert asked == [] and phone.locator("#player-live").count() == 1
    assert phone.console_errors == []
