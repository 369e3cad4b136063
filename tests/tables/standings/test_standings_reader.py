"""Standings are read in one place (ARCHITECTURE.md): every call into the scoring engine's ordering
functions from the Django code is in tables/standings/ (and tables/engine.py, the adapter), and what
leads the standings has one entry, tables.standings.selectors.standings_lead."""
import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
APPS = ("tables", "tournaments", "phases", "circuits", "transfer", "risiko_site")
# The engine's functions that order players or teams into standings (SCORING.md sections 3, 6, 7, 12).
ORDERING = {"score_tournament", "build_standings", "standings_from", "final_classification", "knockout_order",
            "knockout_progress", "knockout_phase", "qualify", "team_standings"}
READERS = ("tables/standings/", "tables/engine.py")


def ordering_calls(tree):
    """Lines that reach an ordering function of `scoring`: imported by name, or called on an imported
    scoring module (`scoring.score_tournament(...)`, `team_rules.team_standings(...)`)."""
    modules, found = set(), []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            modules |= {(a.asname or a.name).split(".")[0] for a in node.names if a.name.split(".")[0] == "scoring"}
        elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "scoring":
            found += [node.lineno for a in node.names if a.name in ORDERING]
            modules |= {a.asname or a.name for a in node.names if a.name not in ORDERING}
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr in ORDERING and isinstance(node.value, ast.Name) \
                and node.value.id in modules:
            found.append(node.lineno)
    return sorted(found)


def sources():
    return [p for app in APPS for p in sorted((ROOT / app).rglob("*.py")) if "migrations" not in p.parts]


def test_only_the_standings_reader_orders_players_and_teams():
    calls = {str(p.relative_to(ROOT)): lines for p in sources()
             if (lines := ordering_calls(ast.parse(p.read_text(encoding="utf-8"))))}
    assert {path for path in calls if not path.startswith(READERS)} == set()
    # The scan reaches the readers: individual, phases, teams.
    assert {"tables/engine.py", "tables/standings/phases.py", "tables/standings/teams.py"} <= set(calls)


def test_the_scan_sees_an_import_and_a_call_through_a_module():
    tree = ast.parse("from scoring.qualify import qualify, rules_for\nimport scoring\nfrom scoring import teams as t\n"
                     "scoring.score_tournament(f, p, g)\nt.team_standings(m)\nt.match_points(m)\nother.qualify(x)\n")
    assert ordering_calls(tree) == [1, 4, 5]


def test_one_function_is_named_standings_lead():
    defined = [f"{p.relative_to(ROOT)}" for p in sources()
               for node in ast.walk(ast.parse(p.read_text(encoding="utf-8")))
               if isinstance(node, ast.FunctionDef) and node.name == "standings_lead"]
    assert defined == ["tables/standings/selectors.py"]
