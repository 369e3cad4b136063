import pytest
from django.urls import reverse

from phases import draw
from phases import services as phase_services
from tables.rounds import services as table_services
from tests.browser.catalogue import en, it
from tests.phases.helpers import play, players, strength_of

pytestmark = pytest.mark.django_db(transaction=True)


def test_public_standings_lead_with_the_final_then_link_the_qualifying(live_server, phone, shot, tournament,
                                                                       organiser):
    tournament.formula = "punti_tavolo"
    tournament.dispute_window_minutes = 0
    tournament.save()
    regs = players(tournament, 8)
    strength = strength_of(regs)
    phase_services.format_apply(user=organiser, tournament=tournament, preset="sum3_final")
    qualifying, final = tournament.phases.order_by("order")
    for seed in range(3):
        play(draw.phase_draw(user=organiser, phase=qualifying, seed=seed), strength, organiser)
    play(draw.phase_draw(user=organiser, phase=final), {pk: 20 - s for pk, s in strength.items()}, organiser)
    for rnd in tournament.rounds.all():
        table_services.standings_publish(user=organiser, rnd=rnd)
    page = phone
    page.goto(live_server.url + reverse("public:standings", args=[tournament.pk]))
    assert page.inner_text("#lead-status") == it("Standings final")
    assert "P03" in page.locator("#final-standings tbody tr").first.inner_text()
    shot(page, "60-standings-final-first")
    page.click("#qualifying-link")
    assert page.url.endswith("#qualifying")
    assert page.console_errors == []


def test_public_standings_of_a_knockout_show_who_is_still_in(live_server, phone, shot, tournament, organiser):
    regs = players(tournament, 16)
    phase_services.format_apply(user=organiser, tournament=tournament, preset="knockout")
    first = tournament.phases.order_by("order").first()
    play(draw.phase_draw(user=organiser, phase=first, seed=3), strength_of(regs), organiser)
    page = phone
    page.goto(live_server.url + reverse("public:standings", args=[tournament.pk]))
    assert page.locator("#knockout-standings tr.is-in").count() == 4
    assert page.locator("#knockout-standings tr.is-out").count() == 12
    shot(page, "61-standings-knockout")
    assert page.console_errors == []


def test_medagliere_standings_show_the_medals_on_the_phone(live_server, phone, shot, tournament, organiser):
    tournament.formula = "medagliere"
    tournament.save()
    regs = players(tournament, 10)
    strength = strength_of(regs)
    for seed in range(2):
        rnd = table_services.round_create(user=organiser, tournament=tournament, seed=seed)
        play(rnd, strength, organiser)
    page = phone
    page.goto(live_server.url + reverse("public:standings", args=[tournament.pk]))
    assert page.locator("#standings thead th.medal-col").count() == 5
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390
    shot(page, "62-standings-medagliere")
    page.click(f"#standings tr[data-reg='{regs[0].pk}'] a")
    page.wait_for_url(f"**/giocatori/{regs[0].pk}/")
    assert page.locator(".medal-count").count() == 5
    shot(page, "63-player-medals")
    assert page.console_errors == []


def test_a_visitor_switches_a_cached_public_page_to_english_and_back(live_server, phone, shot, tournament, organiser):
    """The public pages carry no CSRF token: the language switch works on a page straight from the cache."""
    regs = players(tournament, 8)
    play(table_services.round_create(user=organiser, tournament=tournament, seed=1), strength_of(regs), organiser)
    url = live_server.url + reverse("public:standings", args=[tournament.pk])
    page = phone
    for _ in range(2):  # the second visit is answered from the cache
        page.goto(url)
    assert page.locator("h1").first.inner_text() == it("Standings")
    assert page.context.cookies() == []  # nothing was set for an anonymous visitor
    page.click(".lang-switch button")
    assert page.url == url
    assert page.locator("h1").first.inner_text() == en("Standings")
    shot(page, "62-standings-english")
    page.click(".lang-switch button")
    assert page.locator("h1").first.inner_text() == it("Standings")
    assert page.console_errors == []
