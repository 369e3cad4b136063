"""The public page of a circuit by weighted best games (SCORING.md 13.11) on a phone: each player's
weighted game results, the discarded struck through, the weights in the header; no sideways scroll of
the page, axe-core at zero serious violations."""
import datetime
from decimal import Decimal

import pytest

from circuits import services
from tests.browser.test_accessibility import SERIOUS
from tests.browser.test_room_flow import AXE
from tests.circuits.test_games_circuit import game
from tests.factories import OrganiserFactory, PlayerFactory, TournamentFactory

pytestmark = pytest.mark.django_db(transaction=True)


def _season():
    """Coppa 1 and 2 (maialino_2024, weight 1), Open (weight 1.25); 8 players at two tables, 2 games each;
    the best 3 games count."""
    organiser = OrganiserFactory(username="olga")
    players = [PlayerFactory(first_name=n, last_name="Modenese")
               for n in ("Anna", "Bruno", "Carla", "Dario", "Elena", "Fabio", "Gina", "Ivo")]
    made = []
    for month, (name, weight) in enumerate((("Coppa Maialino 1", "1"), ("Coppa Maialino 2", "1"),
                                            ("Open di Modena", "1.25")), start=2):
        tournament = TournamentFactory(organiser=organiser, name=name, formula="maialino_2024",
                                       start_date=datetime.date(2024, month, 1))
        for shift in (0, 1):
            for table in (players[:4], players[4:]):
                seats = table[shift + month:] + table[:shift + month]
                game(tournament, seats, [45 + shift, 44 - month, 23, 20])
        made.append((tournament, weight))
    circuit = services.circuit_create(user=organiser, data={
        "name": "Ranking Maialino", "season": "2024", "basis": "games", "formula": "maialino_2024", "best_of": 3})
    for tournament, weight in made:
        services.circuit_tournament_add(user=organiser, circuit=circuit, tournament=tournament,
                                        weight=Decimal(weight))
    return circuit, players


@pytest.mark.skipif(not AXE.exists(), reason="axe-core not installed: make node_modules/.installed")
def test_the_games_circuit_reads_on_a_phone(live_server, browser, login, shot):
    circuit, players = _season()
    context = browser.new_context(viewport={"width": 390, "height": 844}, bypass_csp=True, locale="it-IT",
                                  is_mobile=True, has_touch=True)
    page = context.new_page()
    assert page.goto(live_server.url + f"/circuiti/{circuit.pk}/").status == 200
    rows = page.locator("table[data-circuit-standings] tr[data-player]")
    assert rows.count() == 8
    # 6 games each, 3 counted: 3 struck through in every row
    assert page.locator("[data-counted]").count() == 24 and page.locator("[data-discarded] s").count() == 24
    assert page.locator("th[data-column] [data-weight]").all_inner_texts() == ["×1", "×1", "×1,25"]
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    shot(page, "circuit_games_phone")
    page.locator(".table-scroll").evaluate("box => { box.scrollLeft = box.scrollWidth; }")
    shot(page, "circuit_games_phone_results")
    page.add_script_tag(path=str(AXE))
    assert page.evaluate(SERIOUS) == []
    page.locator("table[data-circuit-standings] tr[data-player] a").first.click()
    page.wait_for_url("**/giocatori/*/")
    assert page.locator("[data-circuit-results] [data-discarded] s").count() == 3
    shot(page, "circuit_games_history_phone")
    page.add_script_tag(path=str(AXE))
    assert page.evaluate(SERIOUS) == []
    # the organiser's settings: ranked by games, the formula of the games, best of, each weight
    login(page, "olga")
    page.goto(live_server.url + f"/gestione/circuiti/{circuit.pk}/")
    assert page.input_value("form[data-circuit-form] [name=basis]") == "games"
    assert page.input_value("form[data-circuit-form] [name=formula]") == "maialino_2024"
    assert page.locator("[data-circuit-entries] li[data-entry]").count() == 3
    shot(page, "circuit_games_manage_phone")
    page.add_script_tag(path=str(AXE))
    assert page.evaluate(SERIOUS) == []
    context.close()
