"""The worked example of the rule form: the engine's example of a rule (scoring.rule_document.run_example:
eight players, two rounds, a RisiKo!, an elimination, a tie at a table) under the rule being composed,
as the page shows it."""
from scoring.errors import ScoringError
from scoring.formulas import get_formula
from scoring.rule_document import parse_rule_document, run_example


def worked_example(document):
    """{"games": [...], "standings": [...], "decimals"} of the example under `document`, or {"error":
    the engine's words naming the field} when the rule or the example is refused."""
    try:
        result = run_example(parse_rule_document(document))
    except ScoringError as exc:
        return {"error": f"{exc.field}: {exc.detail}" if getattr(exc, "field", None) else str(exc.detail)}
    return {
        "games": [{"round": g.round, "table": g.table,
                   "rows": [{"player": s.player, "place": s.place, "tp": s.table_points, "points": s.points,
                             "eliminated": s.eliminated, "risiko": s.risiko} for s in g.players]}
                  for g in result.games],
        "standings": result.standings, "decimals": get_formula(result.formula).decimals,
    }
