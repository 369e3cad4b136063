"""Firenze knockout (seed 003): the points sheet at the table, the best seconds, the draw that is not
changed without a confirmation naming the change."""
from decimal import Decimal

import pytest
from django.urls import reverse

from phases import services as phase_services
from tables.models import Seat
from tests.factories import report
from tests.phases.helpers import players, report_by_strength, strength_of
from tests.html import alerts, one, text, tr
from tournaments.models import AuditLog

EMPTY = dict.fromkeys(["objective_territories", "adjacent_territories", "other_territories",
                       "protected_territories", "armies", "cards", "unconquered_adjacent"], 0)


@pytest.fixture
def knockout(tournament, organiser, client_for):
    """12 players checked in, knockout format: 3 tables of 4, then the final; round 1 drawn and
    published from the formats page."""
    regs = players(tournament, 12)
    phase_services.format_apply(user=organiser, tournament=tournament, preset="knockout")
    client = client_for(organiser)
    for action in ("draw", "publish"):
        assert client.post(reverse("manage:phase_action", args=[tournament.pk, 1, action])).status_code == 302
    return regs


def _round1(tournament):
    return tournament.rounds.get(number=1)


def _seconds_by_share(by_table):
    """The seconds as the draw compares them: their points as a share of their own table winner's,
    highest first, then by name."""
    def key(seats):
        second, winner = seats[1], seats[0]
        player = second.registration.player
        return -(second.table_points / winner.table_points), player.last_name.lower(), player.first_name.lower()
    return [seats[1] for seats in sorted(by_table, key=key)]


def _sheet(client, table, sheets, lot=None):
    data = {"version": str(table.version)}
    for i, seat in enumerate(table.seats.order_by("position")):
        for key, value in {**EMPTY, **sheets.get(seat.registration.player.last_name, {})}.items():
            data[f"p{i}-{key}"] = str(value)
        if lot == seat.registration.player.last_name:
            data["lot_winner"] = str(seat.pk)
    url = reverse("arbiter:firenze_sheet", args=[table.round.tournament_id, table.round.number, table.number])
    return client.post(url, data)


def test_the_sheet_decides_the_table_with_its_tie_breaks_and_totals_above_200(tournament, arbiter, organiser,
                                                                              client_for, knockout):
    table = _round1(tournament).tables.get(number=1)
    a, b, c, d = (s.registration.player.last_name for s in table.seats.order_by("position"))
    # Objective table points were entered first: a ahead of b.
    report(table, [(60,), (40,), (30,), (0, 1)])
    table.refresh_from_db()
    client = client_for(arbiter)
    response = _sheet(client, table, {
        # 350 + 15 + 40 + 10 = 415
        a: {"objective_territories": 10, "adjacent_territories": 1, "other_territories": 4, "armies": 20},
        # 385 + 20 + 10 = 415, and one objective territory more: b wins the tie.
        b: {"objective_territories": 11, "other_territories": 2, "armies": 20},
        # 175 + 50 + 1 = 226: above 200.
        c: {"objective_territories": 5, "other_territories": 5, "cards": 1},
    })
    assert response.status_code == 302
    seats = {s.registration.player.last_name: s for s in Seat.objects.filter(table=table)}
    assert [(seats[n].table_points, seats[n].place) for n in (a, b, c, d)] == [
        (Decimal("415"), 2), (Decimal("415"), 1), (Decimal("226"), 3), (Decimal("0"), 4)]
    assert seats[b].firenze["objective_territories"] == 11
    page = client.get(response["Location"])
    assert [(s.registration.player.last_name, p, why) for s, p, why in page.context["saved"]] == [
        (b, Decimal("415"), None),
        (a, Decimal("415"), "Level on points with the player above, who has more objective territories."),
        (c, Decimal("226"), None), (d, Decimal("0"), None)]
    assert AuditLog.objects.filter(action="result.firenze").count() == 4
    # The sheet's winner goes on: the other tables by table points, then the final.
    others = list(_round1(tournament).tables.exclude(pk=table.pk))
    strength = strength_of(knockout)
    for t in others:
        report(t, [(2 * strength[s.registration_id],) for s in t.seats.order_by("position")])
    org = client_for(organiser)
    assert org.post(reverse("manage:phase_action", args=[tournament.pk, 1, "close"])).status_code == 302
    assert org.post(reverse("manage:phase_action", args=[tournament.pk, 2, "draw"])).status_code == 302
    final = tournament.rounds.get(number=2).tables.get()
    assert b in {s.registration.player.last_name for s in final.seats.all()}
    assert a not in {s.registration.player.last_name for s in final.seats.all()}


def test_a_complete_draw_on_the_sheet_is_settled_by_the_lot(tournament, arbiter, client_for, knockout):
    table = _round1(tournament).tables.get(number=2)
    a, b, c, d = (s.registration.player.last_name for s in table.seats.order_by("position"))
    same = {"objective_territories": 8, "other_territories": 6, "armies": 30}
    client = client_for(arbiter)
    response = _sheet(client, table, {a: same, b: same, c: {"other_territories": 3}})
    assert response.status_code == 400
    names = [s.registration.player.full_name for s in table.seats.order_by("position")]
    assert alerts(response) == [tr("The sheet ends in a draw between %(names)s: draw lots at the table and name the "
                                   "winner.", names=f"{names[0]}, {names[1]}")]
    assert not Seat.objects.filter(table=table, table_points__isnull=False).exists()
    assert _sheet(client, table, {a: same, b: same, c: {"other_territories": 3}}, lot=b).status_code == 302
    assert [(s.registration.player.last_name, s.place) for s in Seat.objects.filter(table=table).order_by("place")][
        :2] == [(b, 1), (a, 2)]
    page = client.get(reverse("arbiter:firenze_sheet", args=[tournament.pk, 1, 2]))
    assert [why for _s, _p, why in page.context["saved"]][:2] == [
        None, "Level on everything with the player above: decided by lot."]


def test_a_stale_sheet_shows_the_saved_one_and_a_second_tap_keeps_it(tournament, arbiter, organiser, client_for,
                                                                     knockout):
    """Two arbiters on one table: the sheet sent on the older version is refused, and the form then holds
    the sheet the other saved (not the rejected counts) on the new version."""
    table = _round1(tournament).tables.get(number=3)
    a, b, c, d = (s.registration.player.last_name for s in table.seats.order_by("position"))
    first = {a: {"objective_territories": 9, "armies": 20}, b: {"objective_territories": 4, "other_territories": 8}}
    assert _sheet(client_for(organiser), table, first).status_code == 302
    client = client_for(arbiter)
    response = _sheet(client, table, {b: {"objective_territories": 12}})   # typed on version 0
    assert response.status_code == 409
    assert alerts(response) == [
        tr("%(who)s saved this table while you were typing: your sheet was not saved.", who="olga"),
        tr("The form below now shows the saved sheet. Save only if it needs correcting.")]
    forms = response.context["forms"]
    assert not any(f.is_bound for f in forms)
    held = {f.seat_obj.registration.player.last_name: (f["objective_territories"].value(), f["armies"].value(),
                                                       f["other_territories"].value()) for f in forms}
    assert (held[a], held[b]) == ((9, 20, 0), (4, 0, 8))
    assert one(response, "input[name=version]")["value"] == "1"
    table.refresh_from_db()
    assert _sheet(client, table, first).status_code == 302     # the second tap keeps the saved sheet
    seats = {s.registration.player.last_name: s for s in Seat.objects.filter(table=table)}
    assert (seats[a].table_points, seats[a].place, seats[b].table_points) == (Decimal("325"), 1, Decimal("220"))


def test_the_sheet_is_refused_outside_knockout_formats(tournament, arbiter, client_for):
    regs = players(tournament, 4)
    phase_services.format_apply(user=tournament.organiser, tournament=tournament, preset="sum3")
    client = client_for(tournament.organiser)
    client.post(reverse("manage:phase_action", args=[tournament.pk, 1, "draw"]))
    client.post(reverse("manage:phase_action", args=[tournament.pk, 1, "publish"]))
    table = tournament.rounds.get().tables.get()
    response = _sheet(client_for(arbiter), table, {regs[0].player.last_name: {"objective_territories": 9}})
    assert response.status_code == 400
    assert alerts(response) == [tr("The Firenze points sheet decides the tables of knockout formats only.")]
    assert not Seat.objects.filter(table=table, firenze__isnull=False).exists()


def test_best_seconds_replace_an_absent_qualifier_and_the_draw_goes_on(tournament, organiser, client_for, knockout):
    strength = strength_of(knockout)
    rnd = _round1(tournament)
    report_by_strength(rnd, strength)
    client = client_for(organiser)
    client.post(reverse("manage:phase_action", args=[tournament.pk, 1, "close"]))
    by_table = [sorted(t.seats.all(), key=lambda s: -strength[s.registration_id]) for t in rnd.tables.order_by("number")]
    winners = [seats[0].registration for seats in by_table]
    seconds = _seconds_by_share(by_table)
    absent, withdrawn = winners[1], winners[2]
    absent.present = False
    absent.save()
    response = client.post(reverse("manage:registration_action", args=[tournament.pk, withdrawn.pk, "withdraw"]))
    assert response.status_code == 302
    withdrawn.refresh_from_db()
    assert withdrawn.status == "withdrawn"
    response = client.post(reverse("manage:phase_action", args=[tournament.pk, 2, "draw"]))
    assert response.status_code == 302
    final = tournament.rounds.get(number=2).tables.get()
    seated = {s.registration_id for s in final.seats.all()}
    assert seated == {winners[0].pk, seconds[0].registration_id, seconds[1].registration_id}
    entry = AuditLog.objects.filter(action="phase.draw").order_by("pk").last()
    assert entry.after["best_seconds"] == [{"out": absent.pk, "in": seconds[0].registration_id},
                                           {"out": withdrawn.pk, "in": seconds[1].registration_id}]


def test_a_published_knockout_draw_changes_only_with_a_named_confirmation(tournament, organiser, client_for,
                                                                          knockout):
    rnd = _round1(tournament)
    a = rnd.tables.get(number=1).seats.get(position=1)
    b = rnd.tables.get(number=2).seats.get(position=1)
    client = client_for(organiser)
    url = reverse("manage:seat_tap", args=[tournament.pk, 1])
    client.post(url, {"seat": a.pk})
    response = client.post(url, {"seat": b.pk})
    assert response.status_code == 200
    assert tr("This knockout draw is published and is not changed (Firenze tournament rules). Confirm to swap "
              "%(a)s (table %(ta)d) and %(b)s (table %(tb)d).", a=a.registration.player.full_name, ta=1,
              b=b.registration.player.full_name, tb=2) in alerts(response)
    assert one(response, "#confirm-draw-change").find_parent("form").select_one("[name=swap_with]")["value"] == \
        str(a.pk)
    assert Seat.objects.get(pk=a.pk).table.number == 1
    assert not AuditLog.objects.filter(action="round.swap").exists()
    response = client.post(url, {"seat": b.pk, "swap_with": a.pk, "confirm": "1"})
    assert response.status_code == 302
    assert (Seat.objects.get(pk=a.pk).table.number, Seat.objects.get(pk=b.pk).table.number) == (2, 1)
    assert AuditLog.objects.get(action="round.swap").after["confirmed"] is True
    # A move names the player and both tables.
    response = client.post(reverse("manage:seat_move", args=[tournament.pk, 1]), {"seat": a.pk, "table": 3})
    assert tr("This knockout draw is published and is not changed (Firenze tournament rules). Confirm to move "
              "%(name)s from table %(source)d to table %(target)d.", name=a.registration.player.full_name,
              source=2, target=3) in alerts(response)
    assert Seat.objects.get(pk=a.pk).table.number == 2


def test_the_formats_page_states_the_knockout_decisions(client_for, tournament, organiser):
    page = client_for(organiser).get(reverse("manage:formats", args=[tournament.pk]))
    decisions = text(one(page, "#decisions-knockout"))
    assert tr("An absent or withdrawn qualifier (not checked in) is replaced by the best second of the previous "
              "game: placed 2nd at their table; the seconds are compared on one scale, their points as a share of "
              "their own table winner's points (table points where the game ended on the board, sheet points where "
              "the Firenze sheet decided it), so a sheet's hundreds never win by their size alone; equal shares by "
              "name; the next draw is never blocked.") in decisions
    assert tr("A game ended by time is decided at the table by the Firenze points sheet (Firenze tournament rules): "
              "its totals may exceed 200 and the places follow the sheet, not the objective table points; a player "
              "eliminated before time gets an empty sheet; a complete draw for first place is settled by a lot "
              "drawn at the table.") in decisions


def test_an_absent_best_second_gives_the_place_to_the_next_second_present(tournament, organiser, client_for,
                                                                         knockout):
    strength = strength_of(knockout)
    rnd = _round1(tournament)
    report_by_strength(rnd, strength)
    client = client_for(organiser)
    client.post(reverse("manage:phase_action", args=[tournament.pk, 1, "close"]))
    by_table = [sorted(t.seats.all(), key=lambda s: -strength[s.registration_id]) for t in rnd.tables.order_by("number")]
    winners = [seats[0].registration for seats in by_table]
    seconds = _seconds_by_share(by_table)
    for registration in (winners[1], seconds[0].registration):  # a qualifier and the best second are away
        registration.present = False
        registration.save()
    response = client.post(reverse("manage:phase_action", args=[tournament.pk, 2, "draw"]))
    assert response.status_code == 302
    final = tournament.rounds.get(number=2).tables.get()
    assert {s.registration_id for s in final.seats.all()} == {winners[0].pk, winners[2].pk,
                                                              seconds[1].registration_id}
    entry = AuditLog.objects.filter(action="phase.draw").order_by("pk").last()
    assert entry.after["best_seconds"] == [{"out": winners[1].pk, "in": seconds[1].registration_id}]
