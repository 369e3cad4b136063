"""The format leads the evening, in the browser: the rounds page and the dashboard offer the format's
next step (a round beyond it needs its box ticked), a club rule picked on "New tournament" brings its
format and its plan, players see the phase of their table and a player straight to the final is told
to wait, the big screen gives the final's place and the qualifying total their own columns and jumps
to a new result, the dashboard keeps a field being typed when a result arrives, the import page asks
"which one?" above its button and in its own words, and a team without a name takes its club's. On a
phone (390x844) and a desk (1280x900), axe-core finding nothing serious."""
import time

import pytest
from django.urls import reverse

from phases import draw
from phases import services as phase_services
from tables.rounds import services as table_services
from tests.browser.catalogue import expect_message, it, it_n
from tests.browser.conftest import PHONE
from tests.browser.test_past_import_flow import _axe
from tests.factories import ClubFactory, PlayerFactory, RegistrationFactory, report, seat_round
from tests.phases.helpers import players, sum3_final_played
from tests.phases.test_master import master_qualified
from tests.transfer.workbooks.books import club_rows, season_rounds, xlsx
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db(transaction=True)
DESK = {"width": 1280, "height": 900}
TV = {"width": 1920, "height": 1080}


def _page(browser, viewport):
    phone = viewport == PHONE
    context = browser.new_context(viewport=viewport, device_scale_factor=1, is_mobile=phone, has_touch=phone,
                                  locale="it-IT", bypass_csp=True)
    page = context.new_page()
    page.console_errors = []
    page.on("console", lambda m: page.console_errors.append(m.text)
            if m.type == "error" and not m.text.startswith("Failed to load resource") else None)
    page.on("pageerror", lambda e: page.console_errors.append(str(e)))
    return page


def _fits(page):
    assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]


def test_the_rounds_page_and_the_dashboard_offer_the_semifinals_after_the_qualifying_rounds(
        live_server, browser, login, shot, organiser, tournament):
    master_qualified(tournament, organiser)
    desk = _page(browser, DESK)
    login(desk, organiser.username)
    desk.goto(live_server.url + reverse("manage:round_dashboard", args=[tournament.pk, 2]))
    assert desk.locator("#format-next-step").inner_text() == it("Seat the semifinals")
    _fits(desk)
    shot(desk, "format-leads-01-dashboard-desk")
    assert _axe(desk) == []
    desk.context.close()

    phone = _page(browser, PHONE)
    login(phone, organiser.username)
    phone.goto(live_server.url + reverse("manage:rounds", args=[tournament.pk]))
    assert phone.locator("#next-step").get_attribute("data-step") == "draw"
    assert phone.locator("#format-next-step").inner_text() == it("Seat the semifinals")
    # A random draw of everyone is behind its own choice, which says what it does.
    phone.click("#outside-format summary")
    phone.click("[data-action=draw-round]")
    phone.wait_for_selector("#outside-format[open] #id_outside_format[aria-invalid=true]")
    assert tournament.rounds.count() == 2
    _fits(phone)
    shot(phone, "format-leads-02-outside-format-refused-phone")
    assert _axe(phone) == []
    phone.click("#format-next-step")
    phone.wait_for_url(lambda url: url.endswith(reverse("manage:round", args=[tournament.pk, 3])))
    assert tournament.rounds.get(number=3).phase.kind == "semifinal"
    assert phone.console_errors == []
    phone.context.close()


def test_a_club_rule_picked_on_new_tournament_brings_its_format_and_plan(live_server, browser, login, shot,
                                                                          organiser):
    phone = _page(browser, PHONE)
    login(phone, organiser.username)
    phone.goto(live_server.url + reverse("manage:tournament_create") + "?regolamento=master")
    phone.fill("#id_name", "Master di Natale")
    phone.fill("#id_start_date", "2026-12-20")
    phone.click("#save-tournament")
    phone.wait_for_url(lambda url: "/nuovo/" not in url)
    tournament = Tournament.objects.get(name="Master di Natale")
    assert tournament.format_preset == "master"
    phone.goto(live_server.url + reverse("manage:rounds", args=[tournament.pk]))
    lines = phone.locator("#format-plan [data-plan-line]").all_inner_texts()
    assert lines[:3] == [it_n("%(phase)s: %(n)d round", "%(phase)s: %(n)d rounds", 2, phase=it("Qualifying rounds"),
                              n=2),
                         it("Semifinals"),
                         it("%(phase)s: %(n)d players", phase=it("Final"), n=4)]
    assert phone.locator("#format-next-step").inner_text() == it(
        "%(phase)s: draw round %(k)d of %(total)d", phase=it("Qualifying rounds"), k=1, total=2)
    _fits(phone)
    shot(phone, "format-leads-03-plan-phone")
    assert _axe(phone) == []
    phone.context.close()
    desk = _page(browser, DESK)
    login(desk, organiser.username)
    desk.goto(live_server.url + reverse("manage:rounds", args=[tournament.pk]))
    assert desk.locator("#format-plan [data-plan-line]").count() == len(lines)
    shot(desk, "format-leads-04-plan-desk")
    assert _axe(desk) == []
    desk.context.close()


def test_players_see_the_semifinal_and_the_direct_finalist_is_told_to_wait(live_server, browser, shot, organiser,
                                                                            tournament):
    regs = master_qualified(tournament, organiser)
    rnd = draw.phase_draw(user=organiser, phase=tournament.phases.get(order=2))
    table_services.round_publish(user=organiser, rnd=rnd)
    for viewport in (PHONE, DESK):
        page = _page(browser, viewport)
        page.goto(live_server.url + reverse("public:round", args=[tournament.pk, rnd.number]))
        assert page.locator("[data-table-label]").all_inner_texts() == [
            it("Semifinal — Table %(n)d", n=n) for n in (1, 2, 3)]
        page.fill("#find", "P00")
        page.wait_for_selector("[data-waiting-final]")
        assert page.locator("[data-not-found]").count() == 0
        assert it("In the final: wait for the end of the semifinals.") in page.locator(
            "[data-waiting-final]").inner_text()
        _fits(page)
        shot(page, f"format-leads-05-find-waiting-{viewport['width']}")
        assert _axe(page) == []
        page.goto(live_server.url + reverse("public:player", args=[tournament.pk, regs[0].pk]))
        assert page.locator("[data-waiting-final]").inner_text() == it(
            "In the final: wait for the end of the semifinals.")
        assert _axe(page) == []
        assert page.console_errors == []
        page.context.close()


def _final_played(tournament, organiser):
    """sum3 and a final: 8 players of known strength, the final won by the 4th of the qualifying."""
    return sum3_final_played(tournament, organiser, screen_panels="standings")


def test_the_big_screen_and_the_widget_label_the_finals_place_and_the_qualifying_total(live_server, browser, shot,
                                                                                       organiser, tournament):
    regs = _final_played(tournament, organiser)
    tv = _page(browser, TV)
    tv.goto(live_server.url + reverse("public:screen", args=[tournament.pk]))
    tv.wait_for_selector("[data-standing]")
    assert tv.locator(".screen-table th[data-col]").all_inner_texts() == [it("Final"), it("Qualifying total")]
    first = tv.locator("[data-standing]").first
    assert regs[3].player.full_name in first.inner_text()
    assert first.locator("[data-final-place]").inner_text() == it("Final · %(place)d°", place=1)
    shot(tv, "format-leads-06-screen-final-order")
    assert _axe(tv) == []
    tv.context.close()
    Tournament.objects.filter(pk=tournament.pk).update(dispute_window_minutes=120)
    for viewport in (PHONE, DESK):
        page = _page(browser, viewport)
        # Every phase played, the dispute window still open: the badge says so, not "phases to play".
        page.goto(live_server.url + reverse("public:standings", args=[tournament.pk]))
        assert page.locator("#lead-status").get_attribute("data-state") == "window"
        assert page.locator("#final-standings th[data-col=qualifying]").inner_text() == it("Qual. total")
        assert page.locator("#final-standings th[data-col=qualifying] abbr").get_attribute("title") == it(
            "Qualifying total")
        _fits(page)
        assert _axe(page) == []
        page.goto(live_server.url + reverse("public:standings_widget", args=[tournament.pk]))
        assert page.locator("[data-widget] th[data-col]").all_inner_texts() == [it("Final"), it("Qualifying total")]
        assert page.locator("[data-widget] td[data-final-place]").first.inner_text() == it(
            "Final · %(place)d°", place=1)
        _fits(page)
        assert _axe(page) == []
        page.context.close()


def test_the_big_screen_jumps_to_a_new_result_within_5_s_then_turns_on(live_server, browser, shot, organiser,
                                                                        tournament):
    Tournament.objects.filter(pk=tournament.pk).update(published=True, screen_panels="seating,standings,results",
                                                       screen_seconds=30)
    regs = players(tournament, 8)
    rnd = seat_round(tournament, [regs[:4], regs[4:]])
    report(rnd.tables.get(number=1), [(62,), (48,), (30,), (0, 1)])
    tv = _page(browser, TV)
    tv.goto(live_server.url + reverse("public:screen", args=[tournament.pk]))
    tv.wait_for_function("() => document.body.getAttribute('data-current-panel') === 'seating'")
    tv.wait_for_function("() => window.TorneoLive && window.TorneoLive.alive()", timeout=5000)
    saved = time.monotonic()
    report(rnd.tables.get(number=2), [(70,), (50,), (30,), (0, 1)])
    tv.wait_for_function("() => document.body.getAttribute('data-current-panel') === 'results' && "
                         "document.querySelectorAll('[data-result]').length === 2", timeout=5000)
    assert time.monotonic() - saved < 5
    assert tv.get_attribute("body", "data-jumps") == "1"
    shot(tv, "format-leads-07-screen-jumped-to-result")
    assert _axe(tv) == []
    # A page's time later (at least 8 s: 3 pages, 30 s each, within a minute: 20 s) the turn goes on.
    tv.wait_for_function("() => document.body.getAttribute('data-current-panel') !== 'results'", timeout=25000)
    assert tv.get_attribute("body", "data-current-panel") in ("seating", "standings")
    assert tv.console_errors == []
    tv.context.close()


@pytest.mark.parametrize("viewport", [PHONE, DESK], ids=["phone", "desk"])
def test_the_dashboard_keeps_the_minutes_being_typed_when_a_result_arrives(live_server, browser, login, shot,
                                                                           organiser, tournament, viewport):
    regs = players(tournament, 8)
    rnd = seat_round(tournament, [regs[:4], regs[4:]])
    page = _page(browser, viewport)
    login(page, organiser.username)
    page.goto(live_server.url + reverse("manage:round_dashboard", args=[tournament.pk, rnd.number]))
    page.wait_for_function("() => window.TorneoLive && window.TorneoLive.alive()", timeout=5000)
    page.click("#clock-minutes")
    page.keyboard.press("Control+A")
    page.keyboard.type("4")
    report(rnd.tables.get(number=1), [(62,), (48,), (30,), (0, 1)])
    page.wait_for_selector("#round-dashboard [data-table-state=reported]", timeout=5000)
    page.keyboard.type("5")
    assert page.input_value("#clock-minutes") == "45"
    assert page.evaluate("document.activeElement.id") == "clock-minutes"
    _fits(page)
    shot(page, f"format-leads-08-dashboard-typing-{viewport['width']}")
    assert _axe(page) == []
    assert page.console_errors == []
    page.context.close()


@pytest.mark.parametrize("viewport", [PHONE, DESK], ids=["phone", "desk"])
def test_the_import_page_asks_which_one_above_its_button_and_in_its_own_words(live_server, browser, login, shot,
                                                                              organiser, tmp_path, viewport):
    for club in ("Club A", "Club B"):
        PlayerFactory(first_name="Chiara", last_name="Ricci", club=ClubFactory(name=club), created_by=organiser)
    path = tmp_path / "2019-10-12 Torneo d'autunno.xlsx"
    path.write_bytes(xlsx(club_rows(season_rounds())))
    page = _page(browser, viewport)
    login(page, organiser.username)
    page.goto(live_server.url + reverse("manage:past_import"))
    page.set_input_files("input[name=file]", str(path))
    page.click("#preview-past-import")
    page.wait_for_selector("#import-ready")
    pick = page.locator("select[data-pick]").bounding_box()
    button = page.locator("#confirm-past-import").bounding_box()
    assert pick["y"] < button["y"]   # the question comes before the button that needs it
    page.select_option("select[name=formula]", "standard")
    page.click("#confirm-past-import")   # "which one?" left unanswered (the form is sent as it is: novalidate)
    expect_message(page, it_n("Choose which known player %(names)s is in the list of players, then import.",
                              "Choose which known player each of %(names)s is in the list of players, then import.",
                              1, names="Chiara Ricci"))
    assert not Tournament.objects.filter(name="Torneo d'autunno").exists()
    _fits(page)
    shot(page, f"format-leads-09-import-which-one-{viewport['width']}")
    assert _axe(page) == []
    page.context.close()


@pytest.mark.parametrize("viewport", [PHONE, DESK], ids=["phone", "desk"])
def test_a_championship_team_without_a_name_takes_its_clubs(live_server, browser, login, shot, organiser,
                                                             tournament, viewport):
    phase_services.format_apply(user=organiser, tournament=tournament, preset="team_championship")
    club = ClubFactory(name="Lario")
    regs = [RegistrationFactory(tournament=tournament, present=True, player__club=club,
                                player__last_name=f"Lario{i}") for i in range(4)]
    page = _page(browser, viewport)
    login(page, organiser.username)
    page.goto(live_server.url + reverse("manage:championship_teams", args=[tournament.pk]))
    form = page.locator("form#new-team")
    for reg in regs:
        form.locator(f"#player-{reg.pk}").check()
    form.locator("button[type=submit]").click()
    page.wait_for_selector("#championship-teams [data-team-name]")
    assert page.locator("#championship-teams [data-team-name]").all_inner_texts() == ["Lario"]
    _fits(page)
    shot(page, f"format-leads-10-default-team-name-{viewport['width']}")
    assert _axe(page) == []
    page.context.close()
