"""Short builders for games in tests: game(1, 1, p("A", 62), p("D", 0, eliminated=1))."""
import dataclasses
from decimal import Decimal

from scoring import FORMULAS, Game, PlayerResult


def p(pid, tp=0, **kwargs):
    if isinstance(tp, (int, str)) and not isinstance(tp, bool):
        tp = Decimal(tp)
    return PlayerResult(pid, tp, **kwargs)


def game(round_, table, *players):
    return Game(round_, table, tuple(players))


def running_example(round_=1, table=1):
    """SCORING.md section 4: A 62 TP, B 48, C 30, D eliminated first."""
    return game(round_, table, p("A", 62), p("B", 48), p("C", 30), p("D", 0, eliminated=1))


def five_players(round_=1, table=1):
    return game(round_, table, p("A", 70), p("B", 66), p("C", 51), p("D", 20), p("E", 0, eliminated=1))


def as_text(points):
    """{player: Decimal} -> {player: "12.34"} as shown (half-up, 2 decimals)."""
    from scoring.numeric import shown
    return {k: str(shown(v)) for k, v in points.items()}


def one_winner(g):
    """`g` with a tie for first place settled by explicit places (SCORING.md 13.5: maialino_2024 needs
    one winner); any other table unchanged."""
    tied = [seat.player for seat in g.placement.seats if seat.rank == 1]
    if len(tied) < 2:
        return g
    places = {pid: place for place, pid in enumerate(tied, 1)}
    return Game(g.round, g.table, tuple(dataclasses.replace(q, place=places[q.id]) if q.id in places else q
                                        for q in g.players))


def scorable(name, games):
    """Random games made valid for formula `name`: its own rules on the input (one winner a table
    under maialino_2024)."""
    if name == "maialino_2024":
        return [one_winner(g) for g in games]
    return games


def reference_for(name, reference):
    """The Como reference a test draws, or None for a formula the corrective does not apply to."""
    return reference if FORMULAS[name].corrective else None
