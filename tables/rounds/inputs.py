"""The seating optimiser's database inputs: who can be seated, who met whom, the standings that
seed a draw and the previous round's places, turned into the request of SEATING.md section 4.

They live with the rounds, which draw them; tables/seating/ is the pure optimiser and reads nothing
(tests/test_imports.py)."""
from collections import defaultdict

from tables import engine
from tables.models import Seat
from tables.standings.selectors import tournament_games, tournament_standings
from tournaments.models import Registration


def present_registrations(tournament):
    """The players who can be seated: confirmed and checked in."""
    return list(tournament.registrations.filter(status=Registration.Status.CONFIRMED, present=True)
                .select_related("player", "player__club"))


def past_tables(tournament, before_round=None):
    """Tables of earlier rounds as lists of registration ids (strings), for `history`."""
    seats = Seat.objects.filter(table__round__tournament=tournament)
    if before_round is not None:
        seats = seats.filter(table__round__number__lt=before_round)
    tables = defaultdict(list)
    for table_id, reg_id in seats.order_by("table__round__number", "table__number", "position") \
            .values_list("table_id", "registration_id"):
        tables[table_id].append(str(reg_id))
    return list(tables.values())


def seating_request(*, tournament, number, method, seed, sizes=None, fixed_plan=None, pinned=None):
    """The JSON document of SEATING.md section 4 for the next round of `tournament`."""
    if fixed_plan:
        # A fixed plan (a phase's tables, an organiser's plan) seats exactly the players it names.
        named = {int(i) for table in fixed_plan for i in table}
        players = list(tournament.registrations.filter(pk__in=named).select_related("player", "player__club"))
    else:
        players = present_registrations(tournament)
    history = past_tables(tournament, before_round=number)
    ranks = {}
    if number > 1:
        result = tournament_standings(tournament)
        ranks = {row.registration_id: row.rank for row in result.rows}
    worst = len(players) + 1
    request = {
        "method": method,
        "table_size": tournament.table_size,
        "seed": seed,
        "time_limit_s": 1.0,
        "rounds_left": max(1, tournament.rounds_planned - number + 1),
        "players": [{"id": str(r.pk), "club": r.player.club.name if r.player.club else None,
                     "rank": ranks.get(r.pk, worst)} for r in players],
        # Seats at tables of the other size are counted by the optimiser from `history`.
        "history": history,
    }
    if sizes:
        request["sizes"] = list(sizes)
    if fixed_plan:
        request["plan"] = fixed_plan
    if pinned:
        request["pinned"] = pinned
    previous = previous_by_place(tournament, number - 1) if number > 1 else []
    if previous:
        # The greek method moves players on from these tables; every method keeps their winners apart.
        request["previous"] = previous
    return request


def previous_by_place(tournament, number):
    """The reported tables of round `number`, each as registration ids (strings) in place order,
    the winner first (SEATING.md sections 2 and 3.4)."""
    games, _totals = tournament_games(tournament)
    return [[str(seat.player) for seat in sorted(game.placement.seats, key=lambda seat: seat.rank)]
            for game in games if game.round == number]


def player_names(tournament):
    """{registration id (string): the player's full name}, for messages about a draw."""
    return {str(r.pk): r.player.full_name for r in tournament.registrations.select_related("player")}


def round_penalties(tournament, rnd, tables):
    """The penalty figures of a round's tables (tables.rounds.selectors.round_with_tables) as they are now."""
    rows = [[(s.registration_id, s.registration.player.club.name if s.registration.player.club else None)
             for s in t.seats.all()] for t in tables]
    return engine.evaluate_tables(rows, past_tables(tournament, before_round=rnd.number), tournament.table_size,
                                  method=rnd.method)
