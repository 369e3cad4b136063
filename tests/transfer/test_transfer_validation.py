"""import_tournament checks whole objects as the forms and the scoring engine do: a file whose values
each fit their column but which no form would save (and every standings page would crash on) is
refused with its first error, exit code 2, nothing written."""
import io
import json

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.urls import reverse

from tables.models import Table
from tables.standings.selectors import tournament_standings
from tests.transfer.test_transfer import _counts, _empty_database, _export, _import, _rows, played  # noqa: F401
from tests.html import tr
from tournaments.accounts.services import grant_organiser
from tournaments.models import ClubRule, Tournament
from tournaments.rules import is_organiser


def _seat_index(document, *, survivor):
    """The index in the file of a seat at a reported table: a survivor with table points, or an
    eliminated player."""
    tables = {row["pk"]: row for row in _rows(document, "tables.table")}
    for i, row in enumerate(_rows(document, "tables.seat")):
        fields = row["fields"]
        if not tables[fields["table"]]["fields"]["reported_at"] or fields["firenze"] is not None:
            continue
        if survivor and fields["eliminated"] is None and not fields["risiko"] and float(fields["table_points"]) > 0:
            return i
        if not survivor and fields["eliminated"] is not None:
            return i
    raise AssertionError("no such seat")


def _refused(document, tmp_path):
    path = tmp_path / "t.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    _empty_database()
    before = _counts()
    with pytest.raises(CommandError) as exc:
        _import(path)
    assert _counts() == before
    assert exc.value.returncode == 2
    assert "\n" not in str(exc.value)
    return str(exc.value)


@pytest.fixture
def document(played):
    return json.loads(_export(played))


def test_import_refuses_an_unknown_tiebreak(document, tmp_path):
    _rows(document, "tournaments.tournament")[0]["fields"]["tiebreak"] = "foo,bar"
    assert _refused(document, tmp_path) == ("tournaments.tournament[0].tiebreak: unknown tie-break 'foo' "
                                            "(known: best_results, wins, table_points, head_to_head, previous_round)")


def test_import_refuses_a_tiebreak_listed_twice(document, tmp_path):
    _rows(document, "tournaments.tournament")[0]["fields"]["tiebreak"] = "wins,wins"
    assert _refused(document, tmp_path) == "tournaments.tournament[0].tiebreak: Each tie-break can appear only once."


def test_import_refuses_settings_the_tournament_form_refuses(document, tmp_path):
    fields = _rows(document, "tournaments.tournament")[0]["fields"]
    fields.update(start_date="2026-03-10", end_date="2026-03-01")
    assert _refused(document, tmp_path) == "tournaments.tournament[0].end_date: The end date is before the start date."


def test_import_refuses_an_elimination_order_of_99(document, tmp_path):
    i = _seat_index(document, survivor=False)
    _rows(document, "tables.seat")[i]["fields"]["eliminated"] = 99
    assert _refused(document, tmp_path) == (f"tables.seat[{i}].eliminated: elimination orders must run 1, 2, 3... "
                                            "without gaps or repeats")


def test_import_refuses_negative_table_points(document, tmp_path):
    i = _seat_index(document, survivor=True)
    _rows(document, "tables.seat")[i]["fields"]["table_points"] = "-5.00"
    assert _refused(document, tmp_path) == f"tables.seat[{i}].table_points: table points cannot be negative"


def test_import_refuses_a_place_beyond_the_table(document, tmp_path):
    i = _seat_index(document, survivor=True)
    _rows(document, "tables.seat")[i]["fields"]["place"] = 9
    assert _refused(document, tmp_path) == (f"tables.seat[{i}].place: the place must be a whole number from 1 "
                                            "to the number of players")


@pytest.mark.parametrize("section, field", [("players", "first_name"), ("players", "last_name"),
                                            ("clubs", "name")])
def test_import_refuses_names_given_as_lists(document, tmp_path, section, field):
    document[section][0]["fields"][field] = ["Marco", "Rossi"]
    assert _refused(document, tmp_path) == f"{section}[0].{field}: must be a string"


def test_import_refuses_a_tournament_name_given_as_a_list(document, tmp_path):
    _rows(document, "tournaments.tournament")[0]["fields"]["name"] = ["Torneo"]
    assert _refused(document, tmp_path) == "tournaments.tournament[0].name: must be a string"


def test_import_refuses_an_empty_username(document, tmp_path):
    document["users"][0]["username"] = ""
    assert _refused(document, tmp_path) == "users[0].username: cannot be empty"


def test_import_refuses_an_empty_player_name(document, tmp_path):
    document["players"][0]["fields"]["first_name"] = "   "
    assert _refused(document, tmp_path) == "players[0].first_name: cannot be empty"


def test_import_refuses_an_invented_organiser(document, tmp_path):
    document["users"].append({"username": "mallory", "organiser": True, "is_active": True})
    assert _refused(document, tmp_path) == "users[2]: user 'mallory' is named by no row of the file"
    assert not get_user_model().objects.filter(username="mallory").exists()


def test_import_refuses_an_organiser_flag_that_is_not_a_boolean(document, tmp_path):
    document["users"][1]["organiser"] = "yes"
    assert _refused(document, tmp_path) == "users[1].organiser: must be true or false"


def test_import_refuses_a_user_listed_twice(document, tmp_path):
    document["users"].append(dict(document["users"][0]))
    assert _refused(document, tmp_path) == f"users[2].username: {document['users'][0]['username']!r} appears twice"


def test_a_valid_file_still_imports_with_its_standings_and_roles(document, tmp_path):
    path = tmp_path / "t.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    _empty_database()
    call_command("import_tournament", str(path), stdout=io.StringIO())
    tournament = Tournament.objects.get()
    assert tournament_standings(tournament).rows
    assert Table.objects.filter(reported_at__isnull=False).exists()
    assert [u.username for u in get_user_model().objects.order_by("username") if is_organiser(u)] == ["olga"]


@pytest.mark.parametrize("value, message", [
    (["Atlantide"], "unknown territory 'Atlantide'"),
    ("Alaska", "must be a list of territory names"),
    (["Alaska", "alaska"], "a territory is listed twice"),
])
def test_import_refuses_territories_no_result_page_could_show(document, tmp_path, value, message):
    _rows(document, "tables.seat")[0]["fields"]["territories"] = value
    assert _refused(document, tmp_path) == f"tables.seat[0].territories: {message}"


def test_import_refuses_a_territory_held_by_two_players_of_a_table(document, tmp_path):
    seats = _rows(document, "tables.seat")
    first, second = [i for i, row in enumerate(seats) if row["fields"]["table"] == seats[0]["fields"]["table"]][:2]
    seats[first]["fields"]["territories"] = ["Alaska"]
    seats[second]["fields"]["territories"] = ["Alaska"]
    assert _refused(document, tmp_path) == f"tables.seat[{second}].territories: Alaska is ticked for two players " \
        "of the table"


@pytest.mark.parametrize("value", [[1, 2], {"armies": -1}, {"dice": 3}, {"armies": "many"}, {"lot": "yes"}])
def test_import_refuses_a_firenze_sheet_of_another_shape(document, tmp_path, value):
    _rows(document, "tables.seat")[0]["fields"]["firenze"] = value
    assert _refused(document, tmp_path).startswith("tables.seat[0].firenze: ")


def test_import_refuses_phase_settings_that_are_not_an_object(document, tmp_path):
    _rows(document, "tournaments.phase")[0]["fields"]["settings"] = ["cut", 8]
    assert _refused(document, tmp_path) == "tournaments.phase[0].settings: must be an object"


def test_a_knockout_decided_by_the_firenze_sheet_travels_whole(tournament, organiser, arbiter, client_for,
                                                              tmp_path):
    from phases import services as phase_services
    from tables.results import firenze
    from tables.models import Seat
    from tests.phases.helpers import players

    players(tournament, 12)
    phase_services.format_apply(user=organiser, tournament=tournament, preset="knockout")
    client = client_for(organiser)
    for action in ("draw", "publish"):
        client.post(reverse("manage:phase_action", args=[tournament.pk, 1, action]))
    table = tournament.rounds.get(number=1).tables.get(number=1)
    seats = list(table.seats.all())
    counts = {seat.pk: {"objective_territories": 5, "armies": 10} for seat in seats}
    firenze.firenze_sheet_submit(user=arbiter, table=table, counts=counts, version=table.version,
                                 lot_winner=seats[0].pk)
    sheets = sorted(Seat.objects.filter(firenze__isnull=False).values_list("firenze", flat=True), key=str)
    path = tmp_path / "t.json"
    path.write_text(_export(tournament), encoding="utf-8")
    _empty_database()
    _import(path)
    assert sorted(Seat.objects.filter(firenze__isnull=False).values_list("firenze", flat=True), key=str) == sheets
    assert any(sheet["lot"] for sheet in sheets)


ONE_ALPHABET = "Write the name in one alphabet: it mixes letters of different alphabets that look alike."


@pytest.mark.parametrize("name", ["first_name", "last_name", "nickname", "city"])
def test_import_refuses_a_player_name_mixing_alphabets_as_the_forms_do(document, tmp_path, name):
    document["players"][0]["fields"][name] = "M\u0430rco"  # a Cyrillic "а"
    assert _refused(document, tmp_path) == f"players[0].{name}: {ONE_ALPHABET}"


def test_import_stores_player_names_as_the_forms_do(document, tmp_path):
    document["players"][0]["fields"]["first_name"] = "\uff2d\uff41\uff52\uff43\uff4f\u200b"  # fullwidth, zero-width
    path = tmp_path / "t.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    _empty_database()
    _import(path)
    from tournaments.models import Player
    assert Player.objects.filter(first_name="Marco").exists()


def test_import_refuses_a_user_name_mixing_alphabets(document, tmp_path):
    document["users"][0]["username"] = "\u0430rbitro"
    assert _refused(document, tmp_path) == f"users[0].username: Write the user name in one alphabet: it mixes " \
                                           "letters of different alphabets that look alike."


def test_import_refuses_a_user_name_that_looks_like_another(document, tmp_path):
    document["users"][0]["username"] = "\u043e\u0440\u0430"  # "ора": all Cyrillic, looks like "opa"
    document["users"][1]["username"] = "opa"
    message = _refused(document, tmp_path)
    assert message == "users[1].username: The user name opa looks like one already taken: choose another one."


def test_import_refuses_a_tournament_naming_another_organisers_private_rule(document, tmp_path):
    path = tmp_path / "t.json"
    _empty_database()
    stranger = get_user_model().objects.create(username="straniero")
    grant_organiser(stranger)
    rule = ClubRule.objects.create(key="r999", owner=stranger, name="Regola privata", document={
        "schema": "torneo.rule/1", "name": "Regola privata", "formula": "standard"})
    _rows(document, "tournaments.tournament")[0]["fields"]["club_preset"] = rule.key
    path.write_text(json.dumps(document), encoding="utf-8")
    before = _counts()
    with pytest.raises(CommandError) as exc:
        _import(path)
    assert _counts() == before and exc.value.returncode == 2
    assert str(exc.value) == "tournaments.tournament[0].club_preset: " + tr(
        "No club rule “%(key)s” is published or yours.", key=rule.key)
