"""A Raduno's public standings on a phone (SCORING.md 13.9): each finalist's final and place."""
import pytest
from django.urls import reverse

from phases import draw
from phases import services as phase_services
from tables.rounds import services as table_services
from tests.browser.catalogue import it
from tests.browser.test_accessibility import SERIOUS
from tests.browser.test_room_flow import AXE
from tests.phases.helpers import play, players, strength_of

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.skipif(not AXE.exists(), reason="axe-core not installed: make node_modules/.installed")
def test_the_raduno_standings_name_each_finalists_final(live_server, browser, phone, shot, tournament, organiser):
    tournament.dispute_window_minutes = 0
    tournament.save()
    regs = players(tournament, 20)
    strength = strength_of(regs)
    phase_services.format_apply(user=organiser, tournament=tournament, preset="raduno", games=1)
    qualifying, semifinals, final = tournament.phases.order_by("order")
    play(draw.phase_draw(user=organiser, phase=qualifying, seed=1), strength, organiser)
    play(draw.phase_draw(user=organiser, phase=semifinals), strength, organiser)
    play(draw.phase_draw(user=organiser, phase=final), strength, organiser)
    for rnd in tournament.rounds.all():
        table_services.standings_publish(user=organiser, rnd=rnd)
    page = phone
    page.goto(live_server.url + reverse("public:standings", args=[tournament.pk]))
    first = page.locator("#final-standings tbody tr").first
    assert (first.get_attribute("data-final"), first.get_attribute("data-place")) == ("1", "1")
    assert first.locator("td").last.inner_text() == it("final %(n)s, %(place)s°", n=1, place=1)
    assert page.locator("#final-standings tr[data-final]").count() == 4
    shot(page, "61-raduno-standings")
    assert page.console_errors == []
    context = browser.new_context(viewport={"width": 390, "height": 844}, bypass_csp=True, locale="it-IT")
    checked = context.new_page()
    checked.goto(live_server.url + reverse("public:standings", args=[tournament.pk]))
    checked.add_script_tag(path=str(AXE))
    assert checked.evaluate(SERIOUS) == []
    context.close()
