"""One truth on every screen (issue 60): a Master (qualifying, semifinals, final) and a Raduno with
parallel finals played to the end; at each step the standings page, its print view, the final standings
page, the big screen, the live JSON, the CSV, the club workbook and the winner's own page give the same
order, and every one of them, the widget and the published JSON included, the same status."""
import csv
import io
from datetime import timedelta
from decimal import Decimal
from unittest import mock

import openpyxl
import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from circuits.selectors import final_order
from phases import draw
from tables.models import Round
from tables.rounds import services as table_services
from tests.factories import report
from tests.html import attr, one, select, text
from tests.phases.helpers import players, report_order, strength_of
from tests.phases.test_master import master_qualified
from tournaments.models import Tournament


def _ids_by_name(tournament):
    return {r.player.full_name: r.pk for r in tournament.registrations.select_related("player")}


def _states(page):
    """The status every badge of a page gives (a page may have two: the final order's and the qualifying's)."""
    return set(attr(page, ".status-badge[data-state], span[data-state]", "data-state"))


def _page_order(page):
    lead = select(page, "#final-standings")
    if lead:
        return [int(pk) for pk in attr(lead[0], "tr[data-registration]", "data-registration")]
    return [int(pk) for pk in attr(page, "table.standings tr[data-reg], table.sheet-table tr[data-reg]", "data-reg")]


def what_every_view_says(tournament, organiser):
    """{view: (order as registration ids, status)}; the order is None where the view shows no order."""
    public, manager = Client(), Client()
    manager.force_login(organiser)
    ids = _ids_by_name(tournament)
    said = {}
    page = public.get(reverse("public:standings", args=[tournament.pk]))
    assert len(_states(page)) == 1, _states(page)
    said["standings"] = (_page_order(page), _states(page).pop())
    printed = public.get(reverse("public:standings_print", args=[tournament.pk]))
    assert len(_states(printed)) == 1, _states(printed)
    said["print"] = (_page_order(printed), _states(printed).pop())
    final_page = public.get(reverse("public:final_standings", args=[tournament.pk]))
    said["final page"] = ([int(pk) for pk in attr(final_page, "#final-standings tr[data-registration]",
                                                   "data-registration")],
                          one(final_page, "#final-status")["data-state"])
    screen = public.get(reverse("public:screen_data", args=[tournament.pk])).json()
    said["big screen"] = ([ids[r["name"]] for r in screen["standings"]], screen["state"])
    live = public.get(reverse("public:standings_json", args=[tournament.pk]), {"live": "1"}).json()
    said["json"] = ([ids[r["player"]] for r in live["rows"]], live["state"])
    published = public.get(reverse("public:standings_json", args=[tournament.pk])).json()
    said["published json"] = (None, published["state"])
    widget = public.get(reverse("public:standings_widget", args=[tournament.pk]), {"n": "500"})
    said["widget"] = (None, one(widget, "[data-state]")["data-state"])
    rows = list(csv.reader(io.StringIO(manager.get(reverse("manage:standings_csv", args=[tournament.pk]))
                                       .content.decode("utf-8-sig"))))
    name_column = rows[0].index(next(h for h in rows[0] if h in ("Player", "Giocatore")))
    said["csv"] = ([ids[r[name_column]] for r in rows[1:]], None)
    book = openpyxl.load_workbook(io.BytesIO(manager.get(reverse("manage:tournament_workbook",
                                                                 args=[tournament.pk])).content))
    sheet = list(book["Classifica"].iter_rows(values_only=True))
    first, last = sheet[0].index("Nome"), sheet[0].index("Cognome")
    said["workbook"] = ([ids[f"{r[first]} {r[last]}"] for r in sheet[1:]], None)
    leader = said["standings"][0][0]
    mine = public.get(reverse("public:player", args=[tournament.pk, leader]))
    stats = one(mine, "[data-stats]")
    shown = select(stats, "[data-final-position]") or select(stats, "[data-rank]")
    said["leader's page"] = (int(shown[0].get("data-final-position") or shown[0]["data-rank"]),
                             one(mine, "#player-state")["data-state"])
    # the chart's last point: the same place as the page says (the final's round once the final is in)
    said["leader's chart"] = (int(select(mine, "[data-rank-chart] circle")[-1]["data-rank"]), None)
    return said


def assert_one_story(said, state):
    order = said["standings"][0]
    for view in ("print", "big screen", "json", "csv", "workbook"):
        assert said[view][0] == order, view
    assert said["final page"][0] == order
    assert said["leader's page"][0] == 1 and said["leader's chart"][0] == 1
    states = {view: s for view, (_order, s) in said.items() if s is not None}
    assert states == {view: state for view in states}


def _close_and_publish(organiser, rnd):
    table_services.round_close(user=organiser, rnd=rnd)
    table_services.standings_publish(user=organiser, rnd=Round.objects.get(pk=rnd.pk))


@pytest.mark.django_db(transaction=True)
def test_a_master_tells_one_story_on_every_screen_from_the_qualifying_to_the_final(tournament, organiser):
    Tournament.objects.filter(pk=tournament.pk).update(dispute_window_minutes=120)
    regs = master_qualified(tournament, organiser)
    for rnd in tournament.rounds.all():
        table_services.standings_publish(user=organiser, rnd=rnd)
    strength = strength_of(regs)
    said = what_every_view_says(tournament, organiser)
    assert said["standings"][0][0] == regs[0].pk
    assert_one_story(said, "provisional")   # the semifinals and the final still to play

    semifinal, final = tournament.phases.order_by("order")[1:]
    semis = draw.phase_draw(user=organiser, phase=semifinal)
    table_services.round_publish(user=organiser, rnd=semis)
    for table in semis.tables.order_by("number"):
        seats = list(table.seats.order_by("position"))
        report(table, [(2 * strength[s.registration_id],) for s in seats], user=organiser)
    assert_one_story(what_every_view_says(tournament, organiser), "provisional")
    # The semifinals live, provisional like any round: who goes to the final is marked at once.
    winners = [max((s.registration_id for s in t.seats.all()), key=strength.get) for t in semis.tables.all()]
    page = Client().get(reverse("public:standings", args=[tournament.pk]))
    lead = one(page, "#semifinal-standings")
    assert one(lead, "#lead-status")["data-state"] == "provisional"
    marked = {int(row["data-registration"]): row["data-finalist"] for row in select(lead, "tr[data-finalist]")
              if row["data-finalist"]}
    assert marked == {regs[0].pk: "seeded", **{pk: "won" for pk in winners}}
    assert len(select(lead, "tr[data-ko=out]")) == 9
    live = Client().get(reverse("public:standings_json", args=[tournament.pk]), {"live": "1"}).json()
    names = {r.pk: r.player.full_name for r in regs}
    assert {r["player"] for r in live["semifinals"] if r["status"] == "finalist"} == {
        names[pk] for pk in [regs[0].pk, *winners]}
    assert "semifinals" not in Client().get(reverse("public:standings_json", args=[tournament.pk])).json()
    _close_and_publish(organiser, semis)
    published = Client().get(reverse("public:standings_json", args=[tournament.pk])).json()
    assert [r["status"] for r in published["semifinals"]].count("finalist") == 4
    assert_one_story(what_every_view_says(tournament, organiser), "provisional")

    rnd = draw.phase_draw(user=organiser, phase=final)
    table_services.round_publish(user=organiser, rnd=rnd)
    finalists = sorted((s.registration for s in rnd.tables.get().seats.all()), key=lambda r: strength[r.pk])
    report_order(rnd.tables.get(), finalists)   # the weakest finalist wins the final
    said = what_every_view_says(tournament, organiser)
    assert said["standings"][0][:4] == [r.pk for r in finalists]
    assert_one_story(said, "provisional")        # reported, not closed
    _close_and_publish(organiser, rnd)
    said = what_every_view_says(tournament, organiser)
    assert said["standings"][0][:4] == [r.pk for r in finalists]
    assert_one_story(said, "window")             # every phase played: the dispute window runs
    # A semifinal's loser is placed by the qualifying order, and both pages say they reached the semifinal.
    losers = {s.registration_id for t in semis.tables.all() for s in t.seats.all()} - {r.pk for r in finalists}
    for name, selector in (("public:standings", "#final-standings"), ("public:final_standings", "#final-standings")):
        rows = select(one(Client().get(reverse(name, args=[tournament.pk])), selector), "tr[data-registration]")
        assert {int(r["data-registration"]) for r in rows if r.get("data-reached") == "semifinal"} == losers
    # The winner's own page: 1st in the final order, the semifinal and the final each with its phase and place.
    winner = Client().get(reverse("public:player", args=[tournament.pk, finalists[0].pk]))
    assert one(winner, "[data-final-position]")["data-final-position"] == "1"
    assert [(text(g), g.find_parent("div").select_one("[data-game-place]")["data-game-place"])
            for g in select(winner, "[data-game-phase]")] == [(semifinal.label, "1"), (final.label, "1")]
    assert final_order(tournament).final is False
    mine = Client().get(reverse("public:player_json", args=[tournament.pk, finalists[0].pk])).json()
    assert (mine["position"], mine["state"]) == (1, "window")
    later = timezone.now() + timedelta(minutes=121)
    with mock.patch("django.utils.timezone.now", return_value=later):
        said = what_every_view_says(tournament, organiser)
        assert_one_story(said, "final")
        circuit = final_order(tournament)
    assert circuit.final is True
    assert [row.registration_id for row in circuit.rows] == said["standings"][0]


SEMIFINAL_TP = [Decimal(60), Decimal(40), Decimal(25), Decimal(10)]


@pytest.mark.django_db(transaction=True)
def test_a_raduno_with_parallel_finals_tells_one_story_on_every_screen(tournament, organiser):
    Tournament.objects.filter(pk=tournament.pk).update(dispute_window_minutes=0, published=True)
    regs = players(tournament, 80)
    manager = Client()
    manager.force_login(organiser)
    assert manager.post(reverse("manage:formats", args=[tournament.pk]),
                        {"form": "format", "preset": "raduno", "games": "1"}).status_code == 302
    tournament.refresh_from_db()
    qualifying, semifinal, final = tournament.phases.order_by("order")
    strength = strength_of(regs)
    rnd = draw.phase_draw(user=organiser, phase=qualifying, seed=1)
    table_services.round_publish(user=organiser, rnd=rnd)
    for table in rnd.tables.order_by("number"):
        report(table, [(Decimal(strength[s.registration_id]) / 2,) for s in table.seats.order_by("position")])
    _close_and_publish(organiser, rnd)
    assert_one_story(what_every_view_says(tournament, organiser), "provisional")
    semis = draw.phase_draw(user=organiser, phase=semifinal)
    table_services.round_publish(user=organiser, rnd=semis)
    for table in semis.tables.order_by("number"):
        seats = sorted(table.seats.all(), key=lambda s: strength[s.registration_id])   # the weakest wins
        report(table, [(SEMIFINAL_TP[seats.index(s)],) for s in table.seats.order_by("position")])
    _close_and_publish(organiser, semis)
    assert_one_story(what_every_view_says(tournament, organiser), "provisional")
    finals = draw.phase_draw(user=organiser, phase=final)
    assert finals.tables.count() == 2
    table_services.round_publish(user=organiser, rnd=finals)
    for table in finals.tables.order_by("number"):
        report_order(table, sorted((s.registration for s in table.seats.all()), key=lambda r: -strength[r.pk]))
    said = what_every_view_says(tournament, organiser)
    assert_one_story(said, "provisional")
    _close_and_publish(organiser, finals)
    said = what_every_view_says(tournament, organiser)
    assert_one_story(said, "final")           # no dispute window: final at once
    winners = said["standings"][0][:2]        # the two winners of the two finals share the 1st place
    assert {strength[pk] for pk in winners} == {max(strength[s.registration_id] for s in t.seats.all())
                                                for t in finals.tables.all()}
