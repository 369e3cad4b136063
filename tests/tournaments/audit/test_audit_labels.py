"""The audit log reads in words: every action written by the code has a label, every field a name, and
before → after is a small table of the fields that changed."""
import ast
from pathlib import Path

import pytest
from django.urls import reverse
from django.utils import translation

from tables.models import Dispute, Penalty, TeamDispute
from tests.factories import RegistrationFactory, seat_round
from tournaments.audit.labels import ACTION_LABELS, FIELD_LABELS, diff_rows, value_text

ROOT = Path(__file__).resolve().parents[3]
SKIP = {".venv", "tests", "migrations", "bench", "node_modules"}
# The f-string actions of the code: the prefix and every value its placeholder takes.
DYNAMIC = {
    "penalty.": list(Penalty.Kind.values),
    "dispute.": [s for s in Dispute.State.values if s != Dispute.State.OPEN],
    "team.dispute.": [s for s in TeamDispute.State.values if s != TeamDispute.State.OPEN],
}


def _sources():
    for path in sorted(ROOT.rglob("*.py")):
        if not SKIP.intersection(path.relative_to(ROOT).parts):
            yield path, ast.parse(path.read_text(encoding="utf-8"))


def _literals(node):
    """The strings an expression can be: a constant, either branch of `a if c else b`."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.IfExp):
        return _literals(node.body) + _literals(node.orelse)
    return []


def actions_written():
    """Every audit action key the code names: `action=` arguments (literals, both branches of a
    conditional, f-strings expanded by DYNAMIC) and the registration changes' `action_name=`."""
    found, unknown = {}, []
    for path, tree in _sources():
        for call in (n for n in ast.walk(tree) if isinstance(n, ast.Call)):
            if isinstance(call.func, ast.Attribute) and call.func.attr == "add_argument":
                continue  # argparse's action=
            for kw in call.keywords:
                where = f"{path.relative_to(ROOT)}:{call.lineno}"
                if kw.arg == "action":
                    if isinstance(kw.value, ast.JoinedStr):
                        prefix = "".join(v.value for v in kw.value.values if isinstance(v, ast.Constant))
                        if prefix.startswith("registration."):
                            continue  # expanded from action_name= below
                        if prefix not in DYNAMIC:
                            unknown.append(f"{where}: {ast.unparse(kw.value)}")
                            continue
                        found.update({prefix + value: where for value in DYNAMIC[prefix]})
                    found.update({key: where for key in _literals(kw.value)})
                elif kw.arg == "action_name":
                    found.update({f"registration.{key}": where for key in _literals(kw.value)})
    return found, unknown


def fields_written():
    """The fields of the snapshots (`*_FIELDS` tuples) and the keys of the before/after dicts."""
    fields = {}
    for path, tree in _sources():
        for node in ast.walk(tree):
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.Tuple) and any(
                    isinstance(t, ast.Name) and t.id.endswith("_FIELDS") for t in node.targets):
                fields.update({e.value: str(path) for e in node.value.elts if isinstance(e, ast.Constant)})
            if isinstance(node, ast.Call) and any(kw.arg == "action" for kw in node.keywords):
                for kw in node.keywords:
                    if kw.arg in ("before", "after"):
                        for d in (n for n in ast.walk(kw.value) if isinstance(n, ast.Dict)):
                            fields.update({k.value: str(path) for k in d.keys if isinstance(k, ast.Constant)})
    return fields


def test_every_action_written_by_the_code_has_a_label():
    found, unknown = actions_written()
    assert unknown == [], "an f-string action the test cannot expand: add its values to DYNAMIC"
    # the scan reaches the services (it cannot pass by finding nothing)
    assert {"player.merge", "player.delete", "club.delete", "round.delete", "registration.reject",
            "user.organiser_role", "tournament.arbiter_account", "tournament.arbiter_link", "team.lineup",
            "endroll.out", "result.firenze", "penalty.game_dq", "team.dispute.upheld",
            "tournament.import"} <= set(found)
    missing = sorted(f"{key} ({where})" for key, where in found.items() if key not in ACTION_LABELS)
    assert missing == []


def test_every_field_of_the_log_has_a_name():
    missing = sorted(name for name in fields_written() if name not in FIELD_LABELS)
    assert missing == []


def test_a_change_shows_the_fields_that_changed_and_who_it_is_about():
    columns, rows = diff_rows({"username": "anna", "organiser": False}, {"username": "anna", "organiser": True})
    assert (columns, rows) == (("before", "after"), [("username", ["anna", "anna"]), ("organiser", ["no", "yes"])])
    _columns, rows = diff_rows({"name": "A", "city": "Como", "fee_paid": False},
                               {"name": "A", "city": "Lecco", "fee_paid": False})
    assert rows == [("city", ["Como", "Lecco"])]
    _columns, rows = diff_rows({"name": "A"}, {"name": "A"})
    assert rows == [("name", ["A", "A"])]


def test_a_creation_and_a_deletion_show_one_column():
    assert diff_rows(None, {"status": "confirmed"}) == (("after",), [("status", ["confirmed"])])
    assert diff_rows({"name": "Club X", "id": 7}, None) == (("before",), [("name", ["Club X"]), ("number", ["7"])])
    assert diff_rows(None, None) == ((), [])
    assert diff_rows(None, 5) == (("after",), [("value", ["5"])])


def test_values_read_as_words():
    assert value_text(None) == "—"
    assert value_text("game_dq", "kind") == "disqualification from the game"
    assert value_text([["Anna Rossi", "Bruno Bianchi"], ["Carla Verdi"]], "tables") == \
        "1. Anna Rossi, Bruno Bianchi\n2. Carla Verdi"
    assert value_text({"round": 2, "present": True}) == "round: 2; present: yes"


def test_stored_keys_read_as_the_pages_name_them_in_the_readers_language():
    from tournaments.models import SEATING_METHODS
    with translation.override("it"):
        assert value_text("Final", "phase") == translation.gettext("Final") != "Final"
        assert value_text(["Semifinals", "Final"], "phases") == ", ".join(
            [translation.gettext("Semifinals"), translation.gettext("Final")])
        assert value_text("random", "method") == str(dict(SEATING_METHODS)["random"]) != "random"
        assert value_text("fixed", "method") not in ("fixed", str(dict(SEATING_METHODS)["fixed"]))
        assert value_text("best_results,previous_round", "tiebreak") == ", ".join(
            [translation.gettext("Best single results"), translation.gettext("Standing after the previous round")])
        assert value_text("millesimi", "formula") == translation.gettext("Thousandths (Master)")
        assert value_text("lariana", "end_roll_variant") != "lariana"
        assert value_text("Rossi", "name") == "Rossi"       # a name is never read as a key
    for field, key in [("method", "fixed"), ("format_preset", "raduno"), ("formula", "bonus50"),
                       ("corrective_scope", "score"), ("standard_eliminated", "order")]:
        with translation.override("it"):
            assert value_text(key, field) != key, field


def test_points_are_written_as_the_language_writes_them():
    with translation.override("it"):
        assert (value_text("62.5", "table_points"), value_text("1.0.3"), value_text("Rossi 1.5")) == \
            ("62,5", "1.0.3", "Rossi 1.5")
    with translation.override("en"):
        assert value_text("62.5", "table_points") == "62.5"
    with translation.override("it"):   # with the decimals they have: never "12,00"
        assert (value_text("12.00", "table_points"), value_text("62.50"), value_text("120.00")) == ("12", "62,5", "120")


@pytest.mark.django_db
def test_the_log_page_reads_in_italian(client, organiser, tournament):
    regs = [RegistrationFactory(tournament=tournament) for _ in range(4)]
    seat_round(tournament, [regs])
    from tournaments import services
    services.registration_set_fee_paid(user=organiser, registration=regs[0], paid=True)
    client.force_login(organiser)
    body = client.get(reverse("manage:audit_log", args=[tournament.pk]),
                      HTTP_ACCEPT_LANGUAGE="it").content.decode()
    text = " ".join(body.split())
    assert "Quota pagata modificata" in text
    assert "<th scope=\"row\">quota pagata</th><td>no</td><td>sì</td>" in text
    assert "<th scope=\"col\">prima</th><th scope=\"col\">dopo</th>" in text
    assert "registration.fee" not in text
    assert "fee_paid" not in text
