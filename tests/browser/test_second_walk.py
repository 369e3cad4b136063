"""The second walk through a club evening (issue 41), one test a point: what a player who glances at
a screen, an organiser or an arbiter still misread or waited for. Screenshots on a phone (390x844)
first, then 1366x768 or 1920x1080."""
from decimal import Decimal

import pytest
from django.urls import reverse

from tests.browser.catalogue import it, it_n
from tests.browser.conftest import PHONE
from tests.factories import PlayerFactory, RegistrationFactory, report, seat_round

pytestmark = pytest.mark.django_db(transaction=True)
LAPTOP = {"width": 1366, "height": 768}
TV = {"width": 1920, "height": 1080}
SURNAMES = ["Rossi", "Bianchi", "Ferrari", "Romano", "Colombo", "Ricci", "Marino", "Greco"]


def _context(browser, viewport=PHONE):
    phone = viewport == PHONE
    context = browser.new_context(viewport=viewport, device_scale_factor=1, locale="it-IT", is_mobile=phone,
                                  has_touch=phone)
    page = context.new_page()
    page.console_errors = []
    page.on("pageerror", lambda e: page.console_errors.append(str(e)))
    page.on("console", lambda m: page.console_errors.append(m.text) if m.type == "error"
            and not m.text.startswith("Failed to load resource") else None)
    return page


def _login(page, live_server, username):
    page.goto(live_server.url + "/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", "pw-for-tests-123")
    page.click("main button[type=submit]")
    page.wait_for_url("**/gestione/**")


def _players(tournament, n=8):
    return [RegistrationFactory(tournament=tournament, present=True,
                                player=PlayerFactory(first_name=f"Nome{i}", last_name=SURNAMES[i % 8]))
            for i in range(n)]


@pytest.fixture
def two_rounds_one_discarded(tournament):
    """Two rounds played and closed, the worst result of each player discarded: Rossi scores 80 then
    150,36, a total of 150,36."""
    tournament.formula = "punti_tavolo"
    tournament.discard_worst = 1
    tournament.save()
    regs = _players(tournament, 4)
    r1 = seat_round(tournament, [regs], status="closed")
    report(r1.tables.get(), [(80,), (60,), (40,), (0, 1)])
    r2 = seat_round(tournament, [regs], status="closed")
    report(r2.tables.get(), [(Decimal("150.36"),), (50,), (30,), (0, 1)])
    return regs


def test_a_result_that_does_not_count_is_struck_through_in_every_standings_view(
        browser, live_server, tournament, two_rounds_one_discarded, shot):
    rossi = two_rounds_one_discarded[0]
    rule = it("Total: %(rule)s; struck-through results do not count.",
              rule=it_n("the worst result is discarded", "the worst %(n)s results are discarded", 1))
    page = _context(browser)
    page.goto(live_server.url + reverse("public:player", args=[tournament.pk, rossi.pk]))
    assert page.inner_text("[data-counting]") == rule
    assert page.locator("[data-dropped] s").all_inner_texts() == ["80"]
    assert page.inner_text("[data-dropped] .badge") == it("not counted")
    shot(page, "walk1-player-390")
    page.context.close()

    page = _context(browser, LAPTOP)
    page.goto(live_server.url + reverse("public:standings", args=[tournament.pk]))
    row = page.locator(f"tr[data-reg='{rossi.pk}']")
    assert row.locator("td.total").inner_text() == "150,36"
    assert row.locator("td[data-dropped] s").all_inner_texts() == ["80"]
    assert page.locator("td[data-dropped]").count() == 4            # one a player
    assert page.inner_text("[data-counting]") == rule
    shot(page, "walk1-standings-1366")
    page.goto(live_server.url + reverse("public:standings_print", args=[tournament.pk]))
    assert page.locator(f"tr[data-reg='{rossi.pk}'] td[data-dropped] s").all_inner_texts() == ["80"]
    assert page.inner_text("[data-counting]") == rule
    page.context.close()

    tournament.screen_panels = "standings"
    tournament.save()
    page = _context(browser, TV)
    page.goto(live_server.url + reverse("public:screen", args=[tournament.pk]))
    page.wait_for_selector("[data-standing]")
    assert page.inner_text("[data-counting]") == it(
        "Total: %(rule)s.", rule=it_n("the worst result is discarded", "the worst %(n)s results are discarded", 1))
    shot(page, "walk1-screen-1920")
    assert page.console_errors == []
    page.context.close()
