"""Short builders for games in tests: game(1, 1, p("A", 62), p("D", 0, eliminated=1))."""
from decimal import Decimal

from scoring import Game, PlayerResult


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
