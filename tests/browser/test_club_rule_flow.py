"""The organiser picks a club's rule, "Master", on the new-tournament screen of a phone: every setting
is filled, one is edited, the tournament is saved with its rule and its page names it; axe-core finds
nothing serious on the filled form."""
import pytest

from tests.browser.catalogue import expect_message, it
from tests.browser.conftest import PHONE
from tests.browser.test_accessibility import SERIOUS
from tests.browser.test_room_flow import AXE
from tests.factories import RegistrationFactory, report, seat_round
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db(transaction=True)


def test_master_picked_on_a_phone_fills_the_new_tournament(live_server, browser, login, shot, organiser):
    # axe-core is added as a script of its own: the page's CSP is bypassed for it (checked elsewhere).
    context = browser.new_context(viewport=PHONE, device_scale_factor=1, is_mobile=True, has_touch=True,
                                  locale="it-IT", bypass_csp=True)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    login(page, organiser.username)
    page.goto(f"{live_server.url}/gestione/tornei/nuovo/")
    page.select_option("#club-rule", "master")   # sent at once by the page's script (its button without)
    page.wait_for_selector("[data-club-rule-filled=master]")
    assert page.input_value("#id_formula") == "millesimi"
    assert page.input_value("#id_tiebreak_2") == "previous_round"
    assert page.input_value("#id_rounds_planned") == "2"
    assert page.locator("#more-settings").get_attribute("open") is not None
    shot(page, "club_rule_master_phone")
    if AXE.exists():
        page.add_script_tag(path=str(AXE))
        assert page.evaluate(SERIOUS) == []
    page.fill("#id_name", "Master di Natale")
    page.fill("#id_start_date", "2026-12-20")
    page.fill("#id_rounds_planned", "3")   # the Master plays 2: refused on the field, by the rule's name
    page.click("#save-tournament")
    page.wait_for_selector("#id_rounds_planned[aria-invalid=true]")
    assert not Tournament.objects.filter(name="Master di Natale").exists()
    page.fill("#id_rounds_planned", "2")
    page.select_option("#id_table_size", "5")   # a setting of the rule edited before saving is kept
    page.click("#save-tournament")
    expect_message(page, it("Tournament created."))
    saved = Tournament.objects.get(name="Master di Natale")
    assert (saved.formula, saved.tiebreak, saved.rounds_planned, saved.table_size, saved.club_preset,
            saved.format_preset) == ("millesimi", "best_results,previous_round", 2, 5, "master", "master")
    assert page.locator("#club-rule-name").inner_text() == "Master (millesimi)"
    assert errors == []
    context.close()


def test_side_by_side_with_the_club_rules_on_a_phone(live_server, browser, login, shot, organiser, tournament):
    regs = [RegistrationFactory(tournament=tournament) for _ in range(5)]
    report(seat_round(tournament, [regs]).tables.get(), [(60,), (48,), (30,), (12,), (0, 1)])
    context = browser.new_context(viewport=PHONE, device_scale_factor=1, is_mobile=True, has_touch=True,
                                  locale="it-IT", bypass_csp=True)
    page = context.new_page()
    login(page, organiser.username)
    page.goto(f"{live_server.url}/gestione/t/{tournament.pk}/formule/")
    from tournaments.club_presets import CLUB_PRESETS
    assert page.locator("table.compare thead th[data-column^='preset:']").count() == len(CLUB_PRESETS) == 11
    shot(page, "formulas_compared_with_club_rules_phone")
    if AXE.exists():
        page.add_script_tag(path=str(AXE))
        assert page.evaluate(SERIOUS) == []
    page.goto(f"{live_server.url}/formule/#club-rules")   # the list of the club rules, linked from the page
    assert page.locator("[data-club-rule]").count() == len(CLUB_PRESETS)
    shot(page, "club_rules_list_phone")
    if AXE.exists():
        page.add_script_tag(path=str(AXE))
        assert page.evaluate(SERIOUS) == []
    context.close()
