"""`python -m scoring` (SCORING.md section 9): valid output with exit 0, or exit 2 with exactly one
line on stderr for any invalid input, never a traceback."""
import json
import os

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.__main__ import run

SETTINGS = settings(max_examples=int(os.environ.get("SCORING_EXAMPLES", 80)), deadline=None)

RUNNING = {"formula": "conversione150", "games": [{"round": 1, "table": 1, "players": [
    {"id": "A", "table_points": 62}, {"id": "B", "table_points": 48}, {"id": "C", "table_points": 30},
    {"id": "D", "table_points": 0, "eliminated": 1}]}]}


def assert_contract(code, out, err):
    """Exit 0 with a result document, or exit 2 with one line on stderr and nothing on stdout."""
    assert code in (0, 2)
    if code == 0:
        doc = json.loads(out)
        assert err == "" and isinstance(doc["games"], list) and isinstance(doc["standings"], list)
    else:
        assert out == ""
        assert err and len((err + "\n").splitlines()) == 1
        assert "Traceback" not in err


def test_cli_running_example(run_cli):
    code, out, err = run_cli(json.dumps(RUNNING))
    assert (code, err) == (0, "")
    assert json.loads(out) == {
        "games": [{"round": 1, "table": 1, "points": {"A": 150.14, "B": 86.0, "C": 60.0, "D": 10.0}}],
        "standings": [{"rank": 1, "player": "A", "total": 150.14}, {"rank": 2, "player": "B", "total": 86.0},
                      {"rank": 3, "player": "C", "total": 60.0}, {"rank": 4, "player": "D", "total": 10.0}]}


def test_cli_names_game_and_player_on_invalid_result(run_cli):
    doc = json.loads(json.dumps(RUNNING))
    doc["games"][0]["players"][1]["eliminated"] = 1
    code, out, err = run_cli(json.dumps(doc))
    assert (code, out, err) == (2, "", "round 1 table 1 player B: eliminated players hold 0 table points\n")


def test_cli_rejects_empty_document(run_cli):
    assert run_cli("") == (2, "", "empty input: expected a JSON object\n")


def test_cli_rejects_malformed_json(run_cli):
    assert run_cli('{"formula": ') == (2, "", "invalid JSON: Expecting value at line 1 column 13\n")


def test_cli_rejects_nan_and_infinity(run_cli):
    for constant in ("NaN", "Infinity", "-Infinity"):
        doc = json.dumps(RUNNING).replace("62", constant)
        assert run_cli(doc) == (2, "", f"invalid JSON: {constant} is not a valid number\n")


def test_cli_rejects_unknown_formula(run_cli):
    code, out, err = run_cli(json.dumps(dict(RUNNING, formula="conversione300")))
    assert (code, out) == (2, "")
    assert err.startswith("unknown formula 'conversione300' (known: punti_tavolo, ")


def test_cli_rejects_wrong_types(run_cli):
    doc = json.loads(json.dumps(RUNNING))
    doc["games"][0]["players"][0]["table_points"] = "62"
    assert run_cli(json.dumps(doc)) == (2, "", "round 1 table 1 player A: table points must be a number\n")
    assert run_cli(json.dumps(dict(RUNNING, games={}))) == (2, "", "games must be a list\n")
    assert run_cli(json.dumps(dict(RUNNING, params={"best_of": 0}))) == (
        2, "", "params: best_of must be empty or a whole number of at least 1\n")


def test_cli_rejects_huge_numbers(run_cli):
    doc = json.dumps(RUNNING).replace("62", "1e400")
    assert run_cli(doc) == (2, "", "round 1 table 1 player A: table points cannot exceed 200\n")
    code, out, err = run_cli(json.dumps(RUNNING).replace("62", "9" * 5000))
    assert code == 2 and err.startswith("invalid JSON: ") and err.count("\n") == 1


def test_cli_escapes_line_breaks_in_player_ids(run_cli):
    doc = json.loads(json.dumps(RUNNING))
    doc["games"][0]["players"][0]["id"] = "Zoë\nA"
    doc["games"][0]["players"][1]["id"] = "Zoë\nA"
    assert run_cli(json.dumps(doc)) == (2, "", "round 1 table 1 player Zoë\\nA: listed twice at the same table\n")


def test_cli_accepts_unicode_ids(run_cli):
    doc = json.loads(json.dumps(RUNNING))
    doc["games"][0]["players"][0]["id"] = "Niccolò 🎲"
    code, out, err = run_cli(json.dumps(doc, ensure_ascii=False))
    assert (code, err) == (0, "")
    assert json.loads(out)["standings"][0]["player"] == "Niccolò 🎲"


def test_cli_rejects_invalid_utf8(run_cli):
    assert run_cli(b'{"formula": "\xff"}') == (2, "", "invalid input: not UTF-8 text\n")


def test_cli_rejects_a_table_of_ten_thousand_players(run_cli):
    players = [{"id": f"P{i}", "table_points": i % 100} for i in range(10_000)]
    doc = {"formula": "standard", "games": [{"round": 1, "table": 1, "players": players}]}
    assert run_cli(json.dumps(doc)) == (2, "", "round 1 table 1: a table has 3 to 6 players, this one has 10000\n")


def test_cli_scores_ten_thousand_players_at_tables_of_four():
    games = [{"round": 1, "table": t + 1, "players": [
        {"id": f"P{4 * t + i:05d}", "table_points": (7 * t + 13 * i) % 100} for i in range(4)]}
        for t in range(2500)]
    code, out, err = run(json.dumps({"formula": "triestino", "games": games}).encode())
    assert (code, err) == (0, "")
    assert len(json.loads(out)["standings"]) == 10_000


def test_cli_accepts_optional_fields_as_null():
    doc = {"formula": "bonus50", "params": {"discard_worst": None, "best_of": None, "como_reference": None,
                                            "tiebreak": None, "bonus": None},
           "games": [{"round": 1, "table": 1, "players": [
               {"id": "A", "table_points": 62, "risiko": None, "eliminated": None, "place": None, "penalty": None},
               {"id": "B", "table_points": 48}, {"id": "C", "table_points": 30},
               {"id": "D", "eliminated": 1}]}]}
    code, out, err = run(json.dumps(doc).encode())
    assert (code, err) == (0, "")
    assert json.loads(out)["games"][0]["points"] == {"A": 112.0, "B": 48.0, "C": 30.0, "D": 0.0}


def test_cli_rejects_mixed_id_types():
    doc = json.loads(json.dumps(RUNNING))
    doc["games"][0]["players"][0]["id"] = 7
    assert run(json.dumps(doc).encode()) == (2, "", "player ids must be all strings or all whole numbers")


def test_cli_absences_count_as_zero():
    doc = dict(RUNNING, absences=[{"round": 2, "player": "E"}], params={"discard_worst": 0})
    code, out, err = run(json.dumps(doc).encode())
    assert json.loads(out)["standings"][-1] == {"rank": 5, "player": "E", "total": 0.0}


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True, allow_infinity=True) | st.text(),
    lambda children: st.lists(children, max_size=5) | st.dictionaries(st.text(max_size=12), children, max_size=5),
    max_leaves=20)


@SETTINGS
@given(value=json_values)
def test_cli_random_json_gives_result_or_one_line(value):
    assert_contract(*run(json.dumps(value).encode()))


PLAYER_FIELDS = ["id", "table_points", "risiko", "eliminated", "place", "penalty", "disqualified"]
DOC_FIELDS = ["formula", "params", "games"]
PARAM_FIELDS = ["discard_worst", "best_of", "como_reference", "tiebreak", "bonus", "spartaco_malus",
                "corrective_scope", "risiko_total", "spartaco_risiko_losers", "standard_eliminated"]
hostile_values = st.one_of(
    json_values, st.integers(-10**30, 10**30), st.sampled_from([-1, 0, 1, 2, 200, 200.01, 1e308, -0.0, 10**400]),
    st.text(alphabet=st.characters(), max_size=20))


@SETTINGS
@given(where=st.sampled_from(["doc", "params", "game", "player"]), data=st.data())
def test_cli_hostile_field_values_give_result_or_one_line(where, data):
    doc = json.loads(json.dumps(RUNNING))
    value = data.draw(hostile_values)
    if where == "doc":
        doc[data.draw(st.sampled_from(DOC_FIELDS))] = value
    elif where == "params":
        doc["params"] = {data.draw(st.sampled_from(PARAM_FIELDS)): value}
    elif where == "game":
        doc["games"][0][data.draw(st.sampled_from(["round", "table", "players"]))] = value
    else:
        player = data.draw(st.integers(0, 3))
        doc["games"][0]["players"][player][data.draw(st.sampled_from(PLAYER_FIELDS))] = value
    assert_contract(*run(json.dumps(doc).encode()))


@SETTINGS
@given(data=st.binary(max_size=200))
def test_cli_random_bytes_give_result_or_one_line(data):
    assert_contract(*run(data))


def test_cli_hostile_inputs_through_the_process(run_cli):
    for document in ["", "   ", "null", "[1, 2]", '"text"', '{"formula": "standard", "games": [1]}',
                     '{"formula": "standard", "games": [{"round": true, "table": 1, "players": []}]}',
                     "[" * 100_000]:
        code, out, err = run_cli(document)
        assert code == 2 and out == "" and err.count("\n") == 1 and "Traceback" not in err, (document[:50], err)
