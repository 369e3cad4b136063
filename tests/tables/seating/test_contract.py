import contextlib
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tables.seating import context, optimizer
from tables.seating.__main__ import main

ROOT = Path(__file__).resolve().parents[3]

# The time limit is far off: the search's work budget decides, so a busy machine gives the same result.
EXAMPLE = {"method": "random", "table_size": 4, "seed": 7, "time_limit_s": 60, "rounds_left": 3,
           "players": [{"id": f"P{i:02d}", "club": ["Lario", "Brera", None][i % 3], "rank": i} for i in range(1, 18)],
           "history": [["P01", "P07", "P12", "P15"], ["P02", "P03", "P09", "P11", "P14"]],
           "fives": {"P02": 1}}


def run_cli(payload):
    """`python -m tables.seating` as the web application runs it."""
    text = payload if isinstance(payload, str) else json.dumps(payload)
    return subprocess.run([sys.executable, "-m", "tables.seating"], input=text.encode("utf-8"), cwd=ROOT,
                          capture_output=True, timeout=30)


class _Stdin:
    def __init__(self, data):
        self.buffer = io.BytesIO(data)


def run_main(data):
    """The same entry point in-process: (exit code, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    saved = sys.stdin
    sys.stdin = _Stdin(data)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main()
    finally:
        sys.stdin = saved
    return code, out.getvalue(), err.getvalue()


def test_contract_seats_the_example_of_the_spec():
    proc = run_cli(EXAMPLE)
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert set(out) == {"tables", "penalties", "seconds"}
    assert set(out["penalties"]) == {"same_club_pairs", "repeat_pairs", "max_meetings", "repeat_fives"}
    assert sorted(p for t in out["tables"] for p in t) == [p["id"] for p in EXAMPLE["players"]]
    assert [len(t) for t in out["tables"]] == [5, 4, 4, 4]
    # Six players of Brera and five of Lario at four tables: three club pairs cannot be avoided.
    assert out["penalties"]["same_club_pairs"] == 3
    # Keeping the clubs at that minimum costs one repeat (a search from 300 random starts finds no better).
    assert out["penalties"]["repeat_pairs"] == 1
    assert isinstance(out["seconds"], float) and out["seconds"] >= 0


def test_contract_is_deterministic_for_a_seed():
    first, second = run_cli(EXAMPLE), run_cli(EXAMPLE)
    assert json.loads(first.stdout)["tables"] == json.loads(second.stdout)["tables"]


def test_contract_reports_fallback_sizes_and_semifinal_fields():
    small = dict(EXAMPLE, players=EXAMPLE["players"][:7], history=[], fives={})
    assert "3-player" in json.loads(run_cli(small).stdout)["messages"][0]
    semi = dict(EXAMPLE, method="semifinal", history=[], fives={})
    out = json.loads(run_cli(semi).stdout)
    assert out["direct"] == ["P01"]
    assert len(out["bye"]) == 17 - 12


@pytest.mark.parametrize("payload, message", [
    ("{", "not valid JSON"),
    ("[]", "JSON object"),
    (dict(EXAMPLE, method="lottery"), "unknown method"),
    (dict(EXAMPLE, players=EXAMPLE["players"][:2]), "at least 3 players"),
    (dict(EXAMPLE, players=EXAMPLE["players"] + [{"id": "P01"}]), "listed twice"),
    (dict(EXAMPLE, seed="7"), "seed must be a whole number"),
    (dict(EXAMPLE, seed=10 ** 30), "seed must be from"),
    (dict(EXAMPLE, rounds_left=0), "rounds_left"),
    (dict(EXAMPLE, table_size=4.5), "table_size"),
    ('{"players": [], "time_limit_s": NaN}', "NaN is not a number"),
    (dict(EXAMPLE, time_limit_s=1e300), "time_limit_s"),
    (dict(EXAMPLE, players=[{"id": "a\u0000b"}] * 3), "control characters"),
    (dict(EXAMPLE, colour="red"), "unknown field"),
    (dict(EXAMPLE, sizes=[4, 4]), "add up to 8 seats"),
    (dict(EXAMPLE, pinned={"P01": 9}), "pinned to table 9"),
    ("[" * 100000, "nests too deeply"),
])
def test_contract_rejects_bad_input_with_one_line(payload, message):
    text = payload if isinstance(payload, str) else json.dumps(payload)
    code, out, err = run_main(text.encode("utf-8"))
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1 and message in err


def test_contract_rejects_bad_input_through_the_command():
    proc = run_cli("\ud800".encode("utf-8", "surrogatepass").decode("latin-1"))
    assert proc.returncode == 2
    assert proc.stderr.decode().count("\n") == 1
    assert b"Traceback" not in proc.stderr


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner, max_size=5),
    max_leaves=20)

players_field = st.lists(st.fixed_dictionaries(
    {"id": st.text(min_size=1, max_size=4)},
    optional={"club": st.none() | st.text(max_size=3), "rank": st.integers(-3, 30) | st.floats()}), max_size=14)

documents = st.fixed_dictionaries(
    {"players": players_field},
    optional={"method": st.sampled_from(["random", "seeded_top", "snake", "swiss", "greek", "fixed", "semifinal",
                                         "final", "bogus"]),
              "table_size": st.integers(2, 7), "seed": st.integers() | st.floats(), "rounds_left": st.integers(-1, 5),
              "time_limit_s": st.floats(0.01, 0.05) | st.floats(), "sizes": st.lists(st.integers(0, 8), max_size=4),
              "history": st.lists(st.lists(st.text(min_size=1, max_size=4), max_size=6), max_size=4),
              "fives": st.dictionaries(st.text(max_size=4), st.integers(-1, 3), max_size=3),
              "pinned": st.dictionaries(st.text(max_size=4), st.integers(-1, 4), max_size=2),
              "previous": st.lists(st.lists(st.text(min_size=1, max_size=4), max_size=5), max_size=3),
              "plan": st.lists(st.lists(st.text(min_size=1, max_size=4), max_size=6), max_size=4),
              "direct": st.integers(-1, 5), "qualifiers": st.integers(-1, 20), "finalina": json_values,
              "priorities": st.lists(st.sampled_from(["club", "repeat", "fives", "winners", "x"]), max_size=4),
              "draft": st.lists(st.lists(st.text(min_size=1, max_size=4), max_size=6), max_size=4),
              "extra": json_values})


def check_exit(code, out, err):
    if code == 0:
        doc = json.loads(out)
        assert set(doc) >= {"tables", "penalties", "seconds"}
        assert err == ""
    else:
        assert code == 2, err
        assert out == "" and err.count("\n") == 1 and err.startswith("seating: ")


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(documents)
def test_contract_survives_hostile_documents(doc):
    check_exit(*run_main(json.dumps(doc).encode("utf-8")))


@settings(max_examples=150, deadline=None)
@given(st.binary(max_size=60) | json_values.map(lambda v: json.dumps(v).encode()))
def test_contract_survives_junk_bytes(data):
    check_exit(*run_main(data))


@settings(max_examples=12, deadline=None)
@given(documents)
def test_command_survives_hostile_documents(doc):
    proc = run_cli(doc)
    check_exit(proc.returncode, proc.stdout.decode(), proc.stderr.decode())


def test_contract_reseats_a_draft():
    draft = [["P01", "P02", "P03", "P04"], ["P05", "P06", "P07", "P08"], ["P09", "P10", "P11", "P12"]]
    players = [{"id": f"P{i:02d}"} for i in range(1, 14)]
    doc = dict(EXAMPLE, players=players, history=[], fives={}, draft=draft)
    code, out, err = run_main(json.dumps(doc).encode())
    assert code == 0, err
    tables = json.loads(out)["tables"]
    # The newcomer joins a table; nobody of the draft moves.
    assert all(set(old) <= set(new) for old, new in zip(draft, tables))
    assert sorted(p for t in tables for p in t) == [f"P{i:02d}" for i in range(1, 14)]


class _Clock:
    """A clock that moves one second each time it is read."""

    def __init__(self):
        self.now, self.reads = 0.0, 0

    def perf_counter(self):
        self.now += 1.0
        self.reads += 1
        return self.now


def test_contract_stops_the_search_at_the_time_limit(monkeypatch):
    """The time limit only cuts the search short (speed itself is measured by bench/)."""
    clock, search_clock = _Clock(), _Clock()
    monkeypatch.setattr(context, "time", clock)
    monkeypatch.setattr(optimizer, "time", search_clock)
    players = [{"id": f"P{i:02d}"} for i in range(60)]
    history = [[f"P{(i * 7 + j * 13 + r) % 60:02d}" for j in range(4)] for r in range(30) for i in range(15)]
    history = [t for t in history if len(set(t)) == 4]
    doc = {"players": players, "history": history, "rounds_left": 8, "time_limit_s": 0.2}
    code, out, err = run_main(json.dumps(doc).encode())
    assert code == 0, err
    tables = json.loads(out)["tables"]
    assert sorted(p for t in tables for p in t) == [p["id"] for p in players]
    # Each search reads the clock once and finds its deadline gone: the plan and the polish, at most.
    assert 1 <= search_clock.reads <= 2


