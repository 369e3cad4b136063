"""Every worked case of variant_cases.json (SCORING.md section 13, club variants) through the
command it names (`python -m scoring` or one of its sub-commands), compared as
../shared/tools/check_variant_cases.py compares them: the fields of "expected", numbers within half a
unit of the shown decimals (3 under millesimi); error cases exit 2 with one line on stderr."""
import json

import pytest

from scoring.__main__ import run
from tests.shared_dir import shared_file

from .conftest import HERE

CASES = json.loads((HERE / "variant_cases.json").read_text(encoding="utf-8"))


def match(expected, got, tolerance, strict=False):
    """None when `got` has every field of `expected` (numbers within `tolerance`; "points" objects
    with the same players), else where they differ."""
    if isinstance(expected, dict):
        if not isinstance(got, dict):
            return "an object was expected"
        if strict and set(map(str, expected)) != set(map(str, got)):
            return f"keys {sorted(expected)} != {sorted(got)}"
        for key, value in expected.items():
            if key not in got:
                return f"{key} is missing"
            problem = match(value, got[key], tolerance, strict=key == "points")
            if problem:
                return f"{key}: {problem}"
        return None
    if isinstance(expected, list):
        if not isinstance(got, list) or len(got) != len(expected):
            return f"expected {expected} got {got}"
        return next((f"[{i}]: {d}" for i, d in enumerate(match(a, b, tolerance) for a, b in zip(expected, got))
                     if d), None)
    if isinstance(expected, (int, float)) and not isinstance(expected, bool):
        ok = not isinstance(got, bool) and isinstance(got, (int, float)) and abs(expected - got) <= tolerance
        return None if ok else f"expected {expected} got {got}"
    return None if expected == got else f"expected {expected!r} got {got!r}"


def _params(case):
    return pytest.param(case, id=case["name"][:80])


def test_cases_file_is_the_shared_one():
    shared = shared_file("variant_cases.json")
    assert json.loads(shared.read_text(encoding="utf-8")) == CASES


def test_cases_cover_every_command_and_both_new_formulas():
    assert {c.get("command", "scoring") for c in CASES} == {"scoring", "qualify", "finals", "teams", "circuit"}
    assert {"millesimi", "maialino_2024"} <= {c["input"].get("formula") for c in CASES}


@pytest.mark.parametrize("case", [_params(c) for c in CASES])
def test_variant_case(case):
    command = case.get("command", "scoring")
    code, out, err = run(json.dumps(case["input"]).encode("utf-8"), None if command == "scoring" else command)
    if case["expected"].get("error") is True:
        assert (code, out) == (2, "")
        assert err.strip() and "\n" not in err and "Traceback" not in err
    else:
        assert (code, err) == (0, "")
        tolerance = 0.00051 if case["input"].get("formula") == "millesimi" else 0.0051
        assert match(case["expected"], json.loads(out), tolerance) is None


@pytest.mark.parametrize("command", ["finals", "teams"])
def test_new_commands_through_the_process(command, run_cli_args):
    case = next(c for c in CASES if c.get("command") == command and "error" not in c["expected"])
    code, out, err = run_cli_args([command], json.dumps(case["input"]))
    assert (code, err) == (0, "")
    assert match(case["expected"], json.loads(out), 0.0051) is None
