"""The club secretary brings a past tournament from a workbook, on a phone and on a desktop: the
preview shows every round's tables, a row in error is marked, a namesake is chosen, the settings are
chosen and the standings follow; the pages pass axe-core."""
import pytest

from tests.browser.conftest import PHONE
from tests.browser.test_accessibility import SERIOUS
from tests.browser.test_room_flow import AXE
from tests.factories import ClubFactory, PlayerFactory
from tests.transfer.workbooks.books import club_rows, gestione_sheets, season_rounds, xlsx
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db(transaction=True)
DESKTOP = {"width": 1280, "height": 900}


def _axe(page):
    if not AXE.exists():
        return []
    page.add_script_tag(path=str(AXE))
    return page.evaluate(SERIOUS)


def test_a_past_tournament_imported_on_a_phone(live_server, browser, login, shot, organiser, tmp_path):
    # axe-core is added as a script of its own: the page's CSP is bypassed for it (checked elsewhere).
    context = browser.new_context(viewport=PHONE, device_scale_factor=1, is_mobile=True, has_touch=True,
                                  locale="it-IT", bypass_csp=True)
    phone = context.new_page()
    known = [PlayerFactory(first_name="Chiara", last_name="Ricci", club=ClubFactory(name=c), created_by=organiser)
             for c in ("Club A", "Club B")]
    path = tmp_path / "2019-10-12 Torneo d'autunno.xlsx"
    path.write_bytes(xlsx(club_rows(season_rounds())))
    login(phone, organiser.username)
    phone.locator("[data-past-import-link]").click()
    phone.wait_for_url("**/gestione/tornei/importa/")
    shot(phone, "past_import_start_phone")
    phone.set_input_files("input[name=file]", str(path))
    phone.click("#preview-past-import")
    phone.wait_for_selector("#import-ready")
    assert phone.locator("[data-round]").count() == 2
    assert phone.locator("[data-row-error]").count() == 0
    assert phone.input_value("input[name=name]") == "Torneo d'autunno"
    key = phone.locator("[data-state=choose]").get_attribute("data-person")
    phone.select_option(f"select[name='pick-{key}']", str(known[1].pk))
    phone.select_option("select[name=formula]", "standard")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    shot(phone, "past_import_preview_phone")
    assert _axe(phone) == []
    phone.click("#confirm-past-import")
    phone.wait_for_url("**/gestione/t/*/**")
    tournament = Tournament.objects.get(name="Torneo d'autunno")
    assert tournament.registrations.filter(player=known[1]).exists() and tournament.formula == "standard"
    shot(phone, "past_import_standings_phone")
    context.close()


def test_a_workbook_with_errors_on_a_desktop(live_server, browser, login, shot, organiser, tmp_path):
    context = browser.new_context(viewport=DESKTOP, locale="it-IT", bypass_csp=True)
    page = context.new_page()
    rounds = season_rounds()
    rounds[1][0][2]["points"] = "venti"
    rounds[0][0][3]["points"] = 10
    path = tmp_path / "ModuloTorneo.xlsx"
    path.write_bytes(xlsx(gestione_sheets(rounds)))
    login(page, organiser.username)
    page.goto(live_server.url + "/gestione/tornei/importa/")
    page.set_input_files("input[name=file]", str(path))
    page.click("#preview-past-import")
    page.wait_for_selector("#import-errors")
    assert page.locator("[data-row-error]").count() == 2
    assert page.locator("#confirm-past-import").count() == 0
    shot(page, "past_import_errors_desktop")
    assert _axe(page) == []
    path.write_bytes(xlsx(gestione_sheets(season_rounds())))
    page.set_input_files("input[name=file]", str(path))
    page.click("#preview-past-import")
    page.wait_for_selector("#import-ready")
    page.click("#more-settings summary")
    page.check("input[name=published]")
    shot(page, "past_import_preview_desktop")
    page.fill("input[name=start_date]", "2019-06-15")   # the file's name carries no date: the page asks
    page.click("#confirm-past-import")
    page.wait_for_url("**/t/*/classifica/**")
    assert Tournament.objects.get().published
    shot(page, "past_import_standings_desktop")
    context.close()
