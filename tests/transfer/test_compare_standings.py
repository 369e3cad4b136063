"""compare_standings: every tournament's standings under every formula, here and in another database
(a restored backup); exit 0 when equal, 2 with one line naming the first difference. The two databases
of a real run are compared by `make restore-check` (.ci/run)."""
import io
import json

import pytest
from django.core.management import CommandError, call_command

from tables.models import Seat
from tests.factories import RegistrationFactory, report, seat_round
from transfer import compare
from transfer.management.commands import compare_standings
from tournaments.models import Formula

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(tournament):
    regs = [RegistrationFactory(tournament=tournament) for _ in range(4)]
    rnd = seat_round(tournament, [regs])
    report(rnd.tables.get(), [(62,), (48,), (30,), (0,)])
    return tournament


def _compare_with(monkeypatch, other):
    monkeypatch.setattr(compare_standings, "other_snapshot", lambda url: other)
    out = io.StringIO()
    call_command("compare_standings", other_database_url="postgres://elsewhere/torneo", stdout=out)
    return out.getvalue().strip()


def test_the_snapshot_holds_every_formula_live_and_published(played):
    snapshot = compare.standings_snapshot()
    entry = snapshot[f"tournament {played.pk}"]
    assert set(entry) == {"name", *Formula.values, *(f + compare.PUBLISHED for f in Formula.values)}
    rows = entry[played.formula]["rows"]
    assert [row["rank"] for row in rows] == [1, 2, 3, 4]
    assert all(isinstance(row["total"], str) for row in rows)  # decimals as text, as JSON gives them back
    assert compare.plain(snapshot) == snapshot


def test_equal_standings_exit_0(played, monkeypatch):
    assert _compare_with(monkeypatch, compare.standings_snapshot()) == "standings equal: 1 tournament, 28 standings compared"


def test_a_different_result_is_named_in_one_line(played, monkeypatch):
    other = compare.standings_snapshot()
    seat = Seat.objects.filter(table__round__tournament=played).order_by("position").first()
    Seat.objects.filter(pk=seat.pk).update(table_points=60)  # the live database changed after the backup
    with pytest.raises(CommandError) as error:
        _compare_with(monkeypatch, other)
    assert error.value.returncode == 2
    message = str(error.value)
    first = compare.standings_snapshot()[f"tournament {played.pk}"][Formula.values[0]]["rows"][0]
    assert message.splitlines() == [message]
    assert message.startswith(f"standings differ: tournament {played.pk} «Torneo di prova», {Formula.values[0]}, "
                              f"row 1 ({first['player']}), total: ")


def test_a_tournament_missing_from_the_other_database(played, monkeypatch):
    other = compare.standings_snapshot()
    del other[f"tournament {played.pk}"]
    with pytest.raises(CommandError, match=f"tournament {played.pk} «Torneo di prova»: only in this database"):
        _compare_with(monkeypatch, other)


def test_first_difference():
    here = {"tournament 1": {"name": "A", "vittorie": {"rows": [{"player": "Ada", "total": "3"}], "provisional": False}}}
    assert compare.first_difference(here, json.loads(json.dumps(here))) is None
    other = {"tournament 1": {"name": "A", "vittorie": {"rows": [], "provisional": False}}}
    assert compare.first_difference(here, other) == "tournament 1 «A», vittorie, rows: 1 here, 0 in the other database"
    other = {"tournament 1": {"name": "A", "vittorie": {"rows": [{"player": "Ada", "total": "3"}], "provisional": True}}}
    assert compare.first_difference(here, other) == ("tournament 1 «A», vittorie, provisional: False here, True in the "
                                                     "other database")
    assert compare.first_difference({}, here) == "tournament 1 «A»: only in the other database"


def test_print_snapshot_writes_the_databases_standings_as_json(played):
    out = io.StringIO()
    call_command("compare_standings", print_snapshot=True, stdout=out)
    assert json.loads(out.getvalue()) == compare.standings_snapshot()


def test_another_database_that_cannot_be_read_is_named(tmp_path):
    """The other database is read by the command in a process of its own: an empty file has no tables."""
    with pytest.raises(CommandError, match="^cannot read the other database: .*no such table") as error:
        compare_standings.other_snapshot(f"sqlite:///{tmp_path / 'empty.sqlite3'}")
    assert error.value.returncode == 2
