"""The worked example of the rule form: eight players, two rounds (a RisiKo!, an elimination, a tie at
a table), scored by the engine under the rule being composed, exactly as `python -m scoring` scores it
with the rule document as its `params`."""
from decimal import Decimal

from scoring.engine import score_tournament
from scoring.errors import ScoringError
from scoring.formulas import get_formula
from scoring.model import Game, PlayerResult
from scoring.rule_document import parse_rule_document


def _p(pid, tp, **kw):
    return PlayerResult(pid, Decimal(tp), **kw)


GAMES = (
    Game(1, 1, (_p("Anna", 62), _p("Bruno", 48), _p("Carla", 30), _p("Dario", 0, eliminated=1))),
    Game(1, 2, (_p("Elena", 40, risiko=True), _p("Fabio", 55), _p("Gino", 20), _p("Ilaria", 12))),
    Game(2, 1, (_p("Anna", 35), _p("Elena", 35), _p("Gino", 50), _p("Ilaria", 0, eliminated=1))),
    Game(2, 2, (_p("Bruno", 70), _p("Fabio", 44), _p("Carla", 26), _p("Dario", 18))),
)


def worked_example(document):
    """{"games": [...], "standings": [...], "decimals"} of the example under `document`, or {"error":
    the engine's words naming the field} when the rule or the example is refused."""
    try:
        rule = parse_rule_document(document)
        result = score_tournament(rule.formula, rule.engine_params(), GAMES)
    except ScoringError as exc:
        return {"error": f"{exc.field}: {exc.detail}" if getattr(exc, "field", None) else str(exc.detail)}
    return {
        "games": [{"round": g.round, "table": g.table,
                   "rows": [{"player": s.player, "place": s.place, "tp": s.table_points, "points": s.points,
                             "eliminated": s.eliminated, "risiko": s.risiko} for s in g.players]}
                  for g in result.games],
        "standings": result.standings, "decimals": get_formula(result.formula).decimals,
    }
