"""Accents and case aside, on a phone and a desktop: the organiser's search, the public "find your table",
the duplicate flag, the merge, and an unused player and club deleted."""
import pytest

from tests.browser.catalogue import expect_message, it
from tests.browser.conftest import PHONE
from tests.factories import ClubFactory, PlayerFactory, RegistrationFactory, seat_round
from tournaments.models import Player

pytestmark = pytest.mark.django_db(transaction=True)
DESKTOP = {"width": 1280, "height": 800}


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_search_find_table_and_merge(live_server, browser, login, shot, tournament, viewport):
    olga = tournament.organiser
    club = ClubFactory(name="RisiKo Club Forlì", created_by=olga)
    niccolo = PlayerFactory(first_name="Niccolò", last_name="Forlì", club=club, created_by=olga)
    copy = PlayerFactory(first_name="Niccolo", last_name="Forli", club=None, created_by=olga)
    regs = [RegistrationFactory(tournament=tournament, player=niccolo)]
    regs += [RegistrationFactory(tournament=tournament) for _ in range(7)]
    seat_round(tournament, [regs[4:], regs[:4]])
    context = browser.new_context(viewport=viewport, locale="it-IT")
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))

    page.goto(f"{live_server.url}/t/{tournament.pk}/turni/1/")
    page.fill("#find", "niccolo FORLI")
    page.wait_for_selector(".table-card.found")
    assert page.locator(".table-card").count() == 1
    assert page.locator(".table-card.found").get_attribute("data-table") == "2"
    assert "Niccolò Forlì" in page.locator(".table-card.found").inner_text()
    shot(page, f"search-find-table-{viewport['width']}")

    login(page, "olga")
    page.goto(f"{live_server.url}/gestione/giocatori/")
    page.fill("#q", "forli")
    page.wait_for_selector("#player-results li:nth-child(2)")
    page.wait_for_selector("#player-results li:nth-child(3)", state="detached")
    assert page.locator("#player-results .badge.warn").count() == 2
    shot(page, f"search-players-{viewport['width']}")
    page.goto(f"{live_server.url}/gestione/giocatori/{copy.pk}/")
    page.select_option("#merge-into", str(niccolo.pk))
    page.once("dialog", lambda d: d.accept())
    page.click("#merge button[type=submit]")
    expect_message(page, it("%(drop)s merged into %(keep)s: registrations and results kept.",
                            drop="Niccolo Forli", keep="Niccolò Forlì"))
    shot(page, f"search-merged-{viewport['width']}")
    assert Player.all_players.get(pk=copy.pk).merged_into == niccolo

    # "Pietro Forli" next to "Pietro Forlì" of the same club is the known player: the form asks, and
    # choosing him opens his card; nothing is created.
    pietro = PlayerFactory(first_name="Pietro", last_name="Forlì", club=club)
    page.goto(f"{live_server.url}/gestione/giocatori/nuovo/")
    page.fill("#id_first_name", "pietro")
    page.fill("#id_last_name", "Forli")
    page.select_option("#id_club", str(club.pk))
    page.click("main form button[type=submit]")
    error = page.locator("#id_same_as ~ .field-error")
    assert error.inner_text() == it("Known player: %(player)s. Choose them to open their card, or tell us it is "
                                    "someone else.", player="Pietro Forlì, RisiKo Club Forlì")
    shot(page, f"search-duplicate-{viewport['width']}")
    page.check(f"#id_same_as input[value='{pietro.pk}']")
    page.click("main form button[type=submit]")
    page.wait_for_url(f"**/gestione/giocatori/{pietro.pk}/")
    assert page.locator("[data-read-only]").count() == 1      # nobody's card: read, not changed
    shot(page, f"search-known-card-{viewport['width']}")
    assert Player.objects.filter(first_name="Pietro").count() == 1

    # A player and a club nobody uses are deleted.
    unused = PlayerFactory(first_name="Mai", last_name="Iscritto", club=None, created_by=olga)
    empty = ClubFactory(name="Circolo Vuoto", created_by=olga)
    page.goto(f"{live_server.url}/gestione/giocatori/{unused.pk}/")
    page.once("dialog", lambda d: d.accept())
    page.click("[data-action=delete-player]")
    expect_message(page, it("%(p)s deleted.", p="Mai Iscritto"))
    page.goto(f"{live_server.url}/gestione/club/{empty.pk}/")
    page.once("dialog", lambda d: d.accept())
    page.click("[data-action=delete-club]")
    expect_message(page, it("%(c)s deleted.", c="Circolo Vuoto"))
    assert not Player.all_players.filter(pk=unused.pk).exists()
    assert not type(empty).objects.filter(pk=empty.pk).exists()
    assert errors == []
    context.close()
