"""The pasted list knows the people it names: a known name at another club asks once "the same person, now
at Spartaco Roma, or someone else?", and a one-letter typo asks "did you mean Giulia Bianchi (Il Gufo)?";
once answered, later lists ask nothing ("Quale?" never comes back). On a phone and on a desktop, axe at
zero serious."""
import pytest

from tests.browser.catalogue import expect_import_preview, expect_message, registered_from_list
from tests.browser.conftest import PHONE
from tests.browser.test_accessibility import SERIOUS
from tests.browser.test_room_flow import AXE
from tests.factories import ClubFactory, PlayerFactory
from tournaments.models import Player, Registration

pytestmark = pytest.mark.django_db(transaction=True)
DESKTOP = {"width": 1280, "height": 800}


def _axe(page):
    if not AXE.exists():
        return []
    page.add_script_tag(path=str(AXE))
    return page.evaluate(SERIOUS)


def _paste(page, live_server, tournament, text):
    page.goto(f"{live_server.url}/gestione/t/{tournament.pk}/iscritti/")
    page.evaluate("document.querySelector('#import-panel').open = true")
    page.fill("#id_names", text)
    page.click("#preview-import")


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_a_known_name_at_another_club_is_one_question_then_one_person(live_server, browser, login, shot,
                                                                      tournament, organiser, viewport):
    gufo = ClubFactory(name="Il Gufo")
    marco = PlayerFactory(first_name="Marco", last_name="Rossi", club=gufo, created_by=organiser)
    giulia = PlayerFactory(first_name="Giulia", last_name="Bianchi", club=gufo, created_by=organiser)
    context = browser.new_context(viewport=viewport, locale="it-IT", bypass_csp=True)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    login(page, organiser.username)
    _paste(page, live_server, tournament, "Marco Rossi; Spartaco Roma\nGiulia Bianci")
    expect_import_preview(page, 2)
    assert page.locator("[data-question=elsewhere]").count() == 1
    assert page.locator("[data-question=near]").count() == 1
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    shot(page, f"pasted-identity-questions-{viewport['width']}")
    assert _axe(page) == []
    # The labels name the question; the selects answer it.
    page.get_by_label(page.locator("[data-question=elsewhere]").inner_text()).select_option(str(marco.pk))
    page.get_by_label(page.locator("[data-question=near]").inner_text()).select_option(str(giulia.pk))
    page.click("#confirm-import")
    expect_message(page, registered_from_list(2, new=0))
    marco.refresh_from_db()
    assert marco.club.name == "Spartaco Roma"
    assert Player.objects.filter(name_key="marco rossi").count() == 1
    assert set(Registration.objects.filter(tournament=tournament).values_list("player_id", flat=True)) == {
        marco.pk, giulia.pk}
    # A later list naming him, with or without his club, asks nothing: one person.
    _paste(page, live_server, tournament, "Marco Rossi\nAnna Neri")
    page.wait_for_selector("[data-line]")
    assert page.locator("[data-question]").count() == 0
    assert page.locator("select[data-pick]").count() == 0
    assert page.locator("[data-row-state=registered]").count() == 1
    assert _axe(page) == []
    assert errors == []
    context.close()
