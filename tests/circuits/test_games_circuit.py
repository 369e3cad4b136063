"""A circuit by weighted best games (SCORING.md 13.11, RCU Modena: Coppe Maialino 1, Open 1.25, the best
30 games): the organiser makes it through the pages, its tournaments' games are entered by the arbiter
and through the results service, and the public page, JSON, CSV and the players' histories show every
weighted game result, the counted ones and the discarded struck through."""
import csv
import datetime
import io
from decimal import Decimal

import pytest
from django.urls import reverse

from circuits import services
from circuits.models import WEIGHT_MESSAGE, Circuit
from tables.rounds import services as table_services
from tests.factories import PlayerFactory, RegistrationFactory, TournamentFactory, report, seat_round
from tests.html import attr, field_errors, one, select, text, texts, tr
from tournaments.models import AuditLog


def publish(rnd):
    table_services.round_close(user=rnd.tournament.organiser, rnd=rnd)
    table_services.standings_publish(user=rnd.tournament.organiser, rnd=rnd)


def game(tournament, players, tps):
    """One round of one table, entered through the results service and published."""
    regs = []
    for p in players:
        reg = tournament.registrations.filter(player=p).first() or RegistrationFactory(tournament=tournament, player=p)
        regs.append(reg)
    rnd = seat_round(tournament, [regs])
    report(rnd.tables.get(), [(tp,) for tp in tps])
    publish(rnd)
    return rnd


def game_by_the_arbiter(client, tournament, players, tps):
    """One round of one table whose result the arbiter types in the result form."""
    regs = [RegistrationFactory(tournament=tournament, player=p) for p in players]
    rnd = seat_round(tournament, [regs])
    data = {"version": "0"}
    for i, (seat, tp) in enumerate(zip(rnd.tables.get().seats.order_by("position"), tps)):
        data.update({f"p{i}-seat": seat.pk, f"p{i}-table_points": tp})
    response = client.post(reverse("arbiter:table", args=[tournament.pk, rnd.number, 1]), data)
    assert response.status_code == 302
    publish(rnd)
    return rnd


def make_circuit(client, tournaments, *, best_of, formula="maialino_2024", name="Ranking Maialino"):
    """The organiser creates the circuit by games and adds each (tournament, weight) through the pages."""
    response = client.post(reverse("manage:circuits"), {
        "name": name, "season": "2024", "basis": "games", "formula": formula, "rule": "table",
        "points_table": "", "participation": "0", "best_of": best_of, "min_tournaments": "1"})
    circuit = Circuit.objects.get(name=name)
    assert response.status_code == 302 and response.url == reverse("manage:circuit", args=[circuit.pk])
    for tournament, weight in tournaments:
        response = client.post(reverse("manage:circuit", args=[circuit.pk]),
                               {"action": "add", "tournament": tournament.pk, "weight": weight})
        assert response.status_code == 302
    return circuit


@pytest.fixture
def modena(organiser, arbiter, client_for):
    """Coppa 1 and Coppa 2 (maialino_2024, weight 1), Open (table points, weight 1.25, rescored in
    maialino_2024 by the circuit). maialino_2024 of 45, 44, 23, 20 TP: 200, 99, 78, 75.
    Coppa 1: A 200, B 99, C 78, D 75 (by the arbiter's form); B 200, C 99, E 78, A 75.
    Coppa 2: C 200, D 99, E 78, B 75.  Open: B 200, A 99, D 78, C 75 (x 1.25: 250, 123.75, 97.5, 93.75)."""
    p = {n: PlayerFactory(first_name=n, last_name="Modenese") for n in "ABCDE"}
    coppa1 = TournamentFactory(organiser=organiser, name="Coppa Maialino 1", formula="maialino_2024",
                               start_date=datetime.date(2024, 2, 1))
    coppa2 = TournamentFactory(organiser=organiser, name="Coppa Maialino 2", formula="maialino_2024",
                               start_date=datetime.date(2024, 3, 1))
    open_ = TournamentFactory(organiser=organiser, name="Open di Modena", formula="punti_tavolo",
                              start_date=datetime.date(2024, 4, 1))
    coppa1.arbiters.add(arbiter)
    game_by_the_arbiter(client_for(arbiter), coppa1, [p["A"], p["B"], p["C"], p["D"]], [45, 44, 23, 20])
    game(coppa1, [p["B"], p["C"], p["E"], p["A"]], [45, 44, 23, 20])
    game(coppa2, [p["C"], p["D"], p["E"], p["B"]], [45, 44, 23, 20])
    game(open_, [p["B"], p["A"], p["D"], p["C"]], [45, 44, 23, 20])
    circuit = make_circuit(client_for(organiser), [(coppa1, "1"), (coppa2, "1"), (open_, "1,25")], best_of="2")
    return circuit, (coppa1, coppa2, open_), p


def test_the_weighted_best_games_make_the_total(modena, client):
    circuit, (coppa1, coppa2, open_), p = modena
    assert (circuit.basis, circuit.formula, circuit.best_of) == ("games", "maialino_2024", 2)
    assert [e.weight for e in circuit.entries.order_by("tournament__start_date")] == [
        Decimal("1"), Decimal("1"), Decimal("1.25")]
    data = client.get(reverse("public:circuit_json", args=[circuit.pk])).json()
    assert (data["circuit"]["basis"], data["circuit"]["formula"], data["circuit"]["best_of"]) == (
        "games", "maialino_2024", 2)
    assert [(r["rank"], r["player"], r["total"], r["counted"], r["played"], r["tournaments"])
            for r in data["standings"]] == [
        (1, "B Modenese", 450.0, [250.0, 200.0], 4, 3), (2, "A Modenese", 323.75, [200.0, 123.75], 3, 2),
        (3, "C Modenese", 299.0, [200.0, 99.0], 4, 3), (4, "D Modenese", 196.5, [99.0, 97.5], 3, 3),
        (5, "E Modenese", 156.0, [78.0, 78.0], 2, 2)]
    # SCORING.md 13.11's example: Coppa (1) A [200, 75], Open (1.25) A [99] -> 200, 123.75, 75
    a = data["standings"][1]["results"]
    assert [(c["name"], c["weight"], c["games"], c["counted"]) for c in a] == [
        ("Coppa Maialino 1", 1.0, [200.0, 75.0], [True, False]), ("Open di Modena", 1.25, [123.75], [True])]


def test_every_game_counted_without_best_of_and_each_tournaments_own_formula(modena, client, organiser):
    circuit, _tournaments, p = modena
    url = reverse("public:circuit_json", args=[circuit.pk])
    services.circuit_update(user=organiser, circuit=circuit, data={"best_of": None})
    rows = {r["player"]: r["total"] for r in client.get(url).json()["standings"]}
    assert rows["A Modenese"] == 398.75  # 200 + 75 + 123.75
    services.circuit_update(user=organiser, circuit=circuit, data={"formula": ""})
    rows = {r["player"]: r for r in client.get(url).json()["standings"]}
    # the Open in its own formula (table points): A's 44 TP x 1.25 = 55
    assert rows["A Modenese"]["results"][1]["games"] == [55.0] and rows["A Modenese"]["total"] == 330.0
    assert AuditLog.objects.filter(action="circuit.update", object_id=str(circuit.pk)).count() == 2


def test_the_public_page_strikes_the_discarded_games_and_shows_the_weights(modena, client):
    circuit, (coppa1, coppa2, open_), p = modena
    response = client.get(reverse("public:circuit", args=[circuit.pk]))
    assert response.status_code == 200
    assert texts(response, "th[data-column] [data-weight]") == ["×1", "×1", "×1.25"]
    a = one(response, f"tr[data-player='{p['A'].pk}']")
    assert [text(s) for s in select(a, "[data-counted]")] == ["200", "123.75"]
    assert [text(s) for s in select(a, "[data-discarded] s")] == ["75"]
    assert (text(one(a, "[data-games-played]")), text(one(a, "[data-tournaments-played]"))) == ("3", "2")
    assert text(one(a, ".total")) == "323.75"
    assert attr(response, "tr[data-player]", "data-player") == [str(p[n].pk) for n in "BACDE"]
    # every player: 2 counted; B 2 struck (99, 75), A 1, C 2, D 1, E 0
    assert (len(select(response, "[data-counted]")), len(select(response, "[data-discarded]"))) == (10, 6)


def test_the_csv_has_each_tournaments_results_and_those_counted(modena, client):
    circuit, _tournaments, p = modena
    response = client.get(reverse("public:circuit_csv", args=[circuit.pk]) + "?format=excel-it")
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig")), delimiter=";"))
    assert rows[0][:6] == [tr("Rank"), tr("Player"), tr("Club"), tr("Total"), tr("Games played"),
                           tr("Tournaments played")]
    assert rows[0][6:] == ["Coppa Maialino 1 (2024-02-01) ×1", tr("counted"), "Coppa Maialino 2 (2024-03-01) ×1",
                           tr("counted"), "Open di Modena (2024-04-01) ×1,25", tr("counted")]
    assert rows[2] == ["2", "A Modenese", rows[2][2], "323,75", "3", "2", "200,00 75,00", "200,00", "", "",
                       "123,75", "123,75"]


def test_the_players_history_shows_their_weighted_games(modena, client):
    circuit, _tournaments, p = modena
    response = client.get(reverse("public:player_history", args=[p["A"].pk]))
    card = one(response, f"[data-circuit='{circuit.pk}']")
    assert text(one(card, "strong")) == "2°"
    assert [text(s) for s in select(card, "[data-counted]")] == ["200", "123.75"]
    assert [text(s) for s in select(card, "[data-discarded] s")] == ["75"]


def test_the_30_best_games_count_and_the_rest_are_struck_through(organiser, client_for, client):
    """33 games of A across three tournaments (table points, weights 1, 1, 1.25): A scores 20 + k TP in
    game k; the three lowest (21, 22, 23, the first three of the first tournament) are not counted."""
    a, *others = [PlayerFactory(first_name=n, last_name="Trenta") for n in ("Aldo", "Bice", "Ciro", "Dina")]
    tournaments = [TournamentFactory(organiser=organiser, name=f"Tappa {i}", formula="punti_tavolo",
                                     start_date=datetime.date(2024, 1 + i, 1)) for i in range(3)]
    k = 0
    for tournament in tournaments:
        for _ in range(11):
            k += 1
            game(tournament, [a, *others], [20 + k, 5, 3, 1])
    circuit = make_circuit(client_for(organiser), zip(tournaments, ["1", "1", "1.25"]), best_of="30", formula="",
                           name="Ranking annuale")
    response = client.get(reverse("public:circuit", args=[circuit.pk]))
    row = one(response, f"tr[data-player='{a.pk}']")
    assert len(select(row, "[data-counted]")) == 30
    assert [text(s) for s in select(row, "[data-discarded] s")] == ["21", "22", "23"]
    # 21..31 + 32..42 + 1.25 x (43..53) = 286 + 407 + 660; less 21 + 22 + 23
    assert text(one(row, ".total")) == "1287" and text(one(row, "[data-games-played]")) == "33"
    data = client.get(reverse("public:circuit_json", args=[circuit.pk])).json()
    aldo = next(r for r in data["standings"] if r["player_id"] == a.pk)
    assert (aldo["total"], len(aldo["counted"]), aldo["counted"][0], aldo["counted"][-1]) == (1287.0, 30, 66.25, 24.0)
    assert data["circuit"]["best_of"] == 30


@pytest.mark.parametrize("weight", ["0", "-1", "1.255", "abc", "101", "1,001"])
def test_a_bad_weight_is_refused_with_a_message(organiser, client_for, english_messages, weight):
    tournament = TournamentFactory(organiser=organiser)
    circuit = services.circuit_create(user=organiser, data={"name": "C", "season": "2024", "basis": "games"})
    response = client_for(organiser).post(reverse("manage:circuit", args=[circuit.pk]),
                                          {"action": "add", "tournament": tournament.pk, "weight": weight})
    assert response.status_code == 400
    assert field_errors(response, "weight") == [tr(WEIGHT_MESSAGE)]
    assert not circuit.entries.exists()


def test_a_weight_below_a_hundredth_is_refused_by_the_service(organiser):
    from django.core.exceptions import ValidationError
    tournament = TournamentFactory(organiser=organiser)
    circuit = services.circuit_create(user=organiser, data={"name": "C", "season": "2024", "basis": "games"})
    with pytest.raises(ValidationError) as refused:
        services.circuit_tournament_add(user=organiser, circuit=circuit, tournament=tournament, weight=Decimal("0"))
    assert refused.value.message_dict == {"weight": [str(WEIGHT_MESSAGE)]}
    assert not circuit.entries.exists()


def test_a_formula_of_the_games_needs_the_games_basis(organiser, client_for, english_messages):
    response = client_for(organiser).post(reverse("manage:circuits"), {
        "name": "X", "season": "2024", "basis": "rank", "formula": "maialino_2024", "rule": "participants",
        "points_table": "", "participation": "0", "min_tournaments": "1"})
    assert response.status_code == 400
    assert field_errors(response, "formula") == [
        tr("Only a circuit by game results takes a formula of the games: leave it empty.")]
    assert not Circuit.objects.exists()


def test_a_tournament_its_formula_refuses_is_left_out_and_said(organiser, client_for, client):
    """maialino_2024 has one winner: a tie on the top TP not settled at the table cannot be rescored."""
    p = [PlayerFactory() for _ in range(4)]
    settled = TournamentFactory(organiser=organiser, name="Coppa", formula="maialino_2024")
    tied = TournamentFactory(organiser=organiser, name="Open", formula="punti_tavolo")
    game(settled, p, [45, 44, 23, 20])
    game(tied, p, [40, 40, 23, 20])
    circuit = make_circuit(client_for(organiser), [(settled, "1"), (tied, "1.25")], best_of="30")
    response = client.get(reverse("public:circuit", args=[circuit.pk]))
    assert len(select(response, "[data-circuit-tournaments] [data-refused]")) == 1
    data = client.get(reverse("public:circuit_json", args=[circuit.pk])).json()
    assert [(t["name"], t["left_out"]) for t in data["tournaments"]] == [("Coppa", False), ("Open", True)]
    assert text(one(response, f"tr[data-player='{p[0].pk}'] .total")) == "200"
