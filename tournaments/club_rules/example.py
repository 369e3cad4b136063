"""The worked example of the rule form: the engine's example of a rule (scoring.rule_document.run_example:
eight players, two rounds, a RisiKo!, an elimination, a tie at a table and two players level on total)
under the rule being composed, as the page shows it: the results a discard leaves out marked, and the
tie-break that parts the players level on total named, with the values it compared."""
from scoring.errors import ScoringError
from scoring.formulas import get_formula
from scoring.numeric import shown_for
from scoring.rule_document import parse_rule_document, run_example
from scoring.standings import not_counted
from tournaments.models import TieBreak


def worked_example(document):
    """{"games": [...], "standings": [...], "ties": [...], "decimals"} of the example under `document`, or
    {"error": the engine's words naming the field} when the rule or the example is refused."""
    try:
        rule = parse_rule_document(document)
        result = run_example(rule)
    except ScoringError as exc:
        return {"error": f"{exc.field}: {exc.detail}" if getattr(exc, "field", None) else str(exc.detail)}
    played = {}
    for g in result.games:
        for s in g.players:
            played.setdefault(s.player, {})[g.round] = s.points
    dropped = {row.player: not_counted(row.counted, played.get(row.player, {})) for row in result.standings}
    decimals = get_formula(result.formula).decimals
    return {
        "games": [{"round": g.round, "table": g.table,
                   "rows": [{"player": s.player, "place": s.place, "tp": s.table_points, "points": s.points,
                             "eliminated": s.eliminated, "risiko": s.risiko,
                             "dropped": g.round in dropped[s.player]} for s in g.players]}
                  for g in result.games],
        "standings": result.standings, "decimals": decimals,
        "ties": _ties(result.standings, rule.engine_params().tiebreak, shown_for(decimals)),
    }


def _ties(rows, chain, show):
    """For each two players next to each other with the same total: who is ahead and by which tie-break of
    the rule's `chain` (the first that parts them), with the two values it compared when it has values of
    its own (best results, wins, table points); shared when none parts them."""
    labels = dict(TieBreak.choices)
    ties = []
    for ahead, behind in zip(rows, rows[1:]):
        if ahead.shown_total != behind.shown_total:
            continue
        tie = {"ahead": ahead.player, "behind": behind.player, "total": ahead.total, "shared": ahead.rank == behind.rank,
               "by": None, "values": None}
        for criterion in chain:
            values = _values(criterion, ahead, behind, show)
            if values is None or values[0] != values[1]:
                tie.update(by=labels.get(criterion, criterion), values=values, criterion=criterion)
                break
        ties.append(tie)
    return ties


def _values(criterion, ahead, behind, show):
    """(ahead's, behind's) value of a tie-break: the first counted result where they differ, best first;
    the wins; the table points. None for one that looks at more than the two rows (head to head, the
    standings after the previous round)."""
    if criterion == "best_results":
        for a, b in zip(ahead.counted, behind.counted):
            if show(a) != show(b):
                return show(a), show(b)
        return show(ahead.counted[0]) if ahead.counted else 0, show(behind.counted[0]) if behind.counted else 0
    if criterion == "wins":
        return ahead.wins, behind.wins
    if criterion == "table_points":
        return ahead.table_points, behind.table_points
    return None
