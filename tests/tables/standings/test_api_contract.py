"""The public JSON's contract: versioned addresses (/api/v1/...), the shape documented as JSON Schema
(docs/api/v1/), and the addresses club websites were written for answering as before, marked deprecated
with the address that replaces them."""
import json
from pathlib import Path

import jsonschema
import pytest
from django.test import Client
from django.urls import reverse

from circuits.models import Circuit
from tests.factories import RegistrationFactory, report, seat_round

pytestmark = pytest.mark.django_db
SCHEMAS = Path(__file__).resolve().parents[3] / "docs" / "api" / "v1"


@pytest.fixture
def played(tournament):
    regs = [RegistrationFactory(tournament=tournament) for _ in range(8)]
    rnd = seat_round(tournament, [regs[:4], regs[4:]])
    report(rnd.tables.get(number=1), [(50,), (40,), (30,), (20,)])
    return tournament, regs


def _schema(name):
    schema = json.loads((SCHEMAS / f"{name}.schema.json").read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    return schema


@pytest.mark.parametrize("live", ["", "?live=1"])
def test_the_versioned_standings_follow_their_documented_schema(played, live):
    tournament, _regs = played
    url = reverse("public:standings_json", args=[tournament.pk])
    assert url == f"/api/v1/tournaments/{tournament.pk}/standings.json"
    data = Client().get(url + live).json()
    jsonschema.validate(data, _schema("standings"))
    assert len(data["rows"]) == (4 if live else 0)  # the reported table, live; nothing published yet


def test_the_versioned_tables_and_player_follow_their_documented_schemas(played):
    tournament, regs = played
    tables = Client().get(reverse("public:tables_json", args=[tournament.pk, 1])).json()
    jsonschema.validate(tables, _schema("tables"))
    assert [t["reported"] for t in tables["tables"]] == [True, False]
    player = Client().get(reverse("public:player_json", args=[tournament.pk, regs[0].pk])).json()
    jsonschema.validate(player, _schema("player"))


def test_a_row_the_schema_does_not_describe_is_refused_by_it():
    """The schema is strict: a renamed or missing field fails it (so a change of shape fails the tests)."""
    schema = _schema("standings")
    row = {"rank": 1, "player": "Anna Bianchi", "club": "", "total": 50.0, "rounds": [50.0]}
    jsonschema.validate({"status": "published", "after_round": 1, "decimals": 2, "rows": [row]}, schema)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"status": "published", "after_round": 1, "decimals": 2,
                             "rows": [{**row, "points": row.pop("total")}]}, schema)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate([row], schema)  # the shape before: a list


def test_the_old_addresses_answer_as_before_marked_deprecated(played, organiser):
    tournament, regs = played
    circuit = Circuit.objects.create(name="Circuito", season="2026", organiser=organiser)
    pairs = [
        (f"/api/tournaments/{tournament.pk}/standings.json", reverse("public:standings_json", args=[tournament.pk])),
        (f"/api/tournaments/{tournament.pk}/rounds/1/tables.json", reverse("public:tables_json", args=[tournament.pk, 1])),
        (f"/api/tournaments/{tournament.pk}/players/{regs[0].pk}.json",
         reverse("public:player_json", args=[tournament.pk, regs[0].pk])),
    ]
    pairs.append((f"/api/circuits/{circuit.pk}.json", reverse("public:circuit_json", args=[circuit.pk])))
    for old, new in pairs:
        assert new.startswith("/api/v1/")
        before, after = Client().get(old), Client().get(new)
        assert (before.status_code, before.json()) == (after.status_code, after.json()), old
        assert before["Deprecation"] == "@1795910400"  # 2026-11-29, RFC 9745
        assert before["Link"] == f'<{new}>; rel="successor-version"'
        assert "Deprecation" not in after
        assert before.get("Access-Control-Allow-Origin") == after.get("Access-Control-Allow-Origin")
        etag = before.get("ETag")
        if etag:  # a club website's conditional request: 304, still marked
            again = Client().get(old, headers={"If-None-Match": etag})
            assert again.status_code == 304 and again["Deprecation"] == "@1795910400"
