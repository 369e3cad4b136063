"""The demo's season circuit: two past Tuesday tournaments of the demo's players, played and
published, ranked together (connected to `load_demo` through tournaments.management.demo.add_part)."""
import datetime
from decimal import Decimal

from circuits import services
from circuits.models import Circuit
from tables.rounds import services as round_services
from tables.results.services import ResultLine, table_result_submit
from tournaments import services as tournament_services

CIRCUIT_NAME = "Stagione del Martedì (demo)"
# The same two tournaments ranked as RCU Modena does (SCORING.md 13.11): every game rescored in
# maialino_2024, the second tournament weighing 1.25, the best 30 games counted.
GAMES_CIRCUIT_NAME = "Ranking Maialino (demo)"
# Table points of the four seats of each table, turned round from table to table and round to round.
POINTS = (72, 51, 40, 21)


def _play_past_tournament(*, organiser, arbiter, name, day, players, club, seed):
    tournament = tournament_services.tournament_save(user=organiser, data={
        "name": name, "start_date": day, "venue": "Circolo Arci, Como", "club": club, "formula": "conversione150",
        "table_size": 4, "rounds_planned": 2, "entry_fee": 5, "published": True, "tiebreak": "best_results,wins"})
    tournament_services.tournament_set_arbiters(user=organiser, tournament=tournament, arbiters=[arbiter])
    for player in players:
        reg = tournament_services.registration_add(user=organiser, tournament=tournament, player=player, fee_paid=True)
        tournament_services.registration_check_in(user=organiser, registration=reg, present=True)
    for number in (1, 2):
        rnd = round_services.round_create(user=organiser, tournament=tournament, method="random", seed=seed + number)
        round_services.round_publish(user=organiser, rnd=rnd)
        for t, table in enumerate(rnd.tables.order_by("number")):
            seats = list(table.seats.order_by("position"))
            shift = (t + number + seed) % len(seats)
            # a few points more or less from table to table, so that players rarely tie
            lines = [ResultLine(seat_id=s.pk, table_points=Decimal(
                POINTS[(i + shift) % len(POINTS)] + (7 * t + 3 * number + 2 * i + seed) % 6))
                     for i, s in enumerate(seats)]
            table_result_submit(user=arbiter, table=table, lines=lines, version=table.version)
        round_services.round_close(user=organiser, rnd=rnd)
        round_services.standings_publish(user=organiser, rnd=rnd)
    return tournament


def load_demo_circuit(*, organiser, arbiter, tournament):
    """Idempotent: the circuit and its two tournaments are made once."""
    if Circuit.objects.filter(name=CIRCUIT_NAME).exists():
        return None
    players = [r.player for r in tournament.registrations.select_related("player").order_by("pk")]
    today = tournament.start_date
    first = _play_past_tournament(organiser=organiser, arbiter=arbiter, name="Martedì di ottobre (demo)",
                                  day=today - datetime.timedelta(days=28), players=players[:16], club=tournament.club,
                                  seed=11)
    second = _play_past_tournament(organiser=organiser, arbiter=arbiter, name="Martedì di novembre (demo)",
                                   day=today - datetime.timedelta(days=14), players=players[4:], club=tournament.club,
                                   seed=23)
    circuit = services.circuit_create(user=organiser, data={
        "name": CIRCUIT_NAME, "season": f"{today.year}", "rule": Circuit.Rule.TABLE,
        "points_table": "25, 20, 16, 13, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1", "participation": Decimal("1"),
        "best_of": None, "min_tournaments": 1})
    for t in (first, second):
        services.circuit_tournament_add(user=organiser, circuit=circuit, tournament=t, weight=Decimal("1"))
    games = services.circuit_create(user=organiser, data={
        "name": GAMES_CIRCUIT_NAME, "season": f"{today.year}", "basis": Circuit.Basis.GAMES,
        "formula": "maialino_2024", "best_of": 30, "min_tournaments": 1})
    for t, weight in ((first, Decimal("1")), (second, Decimal("1.25"))):
        services.circuit_tournament_add(user=organiser, circuit=games, tournament=t, weight=weight)
    return (f"  circuit:   {CIRCUIT_NAME} (2 tournaments, /circuiti/{circuit.pk}/)\n"
            f"  circuit:   {GAMES_CIRCUIT_NAME} (best 30 games, /circuiti/{games.pk}/)")


