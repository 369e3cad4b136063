import pytest
from playwright.sync_api import expect

from tables.models import Round, Seat
from tests.factories import ClubFactory, RegistrationFactory

pytestmark = pytest.mark.django_db(transaction=True)


def test_organiser_draws_swaps_two_players_and_publishes(live_server, phone, login, shot, tournament):
    clubs = [ClubFactory(name=f"Club {c}") for c in "ABCD"]
    for i in range(16):
        RegistrationFactory(tournament=tournament, present=True, player__club=clubs[i % 4],
                            player__first_name="Gioc", player__last_name=f"N{i:02d}")
    page = phone
    login(page, "olga")
    page.goto(f"{live_server.url}/gestione/t/{tournament.pk}/turni/")
    shot(page, "30-rounds")
    page.click("main button[type=submit]:has-text('Sorteggia')")
    page.wait_for_url("**/turni/1/")
    assert page.locator(".penalty-figures li").first.inner_text() == "0 coppie dello stesso club"
    shot(page, "31-draw-preview")

    rnd = Round.objects.get(tournament=tournament, number=1)
    first = Seat.objects.get(table__round=rnd, table__number=1, position=1)
    other = Seat.objects.get(table__round=rnd, table__number=2, position=1)
    page.locator(f"button.seat-btn:has-text('{first.registration.player.full_name}')").click()
    page.wait_for_selector("button.seat-btn.is-selected")
    shot(page, "32-one-selected")
    page.locator(f"button.seat-btn:has-text('{other.registration.player.full_name}')").click()
    page.wait_for_selector("button.seat-btn.is-selected", state="detached")
    first.refresh_from_db()
    other.refresh_from_db()
    assert (first.table.number, other.table.number) == (2, 1)
    shot(page, "33-after-swap")

    page.click("main button:has-text('Pubblica i tavoli')")
    page.wait_for_selector(".msg-success")
    assert Round.objects.get(pk=rnd.pk).status == Round.Status.PUBLISHED
    shot(page, "34-published")

    page.goto(f"{live_server.url}/t/{tournament.pk}/turni/1/")
    page.fill("#find", first.registration.player.last_name)
    expect(page.locator("#tables .table-card")).to_have_count(1)
    assert "Tavolo 2" in page.inner_text("#tables .table-card")
    shot(page, "35-public-find-table")
    assert page.console_errors == []
