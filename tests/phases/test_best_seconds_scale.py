"""Seed 003's best seconds compared on one scale: a second's points as a share of their own table
winner's points, so a second at a table decided by the Firenze sheet (hundreds of sheet points) does
not beat a second at a table won on the board (table points) by the size of the numbers alone."""
from django.urls import reverse

from tests.factories import report
from tests.phases.test_firenze import _round1, _sheet, knockout  # noqa: F401 (fixture)
from tests.html import one, text, tr
from tournaments.models import AuditLog


def test_a_sheet_second_with_more_points_but_a_smaller_share_waits(tournament, organiser, arbiter, client_for,
                                                                  knockout):
    rnd = _round1(tournament)
    t1, t2, t3 = rnd.tables.order_by("number")
    # Table 1, by the sheet: winner 415, second 300 (72% of the winner).
    s1 = [s.registration for s in t1.seats.order_by("position")]
    report(t1, [(60,), (40,), (30,), (0, 1)])
    t1.refresh_from_db()
    response = _sheet(client_for(arbiter), t1, {
        s1[0].player.last_name: {"objective_territories": 10, "adjacent_territories": 1, "other_territories": 4,
                                 "armies": 20},                                   # 415
        s1[1].player.last_name: {"objective_territories": 8, "other_territories": 2},  # 300
        s1[2].player.last_name: {"objective_territories": 2}})                    # 70
    assert response.status_code == 302
    # Table 2, on the board: winner 80, second 70 (87.5%). Table 3: winner 90, second 30 (33%).
    s2 = [s.registration for s in t2.seats.order_by("position")]
    s3 = [s.registration for s in t3.seats.order_by("position")]
    report(t2, [(80,), (70,), (20,), (0, 1)])
    report(t3, [(90,), (30,), (20,), (0, 1)])
    client = client_for(organiser)
    assert client.post(reverse("manage:phase_action", args=[tournament.pk, 1, "close"])).status_code == 302
    winner3 = s3[0]
    winner3.present = False
    winner3.save()
    assert client.post(reverse("manage:phase_action", args=[tournament.pk, 2, "draw"])).status_code == 302
    seated = {s.registration_id for s in tournament.rounds.get(number=2).tables.get().seats.all()}
    assert seated == {s1[0].pk, s2[0].pk, s2[1].pk}  # table 2's second (87.5%), not table 1's (300 points)
    entry = AuditLog.objects.filter(action="phase.draw").order_by("pk").last()
    assert entry.after["best_seconds"] == [{"out": winner3.pk, "in": s2[1].pk}]


def test_the_rule_is_stated_on_the_format_page(client_for, tournament, organiser):
    page = client_for(organiser).get(reverse("manage:formats", args=[tournament.pk]))
    assert tr("An absent or withdrawn qualifier (not checked in) is replaced by the best second of the previous "
              "game: placed 2nd at their table; the seconds are compared on one scale, their points as a share of "
              "their own table winner's points (table points where the game ended on the board, sheet points where "
              "the Firenze sheet decided it), so a sheet's hundreds never win by their size alone; equal shares by "
              "name; the next draw is never blocked.") in text(one(page, "#decisions-knockout"))
