"""One person, one record, on a phone and a desktop: a pasted list that names a known player, a player
two records share, and a new one; the organiser chooses, confirms, and opens another club's player's
card, read-only. axe-core finds nothing serious on the preview (in its state of asking) nor on the card."""
import pytest

from tests.browser.catalogue import expect_message, it, it_n
from tests.browser.conftest import PHONE
from tests.browser.test_accessibility import SERIOUS
from tests.browser.test_room_flow import AXE
from tests.factories import ClubFactory, PlayerFactory, RegistrationFactory, TournamentFactory

pytestmark = pytest.mark.django_db(transaction=True)
DESKTOP = {"width": 1280, "height": 800}


def _serious(page):
    if not AXE.exists():
        return []
    page.add_script_tag(path=str(AXE))
    return page.evaluate(SERIOUS)


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_a_pasted_list_asks_which_namesake_and_another_clubs_card_is_read_only(live_server, browser, login, shot,
                                                                             tournament, other_organiser, viewport):
    lario, tana = ClubFactory(name="Lario"), ClubFactory(name="Tana dei Goblin")
    PlayerFactory(first_name="Paolo", last_name="Barbieri", club=lario)
    tana_paolo = PlayerFactory(first_name="Paolo", last_name="Barbieri", club=tana)
    ottos = TournamentFactory(organiser=other_organiser, name="Torneo di Otto")
    paola = RegistrationFactory(tournament=ottos, player__first_name="Paola", player__last_name="Condivisa",
                                player__email="paola@example.org", player__created_by=other_organiser,
                                player__club=None).player
    context = browser.new_context(viewport=viewport, locale="it-IT", bypass_csp=True)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    login(page, "olga")
    page.goto(f"{live_server.url}/gestione/t/{tournament.pk}/iscritti/")
    page.fill("#id_names", "Paolo Barbieri\npaola  CONDIVISA\nGiulia Nuova\n")
    page.click("#preview-import")
    page.wait_for_selector("select[data-pick='1']")
    assert page.locator("[data-row-state=known]").inner_text() == it(
        "known player: %(player)s, %(club)s", player="Paola Condivisa", club=it("no club"))
    assert page.locator("[data-row-state=new]").count() == 1
    assert page.locator("[data-import-choose]").inner_text() == it_n(
        "%(n)s row asks which known player it is: answer in the list below before confirming.",
        "%(n)s rows ask which known players they are: answer in the list below before confirming.", 1)
    assert _serious(page) == []
    shot(page, f"shared-players-preview-{viewport['width']}")
    page.select_option("select[data-pick='1']", str(tana_paolo.pk))
    page.click("#confirm-import")
    expect_message(page, it_n("%(n)d player registered", "%(n)d players registered", 3) + " ("
                   + it_n("%(n)d new", "%(n)d new", 1) + ").")
    assert sorted(tournament.registrations.values_list("player_id", flat=True))[:2] == sorted([tana_paolo.pk, paola.pk])
    shot(page, f"shared-players-registered-{viewport['width']}")

    page.goto(f"{live_server.url}/gestione/giocatori/{paola.pk}/")
    assert page.locator("[data-read-only]").count() == 1
    assert page.locator("input[name=email]").count() == 0
    assert page.locator("main button[type=submit]").count() == 0     # no save, no merge, no delete
    assert _serious(page) == []
    shot(page, f"shared-players-card-{viewport['width']}")
    assert errors == []
    context.close()
