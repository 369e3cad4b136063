"""Browser: on a phone the organiser seats the Master's semifinals; the format page says beforehand and
afterwards that the sole unbeaten leader goes straight to the final and 2nd-13th play 3 semifinals
(SCORING.md 13.8); the page passes axe-core."""
import pytest
from django.urls import reverse

from tests.browser.catalogue import it
from tests.browser.conftest import PHONE
from tests.browser.test_past_import_flow import _axe
from tests.phases.helpers import players
from tests.phases.test_master import _qualifying

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_organiser_seats_the_master_semifinals_on_a_phone(live_server, browser, login, shot, organiser,
                                                               tournament):
    regs = players(tournament, 16)
    tp = {i: 40 - 2 * i for i in range(16)}   # the first player of each table wins: P00 wins both, alone on top
    _qualifying(tournament, organiser, regs, [
        ([[0, 4, 8, 12], [1, 5, 9, 13], [2, 6, 10, 14], [3, 7, 11, 15]], tp),
        ([[0, 5, 10, 15], [1, 4, 11, 14], [2, 7, 8, 13], [3, 6, 9, 12]], tp)])
    context = browser.new_context(viewport=PHONE, device_scale_factor=1, is_mobile=True, has_touch=True,
                                  locale="it-IT", bypass_csp=True)
    phone = context.new_page()
    login(phone, organiser.username)
    phone.goto(live_server.url + reverse("manage:formats", args=[tournament.pk]))
    plan = it("The 1st won both games and leads alone: straight to the final; %(tables)d semifinals of "
              "%(low)d-%(high)d.", tables=3, low=2, high=13)
    preview = phone.locator("#phase-2 [data-master-case=preview]")
    assert preview.inner_text() == it("Seated now: %(plan)s", plan=plan)
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(phone, "master-01-before-semifinals")
    assert _axe(phone) == []

    phone.click("#draw-phase-2")
    phone.wait_for_selector("#publish-phase-2")
    assert phone.locator("#phase-2 [data-master-case=unbeaten]").inner_text() == plan
    assert plan in phone.locator("ul.messages").inner_text()
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(phone, "master-02-semifinals-seated")
    assert _axe(phone) == []
    semi = tournament.phases.get(order=2)
    assert semi.settings["seeded_to_final"] == [regs[0].pk]
    assert len(semi.settings["semifinalists"]) == 12
    rnd = tournament.rounds.get(phase=semi)
    assert sorted(t.seats.count() for t in rnd.tables.all()) == [4, 4, 4]
    phone.click("#publish-phase-2")
    phone.wait_for_selector("#close-phase-2")
    context.close()
