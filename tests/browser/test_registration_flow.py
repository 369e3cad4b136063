import pytest

from tests.browser.catalogue import expect_message, it
from tests.factories import ClubFactory, PlayerFactory
from tournaments.models import Registration, Tournament

pytestmark = pytest.mark.django_db(transaction=True)


def test_organiser_creates_tournament_registers_and_checks_in_three_players(live_server, phone, login, shot, organiser):
    club = ClubFactory(name="RisiKo Club Lariano")
    players = {last: PlayerFactory(first_name=first, last_name=last, club=club)
               for first, last in [("Marco", "Rossi"), ("Giulia", "Bianchi"), ("Luca", "Ferrari")]}
    page = phone
    login(page, "olga")
    shot(page, "01-manage-home")
    page.click("[data-action=new-tournament]")
    page.fill("#id_name", "Coppa del Lario")
    page.fill("#id_start_date", "2026-12-01")
    page.click("#more-settings summary")
    page.fill("#id_entry_fee", "-5")
    page.click("#save-tournament")
    assert page.locator(".has-error .field-error").first.inner_text() == \
        it("Ensure this value is greater than or equal to %(limit_value)s.", limit_value=0)
    shot(page, "02-tournament-form-error")
    assert Tournament.objects.count() == 0
    page.fill("#id_entry_fee", "8")
    assert page.is_checked("#id_published")   # a new tournament is public by default
    page.click("#save-tournament")
    expect_message(page, it("Tournament created."))
    shot(page, "03-tournament-overview")
    tournament = Tournament.objects.get(name="Coppa del Lario")

    page.click(".subnav [data-nav=players]")
    for surname in ["Rossi", "Bianchi", "Ferrari"]:
        # The search runs on typing once htmx is set up: wait for the page (reloaded after each
        # registration) to finish loading, or the typed name may never be searched.
        page.wait_for_load_state("load")
        page.fill("#player-q", surname)
        page.check(f"#search-results input[name=players][value='{players[surname].pk}']")
        page.click("#register-selected")
        page.wait_for_selector(f"table.list tr[data-player='{players[surname].pk}']")
    shot(page, "04-registrations")
    assert Registration.objects.filter(tournament=tournament).count() == 3

    page.click(".subnav [data-nav=checkin]")
    for i in range(3):
        page.locator(".checkin-btn:not(.is-present)").first.click()
        page.locator(".checkin-btn.is-present").nth(i).wait_for()
    shot(page, "05-checkin")
    assert Registration.objects.filter(tournament=tournament, present=True).count() == 3
    assert page.console_errors == []


def test_player_signs_up_on_the_public_form(live_server, phone, shot, tournament):
    tournament.signup_open = True
    tournament.save()
    page = phone
    page.goto(f"{live_server.url}/t/{tournament.pk}/")
    shot(page, "10-public-tournament")
    page.click("[data-action=sign-up]")
    page.fill("#id_first_name", "Pia")
    page.click("main button[type=submit]")
    assert page.locator("#id_last_name ~ .field-error").inner_text() == it("This field is required.")
    shot(page, "11-signup-errors")
    page.fill("#id_last_name", "Verdi")
    page.fill("#id_email", "pia@example.org")
    page.check("#id_privacy")
    page.click("main button[type=submit]")
    _signup_received(page)
    shot(page, "12-signup-done")
    reg = Registration.objects.get(player__last_name="Verdi")
    assert (reg.status, reg.self_registered) == (Registration.Status.PENDING, True)
    assert "RisiKo! è un marchio registrato" in page.inner_text("footer")


def test_a_signup_naming_an_existing_player_is_marked_for_the_organiser(live_server, browser, phone, login, shot,
                                                                        tournament):
    tournament.signup_open = True
    tournament.save()
    club = ClubFactory(name="Lario")
    PlayerFactory(first_name="Marco", last_name="Rossi", club=club)
    page = phone
    page.goto(f"{live_server.url}/t/{tournament.pk}/iscrizione/")
    page.fill("#id_first_name", "Marco")
    page.fill("#id_last_name", "Rossi")
    page.select_option("#id_club", str(club.pk))
    page.fill("#id_email", "qualcuno@example.org")
    page.check("#id_privacy")
    page.click("main button[type=submit]")
    _signup_received(page)
    login(page, "olga")
    page.goto(f"{live_server.url}/gestione/t/{tournament.pk}/iscritti/")
    badge = page.locator("table.list .badge.warn")
    assert badge.inner_text() == it("matches existing player")
    badge.scroll_into_view_if_needed()
    shot(page, "13-signup-matches-existing-player")
    wide = browser.new_context(viewport={"width": 1280, "height": 800}, locale="it-IT").new_page()
    login(wide, "olga")
    wide.goto(f"{live_server.url}/gestione/t/{tournament.pk}/iscritti/")
    assert wide.locator("table.list .badge.warn").inner_text() == it("matches existing player")
    shot(wide, "13-signup-matches-existing-player-desktop")


def _signup_received(page):
    heading = page.locator("h1[data-signup-done]")
    heading.wait_for()
    assert heading.inner_text() == it("Sign-up received")
