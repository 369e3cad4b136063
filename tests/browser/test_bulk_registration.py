"""The players page: the club's list with "select all / register selected", check-in by htmx that keeps
the page and its scroll position, "everybody present", a CSV and a pasted list of names registered
straight into the tournament; on a phone and on a desktop."""
import pytest

from tests.browser.catalogue import (expect_import_preview, expect_message, it, it_n, presence_counts,
                                     registered_from_list)
from tests.browser.conftest import PHONE
from tests.factories import ClubFactory, PlayerFactory
from tournaments.models import Registration

pytestmark = pytest.mark.django_db(transaction=True)
DESKTOP = {"width": 1280, "height": 800}


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_register_the_club_list_and_check_in_row_by_row(live_server, browser, login, shot, tournament, viewport,
                                                       tmp_path):
    club = ClubFactory(name="RisiKo Club Forlì")
    tournament.club = club
    tournament.save()
    players = [PlayerFactory(first_name=f"Nome{i:02d}", last_name=f"Cognome{i:02d}", club=club) for i in range(20)]
    PlayerFactory(first_name="Altro", last_name="Club")
    context = browser.new_context(viewport=viewport, locale="it-IT")
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    login(page, "olga")
    page.goto(f"{live_server.url}/gestione/t/{tournament.pk}/iscritti/")
    assert page.locator("#search-results input[name=players]").count() == 20   # the club's list only
    page.check("#select-all")
    assert page.locator("#search-results input[name=players]:checked").count() == 20
    page.uncheck(f"#search-results input[value='{players[0].pk}']")
    page.click("#register-selected")
    expect_message(page, it_n("%(n)d player registered.", "%(n)d players registered.", 19))
    page.wait_for_load_state("load")   # the check-in buttons answer by htmx once it is set up
    assert tournament.registrations.count() == 19

    page.evaluate("window.notReloaded = true")
    row = page.locator("tbody tr").nth(15)
    row.scroll_into_view_if_needed()
    before = page.evaluate("window.scrollY")
    assert before > 0
    row.locator("button.checkin-toggle").click()
    page.wait_for_selector("#reg-counts[data-present='1'][data-registered='19']")
    assert page.inner_text("#reg-counts") == presence_counts(1, 19)
    toggle = page.locator("tbody tr").nth(15).locator("button.checkin-toggle")
    assert toggle.get_attribute("aria-pressed") == "true" and toggle.inner_text() == it("present")
    assert page.evaluate("window.notReloaded") is True
    assert page.evaluate("window.scrollY") == before
    shot(page, f"bulk-players-{viewport['width']}")
    assert Registration.objects.filter(tournament=tournament, present=True).count() == 1

    page.click(".subnav [data-nav=checkin]")
    page.wait_for_selector(".checkin-btn")
    page.wait_for_load_state("load")
    page.evaluate("window.notReloaded = true")
    page.locator(".checkin-btn:not(.is-present)").nth(10).scroll_into_view_if_needed()
    before = page.evaluate("window.scrollY")
    page.locator(".checkin-btn:not(.is-present)").nth(10).click()
    page.wait_for_selector("#reg-counts[data-present='2'][data-registered='19']")
    assert page.inner_text("#reg-counts") == presence_counts(2, 19)
    assert page.evaluate("window.notReloaded") is True
    assert page.evaluate("window.scrollY") == before
    shot(page, f"bulk-checkin-{viewport['width']}")
    page.click("#all-present")
    expect_message(page, it_n("%(n)d player checked in.", "%(n)d players checked in.", 17))
    assert Registration.objects.filter(tournament=tournament, present=True).count() == 19

    # A CSV of the club and a pasted list of names, each registered straight into the tournament.
    csv_file = tmp_path / "club.csv"
    csv_file.write_text("nome;cognome;club\nIrene;Rizzo;RisiKo Club Forlì\nNiccolò;Forlì;RisiKo Club Forlì\n",
                        encoding="utf-8")
    page.click(".subnav [data-nav=players]")
    page.wait_for_selector("#import-panel", state="attached")   # the players page, not the check-in one still
    page.wait_for_load_state("load")
    page.evaluate("document.querySelector('#import-panel').open = true")
    page.set_input_files("#id_file", str(csv_file))
    page.click("#preview-import")
    expect_import_preview(page, 2)
    page.click("#confirm-import")
    expect_message(page, registered_from_list(2, new=2))
    page.evaluate("document.querySelector('#import-panel').open = true")
    page.fill("#id_names", "Anna Neri; RisiKo Club Forlì\nMarco Verdi")
    page.click("#preview-import")
    expect_import_preview(page, 2)
    shot(page, f"bulk-pasted-list-{viewport['width']}")
    page.click("#confirm-import")
    expect_message(page, registered_from_list(2, new=2))
    names = set(Registration.objects.filter(tournament=tournament).values_list("player__last_name", flat=True))
    assert {"Rizzo", "Forlì", "Neri", "Verdi"} <= names and len(names) == 23
    assert page.locator("#reg-counts").inner_text() == presence_counts(19, 23)
    assert errors == []
    context.close()

