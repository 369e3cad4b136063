"""Every existing database keeps working: a database at the schema of the migrations below (with a
tournament played, penalised, disputed, and a 2vs2 team penalised and disputed) is migrated forwards
to the latest migrations, and its data is read back through today's models.

When a migration is added, this test runs it on a filled database; SCHEMA is moved forwards only
when a release's databases are all past it."""
import datetime
from decimal import Decimal

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from tables.models import Dispute, Penalty, Seat, TeamDispute, TeamPenalty
from tables.standings.selectors import tournament_standings
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db(transaction=True)

SCHEMA = [("tournaments", "0012_room_screen_and_embed"), ("tables", "0006_submission_per_table"),
          ("circuits", "0001_initial")]


def _migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor


def _fill(apps):
    """Rows made with the models as they were at SCHEMA; returns their ids."""
    User = apps.get_model("auth", "User")
    T = {name: apps.get_model("tournaments", name) for name in
         ("Club", "Player", "Tournament", "Registration", "Team", "TeamMember", "TeamPenalty", "TeamDispute",
          "TeamMatch")}
    S = {name: apps.get_model("tables", name) for name in ("Round", "Table", "Seat", "Penalty", "Dispute")}
    olga = User.objects.create(username="olga")
    club = T["Club"].objects.create(name="Lario")
    tournament = T["Tournament"].objects.create(name="Torneo di prova", start_date=datetime.date(2026, 3, 1),
                                                organiser=olga)
    regs = [T["Registration"].objects.create(tournament=tournament, player=T["Player"].objects.create(
        first_name=f"Nome{i}", last_name=f"Cognome{i}", club=club)) for i in range(4)]
    rnd = S["Round"].objects.create(tournament=tournament, number=1, status="closed")
    table = S["Table"].objects.create(round=rnd, number=1, version=2,
                                      reported_at=datetime.datetime(2026, 3, 1, 21, tzinfo=datetime.timezone.utc))
    seats = [S["Seat"].objects.create(table=table, registration=reg, position=i + 1, table_points=Decimal(tp),
                                      eliminated=el, territories=["Brasile"] if i == 0 else [], armies=3)
             for i, (reg, tp, el) in enumerate(zip(regs, (60, 40, 30, 0), (None, None, None, 1)))]
    penalty = S["Penalty"].objects.create(tournament=tournament, registration=regs[1], seat=seats[1], kind="points",
                                          points=Decimal("2.5"), reason="armate oltre il limite", created_by=olga)
    dispute = S["Dispute"].objects.create(tournament=tournament, about="result", table=table, raised_by="Cognome2",
                                          text="punti sbagliati", recorded_by=olga)
    home = T["Team"].objects.create(tournament=tournament, name="Alfa")
    away = T["Team"].objects.create(tournament=tournament, name="Beta")
    T["TeamMember"].objects.create(team=home, registration=regs[0])
    match = T["TeamMatch"].objects.create(tournament=tournament, round=1, home=home, away=away)
    team_penalty = T["TeamPenalty"].objects.create(tournament=tournament, team=home, day=1, points=1,
                                                   reason="ritardo", created_by=olga)
    team_dispute = T["TeamDispute"].objects.create(tournament=tournament, day=1, match=match, raised_by="Alfa",
                                                   text="formazione", recorded_by=olga)
    return {"tournament": tournament.pk, "seats": [s.pk for s in seats], "penalty": penalty.pk,
            "dispute": dispute.pk, "team_penalty": team_penalty.pk, "team_dispute": team_dispute.pk}


def test_a_filled_database_at_the_schema_of_today_migrates_forwards():
    executor = _migrate(SCHEMA)
    try:
        ids = _fill(executor.loader.project_state(SCHEMA).apps)
    finally:  # the database the other tests share is left at the latest schema whatever happens
        _migrate(executor.loader.graph.leaf_nodes())
    executor = MigrationExecutor(connection)  # read the applied migrations again, after migrating
    assert executor.migration_plan(executor.loader.graph.leaf_nodes()) == []
    # The migrations past SCHEMA did run on the filled database (none of them is skipped).
    assert {("tables", "0007_team_arbitration"), ("tournaments", "0013_team_arbitration_to_tables")} <= set(
        executor.loader.applied_migrations)

    tournament = Tournament.objects.get(pk=ids["tournament"])
    seats = [Seat.objects.get(pk=pk) for pk in ids["seats"]]
    assert [(s.table_points, s.eliminated, s.territories, s.armies) for s in seats] == [
        (Decimal(60), None, ["Brasile"], 3), (Decimal(40), None, [], 3), (Decimal(30), None, [], 3),
        (Decimal(0), 1, [], 3)]
    penalty = Penalty.objects.get(pk=ids["penalty"])
    assert (penalty.kind, penalty.points, penalty.seat_id, penalty.withdrawn) == ("points", Decimal("2.5"),
                                                                                  seats[1].pk, False)
    dispute = Dispute.objects.get(pk=ids["dispute"])
    assert (dispute.about, dispute.table_id, dispute.state) == ("result", seats[0].table_id, Dispute.State.OPEN)
    assert TeamPenalty.objects.get(pk=ids["team_penalty"]).points == 1
    assert TeamDispute.objects.get(pk=ids["team_dispute"]).text == "formazione"
    rows = tournament_standings(tournament).rows
    assert [row.player.last_name for row in rows] == ["Cognome0", "Cognome1", "Cognome2", "Cognome3"]
