import pytest

from tables.models import Table
from tests.factories import RegistrationFactory, seat_round

pytestmark = pytest.mark.django_db(transaction=True)


def test_arbiter_enters_a_round_and_public_standings_update_by_themselves(
        live_server, browser, phone, login, shot, tournament, settings):
    settings.STANDINGS_POLL_SECONDS = 1
    names = ["Rossi", "Bianchi", "Ferrari", "Romano", "Colombo", "Ricci", "Marino", "Greco"]
    regs = [RegistrationFactory(tournament=tournament, player__first_name="Gioc", player__last_name=n) for n in names]
    seat_round(tournament, [regs[:4], regs[4:]])

    viewer = browser.new_context(viewport={"width": 390, "height": 844}, locale="it-IT").new_page()
    viewer.goto(f"{live_server.url}/t/{tournament.pk}/classifica/")
    assert viewer.locator("#standings tbody tr").count() == 1  # "no results yet"

    page = phone
    login(page, "arturo")
    page.goto(f"{live_server.url}/arbitro/t/{tournament.pk}/")
    shot(page, "20-arbiter-tables")
    results = {1: ["62", "48", "30", "0"], 2: ["40", "39", "2", "0"]}
    for number, points in results.items():
        page.goto(f"{live_server.url}/arbitro/t/{tournament.pk}/turni/1/tavoli/{number}/")
        for i, tp in enumerate(points):
            page.fill(f"#id_p{i}-table_points", tp)
        page.fill("#id_p3-eliminated", "1")
        if number == 1:
            shot(page, "21-result-entry")
        page.click("main button[type=submit]")
        page.wait_for_selector(".msg-success")
    assert Table.objects.filter(round__tournament=tournament, reported_at__isnull=False).count() == 2
    shot(page, "22-arbiter-all-reported")

    # The public page, opened before the results, shows them without a reload.
    viewer.wait_for_selector("#standings tbody tr:nth-child(8)", timeout=10_000)
    first = viewer.locator("#standings tbody tr").first
    assert "Rossi" in first.inner_text()
    assert "150,14" in first.inner_text()
    shot(viewer, "23-public-standings")
    assert page.console_errors == []
    viewer.context.close()  # its live stream ends with it


def test_result_entry_calculator_sums_ticked_territories(live_server, phone, login, shot, tournament):
    regs = [RegistrationFactory(tournament=tournament) for _ in range(4)]
    seat_round(tournament, [regs])
    page = phone
    login(page, "arturo")
    page.goto(f"{live_server.url}/arbitro/t/{tournament.pk}/turni/1/tavoli/1/")
    page.locator(".calculator summary").first.click()
    for name in ["Ontario", "Europa Meridionale", "Alaska"]:
        page.locator(f"input[name=p0-territories][value='{name}']").check()
    assert page.input_value("#id_p0-table_points") == "15"
    shot(page, "24-territory-calculator")
