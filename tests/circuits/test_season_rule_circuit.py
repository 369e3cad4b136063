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
    # No dispute window: a published result is final at once, and an event counts once final.
    master = TournamentFactory(organiser=organiser, formula="millesimi", published=True, name="Master",
                               dispute_window_minutes=0)
    # Pace: a win with 50, then a loss with 41 (1.091 in millesimi); Quinto wins both games, ranked 1st.
    regs = {x.pk: RegistrationFactory(tournament=master, player=x) for x in [p, q, *others]}
    two_tables(master, [[p, *others[:3]], [q, *others[3:6]]], [[50, 30, 20, 10], [60, 30, 20, 10]], regs)
    two_tables(master, [[q, p, *others[:2]], others[2:6]], [[70, 41, 5, 1], [40, 30, 20, 10]], regs)
    club_a = TournamentFactory(organiser=organiser, formula="punti_tavolo", published=True, name="Sociale A",
                               dispute_window_minutes=0)
    game(club_a, [p, q, *others[:2]], [62, 48, 30, 1])
    club_b = TournamentFactory(organiser=organiser, formula="punti_tavolo", published=True, name="Sociale B",
                               dispute_window_minutes=0)
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


def test_every_list_of_the_rule_reaches_the_json_and_the_csv(barletta):
    """Firenze's internal and external lists: the page shows both, and so do the JSON and the CSV."""
    client, circuit, tournaments, pace, quinto = barletta
    client.post(reverse("manage:circuit_season_rule", args=[circuit.pk]),
                BARLETTA | {"lists": "interna: club, ufficiale; esterna: master"})
    add(client, circuit, tournaments["master"], "master")
    add(client, circuit, tournaments["club_a"], "club")
    add(client, circuit, tournaments["club_b"], "club")
    page = client.get(reverse("public:circuit", args=[circuit.pk]))
    assert [t["data-season-list"] for t in select(page, "[data-season-list]")] == ["esterna"]
    data = client.get(reverse("public:circuit_json", args=[circuit.pk])).json()
    assert [lst["name"] for lst in data["lists"]] == ["interna", "esterna"]
    assert [(r["player"], r["total"]) for r in data["lists"][0]["standings"]][:2] == [
        (pace.full_name, 102), (quinto.full_name, 103)][::-1]
    assert data["lists"][1]["standings"][0] == {**data["lists"][1]["standings"][0], "player": quinto.full_name,
                                                 "total": 2363}
    lines = client.get(reverse("public:circuit_csv", args=[circuit.pk])).content.decode("utf-8-sig").splitlines()
    import csv as csv_module
    rows = list(csv_module.reader(lines))
    assert {row[0] for row in rows[1:]} == {"interna", "esterna"}
    assert [row[2] for row in rows[1:] if row[0] == "esterna"][0] == quinto.full_name


def test_an_event_counts_once_its_result_is_final(barletta):
    """Inside its dispute window a Master gives nobody its points yet, and the page and JSON say provisional."""
    from datetime import timedelta
    from unittest import mock

    from django.utils import timezone

    from tournaments.models import Tournament
    client, circuit, tournaments, pace, quinto = barletta
    Tournament.objects.filter(pk=tournaments["master"].pk).update(dispute_window_minutes=120)
    client.post(reverse("manage:circuit_season_rule", args=[circuit.pk]), BARLETTA)
    add(client, circuit, tournaments["master"], "master")
    add(client, circuit, tournaments["club_a"], "club")
    standings = circuit_standings(Circuit.objects.get(pk=circuit.pk))
    assert [(row.player.pk, row.total) for row in standings.rows][:2] == [(pace.pk, 62), (quinto.pk, 48)]
    assert all(row.cells[0] is None for row in standings.rows)
    data = client.get(reverse("public:circuit_json", args=[circuit.pk])).json()
    assert [(t["name"], t["final"], t["status"]) for t in data["tournaments"]] == [
        ("Master", False, "provisional"), ("Sociale A", True, "final")]
    later = timezone.now() + timedelta(minutes=121)
    with mock.patch("django.utils.timezone.now", return_value=later):
        standings = circuit_standings(Circuit.objects.get(pk=circuit.pk))
    rows = {row.player.pk: row for row in standings.rows}
    assert rows[quinto.pk].cells[0].points == Decimal("2363") and rows[quinto.pk].rank == 1


def test_a_masters_semifinalists_reach_the_semifinal_stage_and_its_points(organiser, client_for):
    """The Master's semifinal losers are placed by the qualifying order, yet they reached the semifinal:
    the season rule's 500 are theirs (they got 0)."""
    from circuits.selectors import circuit_entries, season_events
    from phases import draw
    from tables.rounds import services as table_services
    from tests.phases.helpers import report_by_strength, report_order, strength_of
    from tests.phases.test_master import master_qualified

    master = TournamentFactory(organiser=organiser, name="Master", dispute_window_minutes=0)
    regs = master_qualified(master, organiser)
    strength = strength_of(regs)
    semifinal, final = master.phases.order_by("order")[1:]
    semis = draw.phase_draw(user=organiser, phase=semifinal)
    table_services.round_publish(user=organiser, rnd=semis)
    report_by_strength(semis, strength, organiser)
    table_services.round_close(user=organiser, rnd=semis)
    rnd = draw.phase_draw(user=organiser, phase=final)
    table_services.round_publish(user=organiser, rnd=rnd)
    report_order(rnd.tables.get(), sorted((s.registration for s in rnd.tables.get().seats.all()),
                                          key=lambda r: -strength[r.pk]))
    table_services.round_close(user=organiser, rnd=rnd)
    for r in master.rounds.all():
        table_services.standings_publish(user=organiser, rnd=r)
    client = client_for(organiser)
    circuit = Circuit.objects.create(name="RCU Barletta", season="2026", organiser=organiser)
    client.post(reverse("manage:circuit_season_rule", args=[circuit.pk]), BARLETTA)
    add(client, circuit, master, "master")
    circuit.refresh_from_db()
    _columns, events = season_events(circuit, circuit_entries(circuit))
    stages = {r["player"]: r.get("stage") for r in events[0]["results"]}
    finalists = {s.registration.player_id for s in rnd.tables.get().seats.all()}
    losers = {s.registration.player_id for t in semis.tables.all() for s in t.seats.all()} - finalists
    assert len(losers) == 9 and {stages[p] for p in losers} == {"semifinal"}
    assert stages[regs[0].player_id] == "winner"
    assert {stages[p] for p in finalists - {regs[0].player_id}} == {"final"}
    rows = {row.player.pk: row for row in circuit_standings(circuit).rows}
    loser = next(iter(losers))
    result = next(r for r in events[0]["results"] if r["player"] == loser)
    assert rows[loser].cells[0].points == 500 + 75 * result["rounds"] + 100 * result["points"]
