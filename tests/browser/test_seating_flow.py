import pytest
from playwright.sync_api import expect

from tables.models import Round, Seat
from tests.browser.catalogue import it, it_n
from tests.factories import ClubFactory, RegistrationFactory, seat_round

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
    page.click("[data-action=draw-round]")
    page.wait_for_url("**/turni/1/")
    assert page.locator(".penalty-figures li").first.inner_text() == \
        it_n("<strong>%(n)s</strong> same-club pair", "<strong>%(n)s</strong> same-club pairs", 0)
    shot(page, "31-draw-preview")

    rnd = Round.objects.get(tournament=tournament, number=1)
    first = Seat.objects.get(table__round=rnd, table__number=1, position=1)
    other = Seat.objects.get(table__round=rnd, table__number=2, position=1)
    page.click(f"button.seat-btn[data-seat='{first.pk}']")
    page.wait_for_selector("button.seat-btn.is-selected")
    shot(page, "32-one-selected")
    page.click(f"button.seat-btn[data-seat='{other.pk}']")
    page.wait_for_selector("button.seat-btn.is-selected", state="detached")
    first.refresh_from_db()
    other.refresh_from_db()
    assert (first.table.number, other.table.number) == (2, 1)
    shot(page, "33-after-swap")

    page.click("[data-action=publish-seating]")
    page.wait_for_selector(".msg-success")
    assert Round.objects.get(pk=rnd.pk).status == Round.Status.PUBLISHED
    shot(page, "34-published")

    page.goto(f"{live_server.url}/t/{tournament.pk}/turni/1/")
    page.fill("#find", first.registration.player.last_name)
    expect(page.locator("#tables .table-card")).to_have_count(1)
    assert page.get_attribute("#tables .table-card", "data-table") == "2"
    shot(page, "35-public-find-table")
    assert page.console_errors == []


@pytest.fixture
def desktop(browser):
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="it-IT")
    page = context.new_page()
    errors = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.console_errors = errors
    yield page
    context.close()


@pytest.mark.parametrize("device", ["phone", "desktop"])
def test_the_preview_says_why_club_mates_share_a_table(live_server, login, shot, tournament, request, device):
    lario = ClubFactory(name="Lario")
    mates = [RegistrationFactory(tournament=tournament, present=True, player__club=lario,
                                 player__first_name="Socio", player__last_name=f"L{i}") for i in range(3)]
    others = [RegistrationFactory(tournament=tournament, present=True) for _ in range(5)]
    seat_round(tournament, [mates + others[:1], others[1:]], status="draft")
    page = request.getfixturevalue(device)
    login(page, "olga")
    page.goto(f"{live_server.url}/gestione/t/{tournament.pk}/turni/1/")
    assert page.inner_text("#club-note") == " ".join([
        it_n("%(n)d pair of players of the same club shares a table.",
             "%(n)d pairs of players of the same club share a table.", 3),
        it("%(club)s has %(k)d players for %(t)d tables.", club="Lario", k=3, t=2),
        it_n("%(n)d pair cannot be avoided.", "%(n)d pairs cannot be avoided.", 1),
        it_n("%(n)d more could be avoided: swap players to separate them.",
             "%(n)d more could be avoided: swap players to separate them.", 2)])
    shot(page, f"36-club-note-{device}")
    assert page.console_errors == []
