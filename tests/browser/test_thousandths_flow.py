"""A Master in millesimi on a phone (SCORING.md 13.4): the standings and a player's page write every
point with its 3 decimals, the wider numbers still fit the screen, and axe finds nothing serious."""
import pytest
from django.urls import reverse

from tests.browser.conftest import PHONE
from tests.browser.test_accessibility import SERIOUS
from tests.browser.test_room_flow import AXE
from tests.factories import TournamentFactory
from tests.tables.standings.test_thousandths import _played


@pytest.mark.browser
@pytest.mark.skipif(not AXE.exists(), reason="axe-core not installed: make node_modules/.installed")
def test_a_master_reads_its_thousandths_on_a_phone(live_server, browser, shot, organiser):
    tournament = TournamentFactory(organiser=organiser, name="Master di prova")
    carlo = _played(tournament, organiser, "millesimi")["Bari"]
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, bypass_csp=True, locale="it-IT")
    phone = context.new_page()
    phone.goto(live_server.url + reverse("public:standings", args=[tournament.pk]))
    row = f"tr[data-reg='{carlo.pk}']"
    assert phone.inner_text(f"{row} td.total") == "1,091"
    assert [c.inner_text() for c in phone.query_selector_all(f"{row} td.round-col")] == ["1,050", "0,041"]
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    shot(phone, "millesimi-standings")
    phone.add_script_tag(path=str(AXE))
    assert phone.evaluate(SERIOUS) == []
    phone.goto(live_server.url + reverse("public:player", args=[tournament.pk, carlo.pk]))
    assert [p.inner_text() for p in phone.query_selector_all("[data-dropped], span.points")] == ["1,050", "0,041"]
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    shot(phone, "millesimi-player")
    context.close()
