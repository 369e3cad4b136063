"""A circuit ranked by a season rule composed on its page: RCU Barletta's "Giocatore dell'anno" — at a
Master 75 per round played plus the millesimi score x 100 (a win with 50 then a loss with 41: 150 +
109.1), at the club's own tournaments their points — computed from the tournaments' published results;
a circuit's own settings (SCORING.md section 11) are where a club starts, and still rank alone."""
from decimal import Decimal

import pytest
from django.urls import reverse

from circuits.models import Circuit
from circuits.selectors import circuit_standings
from tests.circuits.test_games_circuit import game, publish
from tests.factories import PlayerFactory, RegistrationFactory, TournamentFactory, report, seat_round
from tests.html import field_errors, one, select, text
from tournaments.models import AuditLog

pytestmark = pytest.mark.django_db

BARLETTA = {
    "action": "save", "name": "Giocatore dell'anno", "unit": "events", "best": "", "min_events": "1", "lists": "",
    "cat-TOTAL_FORMS": "3", "cat-INITIAL_FORMS": "0", "cat-MIN_NUM_FORMS": "0", "cat-MAX_NUM_FORMS": "8",
    "cat-0-key": "master", "cat-0-winner": "2000", "cat-0-final": "1000", "cat-0-semifinal": "500",
    "cat-0-per_round": "75", "cat-0-own_points": "100",
    "cat-1-key": "ufficiale", "cat-1-per_game": "50", "cat-1-winner_bonus": "100",
    "cat-2-key": "club", "cat-2-own_points": "1",
}


@pytest.fixture
def barletta(organiser, client_for):
    client = client_for(organiser)
    p, q, others = PlayerFactory(last_name="Pace"), PlayerFactory(last_name="Quinto"), PlayerFactory.create_batch(6)
    master = TournamentFactory(organiser=organiser, formula="millesimi", published=True, name="Master")
    # Pace: a win with 50, then a loss with 41 (1.091 in millesimi); Quinto wins both games, ranked 1st.
    regs = {x.pk: RegistrationFactory(tournament=master, player=x) for x in [p, q, *others]}
    two_tables(master, [[p, *others[:3]], [q, *others[3:6]]], [[50, 30, 20, 10], [60, 30, 20, 10]], regs)
    two_tables(master, [[q, p, *others[:2]], others[2:6]], [[70, 41, 5, 1], [40, 30, 20, 10]], regs)
    club_a = TournamentFactory(organiser=organiser, formula="punti_tavolo", published=True, name="Sociale A")
    game(club_a, [p, q, *others[:2]], [62, 48, 30, 1])
    club_b = TournamentFactory(organiser=organiser, formula="punti_tavolo", published=True, name="Sociale B")
    game(club_b, [p, q, *others[2:4]], [40, 55, 3, 2])
    circuit = Circuit.objects.create(name="RCU Barletta", season="2026", organiser=organiser)
    return client, circuit, {"master": master, "club_a": club_a, "club_b": club_b}, p, q


def two_tables(tournament, tables, tps, regs):
    rnd = seat_round(tournament, [[regs[x.pk] for x in players] for players in tables])
    for number, points in enumerate(tps, start=1):
        report(rnd.tables.get(number=number), [(tp,) for tp in points])
    publish(rnd)


def add(client, circuit, tournament, category):
    response = client.post(reverse("manage:circuit", args=[circuit.pk]),
                           {"action": "add", "tournament": tournament.pk, "weight": "1", "category": category})
    assert response.status_code == 302


def test_barletta_composed_on_the_page_ranks_by_its_terms(barletta):
    client, circuit, tournaments, pace, quinto = barletta
    response = client.post(reverse("manage:circuit_season_rule", args=[circuit.pk]), BARLETTA)
    assert response.status_code == 302
    circuit.refresh_from_db()
    assert circuit.basis == "season" and list(circuit.season_rule["categories"]) == ["master", "ufficiale", "club"]
    assert circuit.season_rule["categories"]["master"]["terms"] == [
        {"stage": {"winner": 2000, "final": 1000, "semifinal": 500}}, {"per_round": 75}, {"own_points": 100}]
    add(client, circuit, tournaments["master"], "master")
    add(client, circuit, tournaments["club_a"], "club")
    add(client, circuit, tournaments["club_b"], "club")
    standings = circuit_standings(Circuit.objects.get(pk=circuit.pk))
    rows = {row.player.pk: row for row in standings.rows}
    master_cell = rows[pace.pk].cells[0]
    assert master_cell.points == Decimal("259.1")          # 75 x 2 rounds + 1.091 x 100
    assert sum(c.points for c in rows[pace.pk].cells[1:]) == 102   # the club tournaments' 62 + 40
    assert rows[pace.pk].total == Decimal("361.1")
    # Quinto won the Master: the winner's 2,000 beside 150 and 2.130 x 100.
    assert rows[quinto.pk].cells[0].points == Decimal("2363")
    assert rows[quinto.pk].rank == 1 and rows[pace.pk].rank == 2
    page = client.get(reverse("public:circuit", args=[circuit.pk]))
    assert one(page, "[data-circuit-rule]")["data-circuit-rule"] == "season"
    data = client.get(reverse("public:circuit_json", args=[circuit.pk])).json()
    assert [r["total"] for r in data["standings"]][:2] == [2363 + 48 + 55, 361.1]
    assert client.get(reverse("public:circuit_csv", args=[circuit.pk])).status_code == 200
    entry = AuditLog.objects.get(action="circuit.season_rule")
    assert (entry.before["basis"], entry.after["basis"]) == ("rank", "season")


def test_the_page_starts_from_the_circuits_own_settings(barletta):
    client, circuit, _tournaments, _p, _q = barletta
    page = client.get(reverse("manage:circuit_season_rule", args=[circuit.pk]))
    assert select(page, "[data-started-from=settings]")
    assert one(page, "#id_cat-0-rank_table")["value"].startswith("25, 20, 16")


def test_the_settings_translated_rank_as_the_settings_did(barletta):
    client, circuit, tournaments, _p, _q = barletta
    for t in tournaments.values():
        add(client, circuit, t, "")
    before = [(r.player.pk, r.rank, r.total) for r in circuit_standings(Circuit.objects.get(pk=circuit.pk)).rows]
    form = client.get(reverse("manage:circuit_season_rule", args=[circuit.pk])).context
    data = {"action": "save", "cat-TOTAL_FORMS": "2", "cat-INITIAL_FORMS": "1", "cat-MIN_NUM_FORMS": "0",
            "cat-MAX_NUM_FORMS": "8"}
    for f in [form["form"], *form["categories"]]:
        for field in f:
            value = field.value()
            data[field.html_name] = "" if value is None else value
    assert client.post(reverse("manage:circuit_season_rule", args=[circuit.pk]), data).status_code == 302
    after = [(r.player.pk, r.rank, r.total) for r in circuit_standings(Circuit.objects.get(pk=circuit.pk)).rows]
    assert Circuit.objects.get(pk=circuit.pk).basis == "season" and after == before


def test_a_term_the_results_lack_is_named_on_the_public_page(barletta, organiser):
    client, circuit, tournaments, _p, _q = barletta
    client.post(reverse("manage:circuit_season_rule", args=[circuit.pk]), BARLETTA | {"cat-2-own_points": "",
                                                                                      "cat-2-per_round": "10"})
    add(client, circuit, tournaments["club_a"], "club")
    page = client.get(reverse("public:circuit", args=[circuit.pk]))
    assert page.status_code == 200 and not select(page, "[data-season-refused]")   # rounds are always known


def test_a_category_the_rule_has_not_is_refused(barletta):
    client, circuit, tournaments, _p, _q = barletta
    client.post(reverse("manage:circuit_season_rule", args=[circuit.pk]), BARLETTA)
    response = client.post(reverse("manage:circuit", args=[circuit.pk]),
                           {"action": "add", "tournament": tournaments["master"].pk, "weight": "1",
                            "category": "nazionale"})
    assert response.status_code == 400 and field_errors(response, "category")


def test_a_games_term_beside_others_is_refused_by_the_season_engine(barletta):
    client, circuit, _t, _p, _q = barletta
    response = client.post(reverse("manage:circuit_season_rule", args=[circuit.pk]),
                           BARLETTA | {"cat-2-games": "1"})
    assert response.status_code == 400
    assert "games" in text(one(response, ".form-errors"))
    circuit.refresh_from_db()
    assert circuit.basis == "rank" and circuit.season_rule is None


def test_ranking_by_the_settings_again(barletta):
    client, circuit, _t, _p, _q = barletta
    client.post(reverse("manage:circuit_season_rule", args=[circuit.pk]), BARLETTA)
    client.post(reverse("manage:circuit_season_rule", args=[circuit.pk]), {"action": "clear"})
    circuit.refresh_from_db()
    assert (circuit.basis, circuit.season_rule) == ("rank", None)
