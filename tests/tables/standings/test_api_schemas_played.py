"""Every /api/v1 answer of played tournaments follows its schema (docs/api/v1/): the demo's season (its
circuits, tournaments imported from workbooks), whole tournaments of the formats with phases played with
random results (eliminations, a final and its finalina, a knockout, Como, 2vs2 teams), a penalty, and a
national team championship's teams.json. Each kind of answer is seen at least once, so a schema that
describes none of the real documents fails here (tables.json's `eliminated` is the elimination order)."""
import io
import json
from decimal import Decimal
from pathlib import Path

import jsonschema
import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from circuits.models import Circuit
from tables.arbitration import services as arbitration
from tables.models import Round, Seat
from tests.phases.test_team_championship import championship, clubs, players  # noqa: F401 (fixtures)
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db
SCHEMAS = Path(__file__).resolve().parents[3] / "docs" / "api" / "v1"


def _schema(name):
    schema = json.loads((SCHEMAS / f"{name}.schema.json").read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    return schema


def _valid(client, url, name):
    response = client.get(url)
    assert response.status_code == 200, url
    data = response.json()
    try:
        jsonschema.validate(data, _schema(name), format_checker=jsonschema.FormatChecker())
    except jsonschema.ValidationError as exc:
        pytest.fail(f"{url} does not follow {name}.schema.json: {exc.message} at {list(exc.absolute_path)}")
    return data


def test_every_answer_of_played_tournaments_follows_its_schema():
    call_command("load_demo", stdout=io.StringIO())
    call_command("play_demo_formats", "--format=evenings_final", "--format=knockout_second_chance",
                 "--format=como", "--format=teams_2vs2", "--seed=7", stdout=io.StringIO())
    penalised = Seat.objects.filter(table_points__isnull=False, table__round__tournament__published=True).first()
    tournament = penalised.table.round.tournament
    arbitration.penalty_give(user=tournament.organiser, tournament=tournament, registration=penalised.registration,
                             kind="points", points=Decimal(3), reason="ritardo", seat=penalised)
    client = Client()
    seen = {"eliminated": 0, "finalRow": 0, "knockoutRow": 0, "rows": 0, "tables": 0, "players": 0,
            "circuits": 0, "teams.json": 0}
    for tournament in Tournament.objects.filter(published=True).order_by("pk"):
        for live in ("", "?live=1"):
            data = _valid(client, reverse("public:standings_json", args=[tournament.pk]) + live, "standings")
            seen["rows"] += len(data["rows"])
            seen["finalRow"] += sum("decided_by" in row for row in data["rows"])
            seen["knockoutRow"] += sum("phase" in row and "decided_by" not in row for row in data["rows"])
            _valid(client, reverse("public:championship_json", args=[tournament.pk]) + live, "teams")
            seen["teams.json"] += 1
        for number in Round.objects.filter(tournament=tournament).exclude(status="draft").values_list("number", flat=True):
            data = _valid(client, reverse("public:tables_json", args=[tournament.pk, number]), "tables")
            seen["tables"] += len(data["tables"])
            seen["eliminated"] += sum(bool(p.get("eliminated")) for t in data["tables"] for p in t["players"])
        for reg in tournament.registrations.order_by("pk")[:4]:
            _valid(client, reverse("public:player_json", args=[tournament.pk, reg.pk]), "player")
            seen["players"] += 1
    for circuit in Circuit.objects.order_by("pk"):
        _valid(client, reverse("public:circuit_json", args=[circuit.pk]), "circuit")
        seen["circuits"] += 1
    assert all(seen.values()), seen


def test_a_team_championships_teams_follow_their_schema(championship, tournament):  # noqa: F811
    for live in ("", "?live=1"):
        data = _valid(Client(), reverse("public:championship_json", args=[tournament.pk]) + live, "teams")
    assert len(data["teams"]) == 4 and all(len(team["players"]) == 4 for team in data["teams"])


def test_the_elimination_order_is_no_boolean():
    """What the schema said before (boolean or null) is refused: the order is a number from 1."""
    schema = _schema("tables")
    player = {"player": "Anna Bianchi", "club": "", "table_points": 0.0, "risiko": False, "eliminated": 2}
    document = {"round": 1, "status": "closed", "tables": [{"table": 1, "reported": True, "players": [player]}]}
    jsonschema.validate(document, schema)
    for wrong in (True, 0):
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate({**document, "tables": [{"table": 1, "reported": True,
                                                         "players": [{**player, "eliminated": wrong}]}]}, schema)
