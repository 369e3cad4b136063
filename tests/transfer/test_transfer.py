"""export_tournament / import_tournament: a round trip through an emptied database changes nothing.

Runs on whichever database the suite uses (SQLite by default, PostgreSQL with DATABASE_URL)."""
import io
import json
import os
import random
import subprocess
import sys
from decimal import Decimal
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.db import connection, transaction
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from tables.arbitration import services as arbitration
from tables.arbitration import services as team_arbitration
from tables.results import services as results
from tables.rounds import services
from tables.models import Dispute, Penalty, Round, Seat, Table, TeamDispute, TeamPenalty
from tables.standings.selectors import formulas_compared
from tests.factories import ClubFactory, PlayerFactory, RegistrationFactory, seat_round
from tournaments.teams import services as teams
from tournaments.models import AuditLog, Club, Formula, Phase, Player, Registration, Tournament
from tournaments.rules import is_organiser
from transfer.owned import owned_models

ROOT = Path(__file__).resolve().parent.parent.parent


def _random_result(rng, table):
    """A valid result: ties, RisiKo!, eliminations in order."""
    seats = list(table.seats.order_by("position"))
    eliminated = rng.choice([0, 0, 1, 2])
    order = list(range(1, eliminated + 1))
    rng.shuffle(order)
    risiko = rng.random() < 0.2
    lines = []
    for i, seat in enumerate(seats):
        if i >= len(seats) - eliminated:
            lines.append(results.ResultLine(seat_id=seat.pk, table_points=Decimal(0), eliminated=order.pop()))
        else:
            tp = Decimal(rng.choice(["12", "20", "20", "35.5", "48", "62"]))
            lines.append(results.ResultLine(seat_id=seat.pk, table_points=tp, risiko=risiko and i == 0))
    return lines


@pytest.fixture
def played(tournament, organiser, arbiter):
    """Three rounds of 13 players (tables of 5, 4 and 4), a correction, penalties of every kind,
    an upheld and an open dispute, a phase, published standings."""
    tournament.discard_worst = 1
    tournament.como_reference = 4
    tournament.tiebreak = "best_results,wins,table_points"
    tournament.save()
    Phase.objects.create(tournament=tournament, order=1, name="Qualificazioni", rounds=3,
                         settings={"cut": 8, "note": "àèìòù"})
    club = ClubFactory(name="Club Lariano")
    regs = [RegistrationFactory(tournament=tournament, player__club=club if i % 3 else ClubFactory())
            for i in range(12)]
    regs.append(RegistrationFactory(tournament=tournament, player=PlayerFactory(club=None, nickname="Kamchatka")))
    rng = random.Random(20260124)
    for number in (1, 2, 3):
        rng.shuffle(regs)
        rnd = seat_round(tournament, [regs[:5], regs[5:9], regs[9:]], number=number)
        for table in rnd.tables.order_by("number"):
            results.table_result_submit(user=arbiter, table=table, lines=_random_result(rng, table),
                                         version=table.version)
        if number < 3:
            services.round_close(user=organiser, rnd=rnd)
    services.standings_publish(user=organiser, rnd=Round.objects.get(tournament=tournament, number=1))
    first = Table.objects.get(round__tournament=tournament, round__number=1, number=1)
    dispute = arbitration.dispute_record(user=arbiter, tournament=tournament, about=Dispute.About.RESULT,
                                         raised_by="Capotavolo", text="Punti sbagliati", table=first)
    results.table_result_submit(user=arbiter, table=first, lines=_random_result(rng, first), version=first.version)
    arbitration.dispute_decide(user=arbiter, dispute=dispute, state=Dispute.State.UPHELD, decision="Corretto")
    seats = list(Seat.objects.filter(table__round__tournament=tournament).order_by("pk"))
    give = arbitration.penalty_give
    give(user=arbiter, tournament=tournament, registration=seats[0].registration, kind="points",
         points=Decimal("3.5"), seat=seats[0], reason="Armate oltre 130")
    give(user=arbiter, tournament=tournament, registration=seats[1].registration, kind="points",
         points=Decimal("10"), reason="Ritardo")
    give(user=arbiter, tournament=tournament, registration=seats[2].registration, kind="forfeit",
         seat=seats[2], reason="Assente")
    give(user=arbiter, tournament=tournament, registration=seats[3].registration, kind="game_dq",
         seat=seats[3], reason="Scorrettezza")
    warning = give(user=arbiter, tournament=tournament, registration=seats[4].registration, kind="warning",
                   seat=seats[4], reason="Dadi")
    arbitration.penalty_withdraw(user=organiser, penalty=warning, reason="Errore")
    give(user=arbiter, tournament=tournament, registration=seats[5].registration, kind="expulsion",
         reason="Condotta", void_past_results=True)
    arbitration.dispute_record(user=arbiter, tournament=tournament, about=Dispute.About.PENALTY,
                               raised_by="Giocatore", text="Ingiusta", penalty=Penalty.objects.first())
    return tournament


def _standings(tournament):
    """Every formula, live and published-only, as plain values."""
    out = {}
    for published_only in (False, True):
        compared = formulas_compared(tournament, Formula.values, published_only=published_only)
        for formula, reason in compared.refused.items():   # maialino_2024 and a tie for first
            out[(formula, published_only)] = reason
        for formula, s in compared.standings.items():
            out[(formula, published_only)] = (s.round_numbers, s.provisional, [
                (r.rank, r.registration_id, r.player.first_name, r.player.last_name, r.player.nickname, r.club,
                 r.total, r.rounds, r.wins, r.medals) for r in s.rows])
    return out


def _snapshot(tournament):
    return {
        "standings": _standings(tournament),
        "counts": {m._meta.label_lower: m._base_manager.count() for m in owned_models()},
        "audit": list(AuditLog.objects.filter(tournament=tournament).order_by("pk").values_list(
            "pk", "action", "object_type", "object_id", "user__username", "player__last_name", "table_label",
            "before", "after", "created_at")),
        "arbiters": sorted(tournament.arbiters.values_list("username", flat=True)),
        "organiser": tournament.organiser.username,
        "corrections": list(Dispute.objects.order_by("pk").values_list("pk", "state", "correction__action",
                                                                       "raised_at")),
        "registrations": list(Registration.objects.order_by("pk").values_list(
            "pk", "player__first_name", "player__club__name", "status", "created_at")),
    }


def _imported(tournament):
    """The snapshot of an imported tournament less its last log entry, which must be the import's."""
    snap = _snapshot(tournament)
    *kept, last = snap["audit"]
    assert last[1:3] == ("tournament.import", "tournament")
    snap["audit"] = kept
    snap["counts"]["tournaments.auditlog"] -= 1
    return snap


def _export(tournament):
    out = io.StringIO()
    call_command("export_tournament", tournament.pk, stdout=out)
    return out.getvalue()


def _import(path):
    call_command("import_tournament", str(path), stdout=io.StringIO())
    # The test never commits: check the foreign keys now, as a commit would.
    connection.check_constraints()


def _empty_database():
    # PostgreSQL refuses to truncate tables with foreign key checks pending: run them first.
    connection.check_constraints()
    # AuditLog refuses deletes through the ORM: flush empties every table with SQL.
    call_command("flush", interactive=False, verbosity=0)


def test_round_trip_keeps_standings_under_every_formula(played, tmp_path):
    before = _snapshot(played)
    assert {s for s, _p in before["standings"]} == set(Formula.values)
    assert before["counts"]["tables.penalty"] == 6
    path = tmp_path / "t.json"
    path.write_text(_export(played), encoding="utf-8")
    _empty_database()
    assert (Tournament.objects.count(), get_user_model().objects.count(), Player.objects.count()) == (0, 0, 0)
    _import(path)
    tournament = Tournament.objects.get()
    assert _imported(tournament) == before


def test_the_import_is_logged_once_naming_who_from_what_file_and_what_it_created(played, tmp_path):
    entries = AuditLog.objects.filter(tournament=played).count()
    path = tmp_path / "serata.json"
    path.write_text(_export(played), encoding="utf-8")
    _empty_database()
    User = get_user_model()
    User.objects.create_user("archivio")
    Club.objects.create(name="CLUB LARIANO", city="Como")  # in the file too: matched, not created
    in_file = {club["fields"]["name"] for club in json.loads(path.read_text(encoding="utf-8"))["clubs"]}
    assert "Club Lariano" in in_file
    call_command("import_tournament", str(path), "--user", "archivio", stdout=io.StringIO())
    connection.check_constraints()
    tournament = Tournament.objects.get()
    entry = AuditLog.objects.get(action="tournament.import")
    assert (entry.tournament, entry.user.username, entry.object_type, entry.object_id, entry.before) == \
        (tournament, "archivio", "tournament", str(tournament.pk), None)
    after = dict(entry.after)
    assert sorted(after.pop("clubs_created")) == sorted(in_file - {"Club Lariano"})
    assert after == {
        "file": "serata.json", "name": tournament.name, "rounds": 3, "registrations": 13,
        "log_entries": entries, "users_created": ["olga", "arturo"], "organisers": ["olga"],
        "players_created": Player.objects.count()}


def test_an_import_by_an_unknown_user_exits_2_and_writes_nothing(played, tmp_path):
    path = tmp_path / "t.json"
    path.write_text(_export(played), encoding="utf-8")
    _empty_database()
    with pytest.raises(CommandError) as exc:
        call_command("import_tournament", str(path), "--user", "nessuno", stdout=io.StringIO())
    assert (exc.value.returncode, str(exc.value)) == (2, "--user nessuno: no such account")
    assert (Tournament.objects.count(), AuditLog.objects.count()) == (0, 0)


def test_imported_users_have_no_usable_password_and_keep_the_organiser_role(played, tmp_path):
    path = tmp_path / "t.json"
    path.write_text(_export(played), encoding="utf-8")
    _empty_database()
    _import(path)
    users = {u.username: u for u in get_user_model().objects.all()}
    assert sorted(users) == ["arturo", "olga"]
    assert [u.has_usable_password() for u in users.values()] == [False, False]
    assert (is_organiser(users["olga"]), is_organiser(users["arturo"])) == (True, False)


def test_import_matches_existing_club_and_player_by_natural_key(tournament, tmp_path):
    reg = RegistrationFactory(tournament=tournament, player__first_name="Marco", player__last_name="Rossi",
                              player__club__name="Carri Armati")
    path = tmp_path / "t.json"
    path.write_text(_export(tournament), encoding="utf-8")
    _empty_database()
    club = Club.objects.create(name="CARRI ARMATI", city="Milano")
    player = Player.objects.create(first_name="marco", last_name="ROSSI", club=club)
    _import(path)
    assert list(Club.objects.values_list("pk", flat=True)) == [club.pk]
    assert list(Registration.objects.values_list("pk", "player_id")) == [(reg.pk, player.pk)]


def test_import_refuses_a_database_that_holds_the_tournament(played, tmp_path):
    path = tmp_path / "t.json"
    path.write_text(_export(played), encoding="utf-8")
    with pytest.raises(CommandError) as exc:
        _import(path)
    assert exc.value.returncode == 2
    assert str(exc.value) == f"the database already holds tournaments.tournament {played.pk}: " \
        "import into an empty database"


def _counts():
    return [m._base_manager.count() for m in (get_user_model(), Club, Player, *owned_models())]


def _last(document, label):
    return len(_rows(document, label)) - 1


@pytest.mark.parametrize("breakage, message", [
    (lambda d: _rows(d, "tournaments.auditlog")[-1]["fields"].update(created_at="yesterday"),
     lambda d: f"tournaments.auditlog[{_last(d, 'tournaments.auditlog')}].created_at: “yesterday” value has an "
               "invalid format. It must be in YYYY-MM-DD HH:MM[:ss[.uuuuuu]][TZ] format."),
    (lambda d: _rows(d, "tables.seat")[-1]["fields"].update(table=999999),
     lambda d: f"tables.seat[{_last(d, 'tables.seat')}].table: tables.table 999999 is not in the file"),
    (lambda d: _rows(d, "tables.penalty")[-1]["fields"].update(kind="flogging"),
     lambda d: f"tables.penalty[{_last(d, 'tables.penalty')}].kind: 'flogging' is not one of the choices"),
    (lambda d: _rows(d, "tables.seat")[-1]["fields"].update(colour="blue"),
     lambda d: f"tables.seat[{_last(d, 'tables.seat')}]: tables.seat has no field 'colour'"),
    (lambda d: d["models"].append({"model": "tables.dice", "rows": []}),
     lambda d: "model 'tables.dice' does not exist in this version of Torneo"),
])
def test_bad_file_writes_nothing_and_says_why(played, tmp_path, breakage, message):
    document = json.loads(_export(played))
    breakage(document)
    path = tmp_path / "t.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    _empty_database()
    before = _counts()
    with pytest.raises(CommandError) as exc:
        _import(path)
    assert (exc.value.returncode, str(exc.value)) == (2, message(document))
    assert _counts() == before


def _rows(document, label):
    return next(s["rows"] for s in document["models"] if s["model"] == label)


@pytest.mark.parametrize("content, message", [
    ("{", "CommandError: {path} is not valid JSON: Expecting property name enclosed in double quotes: "
          "line 1 column 2 (char 1)"),
    ("[1, 2]", "CommandError: the file must be an object"),
    ('{"format": "torneo.tournament", "version": 7}',
     "CommandError: export version 7 is not supported (expected 1)"),
])
def test_bad_file_exits_2_with_one_line_on_stderr(tmp_path, content, message):
    path = tmp_path / "t.json"
    path.write_text(content, encoding="utf-8")
    # A throwaway database: the command runs in its own process, outside the test database.
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path / 'scratch.db'}"}
    proc = subprocess.run([sys.executable, "manage.py", "import_tournament", str(path)], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)
    assert (proc.returncode, proc.stdout) == (2, "")
    assert proc.stderr.splitlines() == [message.format(path=path)]


def test_export_of_a_missing_tournament_exits_2(db):
    with pytest.raises(CommandError) as exc:
        call_command("export_tournament", 424242, stdout=io.StringIO())
    assert (exc.value.returncode, str(exc.value)) == (2, "no tournament 424242")


JSON_VALUES = st.one_of(st.none(), st.booleans(), st.integers(min_value=-2 ** 70, max_value=2 ** 70),
                        st.floats(), st.text(max_size=30), st.lists(st.integers(), max_size=2),
                        st.dictionaries(st.text(max_size=4), st.integers(), max_size=2))


def _paths(node, prefix=()):
    yield prefix
    if isinstance(node, dict):
        for key, value in node.items():
            yield from _paths(value, prefix + (key,))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _paths(value, prefix + (i,))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_damaged_file_is_imported_whole_or_refused_with_code_2(played, tmp_path, data):
    document = json.loads(_export(played))
    paths = [p for p in _paths(document) if p]
    path = data.draw(st.sampled_from(paths))
    parent = document
    for key in path[:-1]:
        parent = parent[key]
    if data.draw(st.booleans()) and isinstance(parent, dict):
        del parent[path[-1]]
    else:
        parent[path[-1]] = data.draw(JSON_VALUES)
    file = tmp_path / "t.json"
    file.write_text(json.dumps(document), encoding="utf-8")
    with transaction.atomic():
        _empty_database()
        before = _counts()
        try:
            _import(file)
        except CommandError as exc:
            assert exc.returncode == 2
            event("refused")
            assert "\n" not in str(exc)
            assert _counts() == before
        else:
            assert Tournament.objects.count() == 1
            event("imported")
        transaction.set_rollback(True)


LONG_HOME, LONG_AWAY = "I Carrarmati di Valtellina", "Gli Invincibili del Lario"


@pytest.fixture
def long_team_names(tournament, organiser):
    """A 2vs2 tournament whose two teams have long names and a reported match."""
    regs = [RegistrationFactory(tournament=tournament) for _ in range(4)]
    for name, members in ((LONG_HOME, regs[:2]), (LONG_AWAY, regs[2:])):
        teams.team_create(user=organiser, tournament=tournament, name=name, registrations=members,
                          captain=members[0])
    teams.schedule_create(user=organiser, tournament=tournament)
    match = tournament.team_matches.select_related("home", "away").get()
    teams.match_result_submit(user=organiser, match=match, ending="wipeout", decided_by=match.home,
                              territories=(30, 0), best=(16, 0), version=match.version)
    return tournament


def test_round_trip_keeps_a_2vs2_match_of_teams_with_long_names(long_team_names, tmp_path):
    entry = AuditLog.objects.get(action="team.result")
    assert entry.table_label == f"1: {LONG_HOME} - {LONG_AWAY}"
    before = _snapshot(long_team_names)
    path = tmp_path / "t.json"
    path.write_text(_export(long_team_names), encoding="utf-8")
    _empty_database()
    _import(path)
    assert _imported(Tournament.objects.get()) == before
    assert AuditLog.objects.get(action="team.result").table_label == f"1: {LONG_HOME} - {LONG_AWAY}"


@pytest.mark.parametrize("labels", ["today", "before_the_move"])
def test_round_trip_carries_team_penalties_and_disputes(long_team_names, organiser, arbiter, tmp_path, labels):
    """A 2vs2 tournament's penalties and disputes travel; a file exported while they were in the
    tournaments app (labels tournaments.teampenalty, tournaments.teamdispute) is still read."""
    tournament, team = long_team_names, long_team_names.teams.order_by("pk").first()
    penalty = team_arbitration.team_penalty_give(user=organiser, tournament=tournament, team=team, points=2,
                                                 reason="Ritardo", day=1)
    team_arbitration.team_dispute_record(user=arbiter, tournament=tournament, about="penalty", raised_by="Capitano",
                                         text="Il ritardo era giustificato", penalty=penalty)
    before = _snapshot(tournament)
    assert (before["counts"]["tables.teampenalty"], before["counts"]["tables.teamdispute"]) == (1, 1)
    text = _export(tournament)
    data = json.loads(text)
    sections = {section["model"] for section in data["models"]}
    assert {"tables.teampenalty", "tables.teamdispute"} <= sections
    if labels == "before_the_move":
        for section in data["models"]:
            section["model"] = section["model"].replace("tables.team", "tournaments.team")
        text = json.dumps(data)
    path = tmp_path / "t.json"
    path.write_text(text, encoding="utf-8")
    _empty_database()
    _import(path)
    assert _imported(Tournament.objects.get()) == before
    assert list(TeamPenalty.objects.values_list("team__name", "day", "points", "reason", "withdrawn")) == [
        (team.name, 1, 2, "Ritardo", False)]
    assert list(TeamDispute.objects.values_list("about", "day", "penalty__reason", "raised_by", "state")) == [
        ("penalty", 1, "Ritardo", "Capitano", "open")]
