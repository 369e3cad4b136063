"""Every worked case of scoring_cases.json, through the Python API and through `python -m scoring`,
compared with the same tolerance as ../shared/tools/check_scoring_cases.py."""
import json
from pathlib import Path

import pytest

from scoring.contract import loads, parse_document, result_to_json
from scoring.engine import score_tournament
from tests.shared_dir import shared_file

CASES = json.loads((Path(__file__).resolve().parent / "scoring_cases.json").read_text(encoding="utf-8"))


def close(a, b):
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(close(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(close(x, y) for x, y in zip(a, b))
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return abs(a - b) < 0.0051
    return a == b


def pick(out, expected):
    """Only the fields the contract defines (extra output fields are allowed)."""
    games = [{"round": g.get("round"), "table": g.get("table"), "points": g.get("points")}
             for g in out.get("games", [])]
    rows = [{k: row.get(k) for k in exp} for row, exp in zip(out.get("standings", []), expected["standings"])]
    return {"games": games, "standings": rows}


def assert_matches(out, expected):
    assert len(out["standings"]) == len(expected["standings"])
    assert close(pick(out, expected), expected), json.dumps(pick(out, expected))


def test_cases_file_is_the_shared_one():
    shared = shared_file("scoring_cases.json")
    assert json.loads(shared.read_text(encoding="utf-8")) == CASES


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_case_python_api_matches(case):
    formula, params, games, absences = parse_document(loads(json.dumps(case["input"])))
    out = json.loads(json.dumps(result_to_json(score_tournament(formula, params, games, absences=absences))))
    assert_matches(out, case["expected"])


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_case_cli_matches(case, run_cli):
    code, stdout, stderr = run_cli(json.dumps(case["input"]))
    assert (code, stderr) == (0, "")
    assert_matches(json.loads(stdout), case["expected"])
