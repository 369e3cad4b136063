"""Everything from the app, on a phone and a desktop: an arbiter account with a one-time link, the
organiser role granted by an administrator, a draft round redrawn with another method and deleted."""
import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from tests.browser.catalogue import expect_message, it
from tests.browser.conftest import PHONE
from tests.factories import RegistrationFactory, UserFactory
from tournaments.rules import is_organiser

pytestmark = pytest.mark.django_db(transaction=True)
DESKTOP = {"width": 1280, "height": 800}


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_accounts_and_draft_rounds_without_the_admin(live_server, browser, login, shot, tournament, viewport):
    for _ in range(8):
        RegistrationFactory(tournament=tournament, present=True)
    context = browser.new_context(viewport=viewport, locale="it-IT")
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("dialog", lambda d: d.accept())
    w = viewport["width"]

    login(page, "olga")
    page.goto(f"{live_server.url}/gestione/t/{tournament.pk}/arbitri/")
    page.fill("#id_username", "beppe")
    page.click("button[name=new_account]")
    page.wait_for_selector("#account-link")
    shot(page, f"accounts-arbiter-link-{w}")
    link = page.input_value("#account-link input")

    page.goto(f"{live_server.url}/gestione/t/{tournament.pk}/turni/")
    page.click("main form button.btn-primary")
    page.wait_for_selector("#redraw-method")
    page.select_option("#redraw-method", "snake")
    page.click(".redraw-form button")
    expect_message(page, it("Round drawn again."))
    assert tournament.rounds.get().method == "snake"
    shot(page, f"accounts-draft-{w}")
    page.click("#delete-draft")
    expect_message(page, it("Draft round deleted."))
    assert not tournament.rounds.exists()

    newcomer = browser.new_context(viewport=viewport, locale="it-IT").new_page()
    newcomer.goto(link)
    newcomer.fill("#id_new_password1", "Arbitro-2026-lario")
    newcomer.fill("#id_new_password2", "Arbitro-2026-lario")
    newcomer.click("main button[type=submit]")
    newcomer.wait_for_url("**" + reverse("password_set_done"))
    assert newcomer.locator("h1").inner_text() == it("Password saved")
    login(newcomer, "beppe", "Arbitro-2026-lario")
    newcomer.goto(f"{live_server.url}/arbitro/t/{tournament.pk}/")
    assert newcomer.locator("h1").inner_text() == it("Results")
    newcomer.context.close()

    UserFactory(username="capo", is_superuser=True, is_staff=True)
    sofia = UserFactory(username="sofia")
    admin = browser.new_context(viewport=viewport, locale="it-IT").new_page()
    login(admin, "capo")
    admin.click("[data-nav=organisers]")
    admin.click(f"#user-{sofia.pk} button")
    expect_message(admin, it("%(u)s is now an organiser.", u="sofia"))
    shot(admin, f"accounts-organisers-{w}")
    assert is_organiser(get_user_model().objects.get(pk=sofia.pk))
    admin.context.close()
    assert errors == []
    context.close()
