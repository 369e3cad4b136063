"""Standings are read in one place (ARCHITECTURE.md): what leads them has one entry,
tables.standings.selectors.standings_lead, which the app of tournament formats feeds."""
import ast
from pathlib import Path

from phases.public import phase_lead
from tables.standings import selectors

ROOT = Path(__file__).resolve().parents[2]
APPS = ("tables", "tournaments", "phases", "circuits", "transfer", "risiko_site")


def test_one_function_is_named_standings_lead():
    defined = [f"{p.relative_to(ROOT)}" for app in APPS for p in sorted((ROOT / app).rglob("*.py"))
               if "migrations" not in p.parts
               for node in ast.walk(ast.parse(p.read_text(encoding="utf-8")))
               if isinstance(node, ast.FunctionDef) and node.name == "standings_lead"]
    assert defined == ["tables/standings/selectors.py"]


def test_the_formats_app_registers_its_lead_once():
    assert selectors._LEAD_PROVIDERS.count(phase_lead) == 1
    selectors.register_lead(phase_lead)
    assert selectors._LEAD_PROVIDERS.count(phase_lead) == 1
