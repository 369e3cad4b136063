"""Of two equal results in a circuit, the one the engine counted is the one marked: the circuit's page and
its JSON mark counted the very results scoring/circuit.py counted (SCORING.md 13.11: among equal results
the earlier tournament's, then the earlier game's), never a choice of their own."""
import datetime

import pytest
from django.urls import reverse

from scoring.circuit import GamesRule, GamesTournament, PlayerGames, score_games_circuit
from tests.circuits.test_games_circuit import game, make_circuit
from tests.factories import PlayerFactory, TournamentFactory
from tests.html import one, select

pytestmark = pytest.mark.django_db

# maialino_2024 of 45, 44, 23, 20 table points: 200, 99, 78, 75.
WIN, SECOND = [45, 44, 23, 20], [44, 45, 23, 20]


@pytest.fixture
def two_cups(organiser, client_for):
    """Anna's games, best 2 counted: Coppa 1 (February) 99 then 200; Coppa 2 (March) 200 then 200. Three
    equal results of 200 for two counted places."""
    anna, *others = [PlayerFactory(first_name=n, last_name="Pari") for n in ("Anna", "Bruno", "Carla", "Dario")]
    cups = [TournamentFactory(organiser=organiser, name=f"Coppa {i}", formula="maialino_2024",
                              start_date=datetime.date(2024, month, 1)) for i, month in ((1, 2), (2, 3))]
    game(cups[0], [anna, *others], SECOND)
    game(cups[0], [anna, *others], WIN)
    game(cups[1], [anna, *others], WIN)
    game(cups[1], [anna, *others], WIN)
    circuit = make_circuit(client_for(organiser), [(cups[0], "1"), (cups[1], "1")], best_of="2",
                           name="Ranking dei pari")
    return circuit, cups, anna


def test_of_two_equal_results_the_one_the_engine_counted_is_the_one_marked(two_cups, client):
    circuit, cups, anna = two_cups
    engine = score_games_circuit(GamesRule(best_of=2), [
        GamesTournament(cups[0].pk, (PlayerGames(anna.pk, (99, 200)),)),
        GamesTournament(cups[1].pk, (PlayerGames(anna.pk, (200, 200)),))])
    assert engine.standings[0].counted_games == [(cups[0].pk, 1), (cups[1].pk, 0)]

    page = client.get(reverse("public:circuit", args=[circuit.pk]))
    row = one(page, f"tr[data-player='{anna.pk}']")
    marks = [["counted" if span.has_attr("data-counted") else "discarded"
              for span in select(cell, "[data-counted], [data-discarded]")]
             for cell in select(row, "td.circuit-games")]
    # Coppa 1: 99 struck, its 200 counted; Coppa 2: the first 200 counted, the second struck.
    assert marks == [["discarded", "counted"], ["counted", "discarded"]]

    data = client.get(reverse("public:circuit_json", args=[circuit.pk])).json()
    mine = next(r for r in data["standings"] if r["player"] == "Anna Pari")
    assert [(c["name"], c["games"], c["counted"]) for c in mine["results"]] == [
        ("Coppa 1", [99.0, 200.0], [False, True]), ("Coppa 2", [200.0, 200.0], [True, False])]
    assert mine["counted"] == [200.0, 200.0] and mine["total"] == 400.0
