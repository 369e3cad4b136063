"""The reported tables of a tournament read once as plain games for the scoring engine, and which
rounds add points: what every standings of tables.standings.selectors is computed from."""
from collections import defaultdict

from tables import engine
from tables.models import Penalty, Seat
from tournaments.models import Phase

# The phases that decide the top places of the final standings and add no points (SCORING.md section 6).
FINAL_PHASES = (Phase.Kind.SEMIFINAL, Phase.Kind.FINAL, Phase.Kind.FINALINA)


def tournament_games(tournament, published_only=False):
    """Every reported table of the tournament as plain games for the engine, with penalties applied.

    A constant number of queries whatever the number of players."""
    seats = Seat.objects.filter(table__round__tournament=tournament, table__reported_at__isnull=False)
    if published_only:
        seats = seats.filter(table__round__standings_published_at__isnull=False)
    seats = list(seats
                 .values("id", "registration_id", "table_points", "risiko", "eliminated", "place",
                         "firenze", "table__number", "table__round__number"))
    penalties = list(Penalty.objects.filter(tournament=tournament, withdrawn=False)
                     .values("registration_id", "seat_id", "kind", "points", "void_past_results"))
    return engine.build_games(seats, penalties)


def games_by_round(tournament, published_only=False):
    """Reported games by round number (engine Game objects), and the tournament-level penalties."""
    games, totals = tournament_games(tournament, published_only=published_only)
    by_round = defaultdict(list)
    for game in games:
        by_round[game.round].append(game)
    return by_round, totals


def standings_rounds(tournament, published_only=False):
    """The rounds whose games add points to the standings, as (number, status), oldest first.

    Every round counts except the semifinal and final tables: they decide the top places of the
    final standings (SCORING.md section 6) and add no points."""
    return [(number, status) for number, status, published, kind in
            tournament.rounds.order_by("number").values_list("number", "status", "standings_published_at",
                                                            "phase__kind")
            if kind not in FINAL_PHASES and (published is not None or not published_only)]
