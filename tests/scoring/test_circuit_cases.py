"""Every worked case of circuit_cases.json (SCORING.md section 11), through the Python API and
through `python -m scoring circuit`: the output must equal the expected document exactly."""
import json
import subprocess
import sys
from pathlib import Path

import pytest

from scoring.circuit import circuit_to_json, parse_circuit_document, score_circuit
from scoring.contract import loads
from scoring.errors import ScoringError
from tests.shared_dir import shared_file

HERE = Path(__file__).resolve().parent
CASES = json.loads((HERE / "circuit_cases.json").read_text(encoding="utf-8"))
VALID = [c for c in CASES if "error" not in c["expected"]]
INVALID = [c for c in CASES if "error" in c["expected"]]


def run_circuit(document: str):
    proc = subprocess.run([sys.executable, "-m", "scoring", "circuit"], input=document.encode("utf-8"),
                          capture_output=True, cwd=HERE.parent.parent, timeout=60)
    return proc.returncode, proc.stdout.decode("utf-8"), proc.stderr.decode("utf-8")


def test_cases_file_is_the_shared_one():
    shared = shared_file("circuit_cases.json")
    assert json.loads(shared.read_text(encoding="utf-8")) == CASES


def test_cases_cover_valid_and_invalid_documents():
    assert len(VALID) >= 30 and len(INVALID) >= 10


@pytest.mark.parametrize("case", VALID, ids=[c["name"] for c in VALID])
def test_case_python_api_matches_exactly(case):
    doc = loads(json.dumps(case["input"]))
    out = json.loads(json.dumps(circuit_to_json(score_circuit(*parse_circuit_document(doc)))))
    assert out == case["expected"]


@pytest.mark.parametrize("case", INVALID, ids=[c["name"] for c in INVALID])
def test_invalid_case_is_refused_by_the_api(case):
    with pytest.raises(ScoringError):
        score_circuit(*parse_circuit_document(loads(json.dumps(case["input"]))))


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_case_cli_matches_exactly(case):
    code, stdout, stderr = run_circuit(json.dumps(case["input"]))
    if "error" in case["expected"]:
        assert code == 2 and stdout == ""
        assert stderr.endswith("\n") and stderr.count("\n") == 1 and len(stderr.strip()) > 10
    else:
        assert (code, stderr) == (0, "")
        assert json.loads(stdout) == case["expected"]


ERRORS = {
    "invalid: unknown rule 'f1'": "unknown rule 'f1': expected one of table, participants, scaled",
    "invalid: negative entry in the points table": "points table entry 3 is negative",
    "invalid: non-numeric entry in the points table ('20')": "points table entry 2 is not a number",
    "invalid: weight 0": "tournament T2: weight must be a number greater than 0",
    "invalid: best_of 0": "best_of must be null or a whole number of at least 1",
    "invalid: a player twice in one tournament": "tournament T2: player Bice is listed twice",
    "invalid: two tournaments with one id": "two tournaments have the id T1",
    "invalid: ranks [2, 3, 4] are not a competition ranking":
        "tournament T1: ranks [2, 3, 4] are not a competition ranking (1, 1, 3, ...)",
}


@pytest.mark.parametrize("name", sorted(ERRORS))
def test_error_line_names_what_is_wrong(name):
    case = next(c for c in CASES if c["name"] == name)
    assert run_circuit(json.dumps(case["input"])) == (2, "", ERRORS[name] + "\n")


def test_unknown_command_is_refused_with_one_line():
    proc = subprocess.run([sys.executable, "-m", "scoring", "circuits"], input=b"{}", capture_output=True,
                          cwd=HERE.parent.parent, timeout=60)
    assert proc.returncode == 2 and proc.stdout == b""
    assert proc.stderr.decode().startswith("unknown command 'circuits'") and proc.stderr.count(b"\n") == 1


@pytest.mark.parametrize("doc, message", [
    ('[]', "the input must be a JSON object"),
    ('{"tournaments": []}', "circuit must be an object"),
    ('{"circuit": {"rule": "table", "table": [10, 5]}, "tournaments": {}}', "tournaments must be a list"),
    ('{"circuit": {"rule": "table", "table": [10], "participation": -1}, "tournaments": []}',
     "participation must be a number of at least 0"),
    ('{"circuit": {"rule": "scaled", "min_tournaments": 0}, "tournaments": []}',
     "min_tournaments must be a whole number of at least 1"),
    ('{"circuit": {"rule": "scaled"}, "tournaments": [{"id": "A", "standings": [{"rank": 1, "player": "x"}]},'
     ' {"id": "B", "standings": [{"rank": 1, "player": 7}]}]}', "player ids must be all strings or all whole numbers"),
])
def test_shape_errors(doc, message):
    assert run_circuit(doc) == (2, "", message + "\n")


def test_empty_circuit_and_integer_ids():
    doc = ('{"circuit": {"rule": "participants", "min_tournaments": 2}, "tournaments": ['
           '{"id": 1, "standings": [{"rank": 1, "player": 5}, {"rank": 2, "player": 3}]},'
           '{"id": 2, "weight": 2, "standings": [{"rank": 1, "player": 3}]}]}')
    code, out, err = run_circuit(doc)
    assert (code, err) == (0, "")
    assert json.loads(out) == {
        "tournaments": [{"id": 1, "points": {"5": 2.0, "3": 1.0}}, {"id": 2, "points": {"3": 2.0}}],
        "standings": [{"rank": 1, "player": 3, "total": 3.0, "counted": [2.0, 1.0], "played": 2, "wins": 1}],
        "unranked": [{"player": 5, "total": 2.0, "counted": [2.0], "played": 1, "wins": 1}]}
    assert run_circuit('{"circuit": {"rule": "scaled"}, "tournaments": []}') == (
        0, '{"tournaments": [], "standings": [], "unranked": []}\n', "")


def test_counted_flags_mark_the_best_of_scores():
    from scoring.circuit import CircuitRule, CircuitTournament, Entry
    ts = [CircuitTournament(f"T{i}", (Entry(1, "A" if i != 2 else "B"), Entry(2, "B" if i != 2 else "A")))
          for i in range(1, 4)]
    res = score_circuit(CircuitRule("participants", best_of=2), ts)
    a = next(r for r in res.standings if r.player == "A")
    assert [(s.tournament, s.counted) for s in a.scores] == [("T1", True), ("T2", False), ("T3", True)]
