"""Two arbiters save the same table: the second sees the saved result in the form, not their own."""
from decimal import Decimal

import pytest

from tests.factories import RegistrationFactory, seat_round

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize("viewport,name", [({"width": 390, "height": 844}, "phone"),
                                           ({"width": 1280, "height": 900}, "desktop")])
def test_stale_form_shows_the_saved_values_and_a_second_tap_keeps_them(
        live_server, browser, shot, tournament, organiser, viewport, name):
    regs = [RegistrationFactory(tournament=tournament, player__first_name="Gioc", player__last_name=n)
            for n in ["Rossi", "Bianchi", "Ferrari", "Romano"]]
    table = seat_round(tournament, [regs]).tables.get()
    url = f"{live_server.url}/arbitro/t/{tournament.pk}/turni/1/tavoli/1/"
    pages = []
    for username in ("arturo", "olga"):
        context = browser.new_context(viewport=viewport, locale="it-IT", is_mobile=name == "phone",
                                      has_touch=name == "phone")
        page = context.new_page()
        page.goto(live_server.url + "/accounts/login/")
        page.fill("#id_username", username)
        page.fill("#id_password", "pw-for-tests-123")
        page.click("main button[type=submit]")
        page.wait_for_url(lambda url: "/accounts/login/" not in url)  # home, or an arbiter's tournament in play
        page.goto(url)
        pages.append(page)
    arbiter, other = pages
    for page, points in ((arbiter, ["10", "20", "30", "0"]), (other, ["62", "48", "30", "0"])):
        for i, tp in enumerate(points):
            page.fill(f"#id_p{i}-table_points", tp)
        page.fill("#id_p3-eliminated", "1")
    other.click("main button[type=submit]")
    other.wait_for_selector(".msg-success")

    arbiter.click("main button[type=submit]")
    arbiter.wait_for_selector(".conflict")
    shot(arbiter, f"25-result-conflict-{name}")
    assert [arbiter.input_value(f"#id_p{i}-table_points") for i in range(4)] == ["62", "48", "30", "0"]
    rows = arbiter.locator(".conflict-table tbody tr")
    assert rows.count() == 4
    assert rows.first.inner_text().split("\t") == ["Gioc Rossi", "62", "10"]
    # The second tap saves what the other arbiter saved, on the new version: no silent overwrite.
    arbiter.click("main button[type=submit]")
    arbiter.wait_for_selector(".msg-success")
    assert list(table.seats.order_by("position").values_list("table_points", flat=True)) == \
        [Decimal(62), Decimal(48), Decimal(30), Decimal(0)]
    for page in pages:
        page.context.close()
