"""axe-core on the pages the organiser and the arbiter use every evening, on a phone: zero serious or
critical violations (the room's public pages are checked in test_room_flow.py)."""
import pytest
from django.urls import reverse

from tests.browser.test_room_flow import AXE, _room

SERIOUS = ("async () => (await axe.run(document)).violations"
           ".filter(v => ['serious', 'critical'].includes(v.impact))"
           ".map(v => v.id + ': ' + v.nodes.slice(0, 3).map(n => n.target.join(' ')).join(', '))")


def _violations(browser, live_server, login, username, paths):
    context = browser.new_context(viewport={"width": 390, "height": 844}, bypass_csp=True, locale="it-IT")
    page = context.new_page()
    login(page, username)
    found = {}
    for path in paths:
        assert page.goto(live_server.url + path).status == 200, path
        page.add_script_tag(path=str(AXE))
        result = page.evaluate(SERIOUS)
        if result:
            found[path] = result
    context.close()
    return found


@pytest.mark.skipif(not AXE.exists(), reason="axe-core not installed: make node_modules/.installed")
def test_the_organisers_evening_pages_have_no_serious_violations(live_server, browser, login, tournament,
                                                                  organiser):
    _room(tournament, organiser, players=8)
    pk = tournament.pk
    paths = [reverse("manage:home"), reverse("manage:tournament", args=[pk]),
             reverse("manage:registrations", args=[pk]), reverse("manage:rounds", args=[pk]),
             reverse("manage:round", args=[pk, 2]), reverse("manage:results", args=[pk]),
             reverse("manage:tournament_create")]
    assert _violations(browser, live_server, login, organiser.username, paths) == {}


@pytest.mark.skipif(not AXE.exists(), reason="axe-core not installed: make node_modules/.installed")
def test_the_arbiters_pages_have_no_serious_violations(live_server, browser, login, tournament, organiser,
                                                        arbiter):
    _room(tournament, organiser, players=8)
    pk = tournament.pk
    paths = [reverse("arbiter:home", args=[pk]), reverse("arbiter:table", args=[pk, 2, 2]),
             reverse("arbiter:penalties", args=[pk]), reverse("arbiter:disputes", args=[pk])]
    assert _violations(browser, live_server, login, arbiter.username, paths) == {}
