"""The Raduno (SCORING.md 13.9, 13.12): qualifying games, the semifinals of every group, parallel finals
above 76 players and shared ranks, played by the organiser and the arbiters through the web."""
import csv
import io
from decimal import Decimal

import pytest
from django.test import Client
from django.urls import reverse

from phases import services as phase_services
from tables.models import Round
from tables.standings.selectors import tournament_standings
from tests.factories import report
from tests.html import attr, one, text, tr
from tests.phases.helpers import players, strength_of

# 13.9.1: a group of 16 in its own order dealt over 4 semifinals in a snake (one per band).
SNAKE = [[0, 7, 8, 15], [1, 6, 9, 14], [2, 5, 10, 13], [3, 4, 11, 12]]
# A semifinal's table points from the winner down. The losers' hundredths keep every total of the
# others apart from each other and from the qualifying totals (x.0 and x.5): no tie to settle.
SEMIFINAL_TP = [Decimal("80"), Decimal("30.10"), Decimal("20.20"), Decimal("10.30")]
FINAL_TP = [Decimal("80"), Decimal("60"), Decimal("40"), Decimal("25")]


def _phase(client, tournament, order, action):
    response = client.post(reverse("manage:phase_action", args=[tournament.pk, order, action]))
    assert response.status_code == 302
    errors = [str(m) for m in response.wsgi_request._messages if m.level_tag == "error"]
    assert errors == []


def _by_form(client, table, points):
    """The arbiter enters the table's result through the result form."""
    data = {"version": str(table.version)}
    for i, seat in enumerate(table.seats.order_by("position")):
        data.update({f"p{i}-seat": seat.pk, f"p{i}-table_points": str(points[seat.registration_id])})
    response = client.post(reverse("arbiter:table", args=[table.round.tournament_id, table.round.number,
                                                          table.number]), data)
    assert response.status_code == 302


def _play(staff, tournament, order, points):
    """Draw, publish, report (table 1 by the arbiter's form, the others through the service), close and
    publish the standings of the phase's next round; `points` = registration id -> table points."""
    organiser, arbiter = staff
    _phase(organiser, tournament, order, "draw")
    _phase(organiser, tournament, order, "publish")
    rnd = tournament.rounds.order_by("-number").first()
    tables = list(rnd.tables.order_by("number"))
    _by_form(arbiter, tables[0], points)
    for table in tables[1:]:
        report(table, [(points[s.registration_id],) for s in table.seats.order_by("position")])
    _phase(organiser, tournament, order, "close")
    response = organiser.post(reverse("manage:round_action", args=[tournament.pk, rnd.number, "standings"]))
    assert response.status_code == 302
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.CLOSED and rnd.standings_published_at is not None
    return rnd


def _tables(rnd):
    return [{s.registration_id for s in t.seats.all()} for t in rnd.tables.order_by("number")]


def _placed(rnd, winners_first):
    """Table points so that each table's players place in the order `winners_first` lists them."""
    order = {reg: i for i, reg in enumerate(winners_first)}
    points = {}
    for table in _tables(rnd):
        for i, reg in enumerate(sorted(table, key=order.get)):
            points[reg] = (SEMIFINAL_TP if rnd.phase.kind == "semifinal" else FINAL_TP)[i]
    return points


@pytest.fixture
def staff(organiser, arbiter):
    clients = []
    for user in (organiser, arbiter):
        client = Client()
        client.force_login(user)
        clients.append(client)
    return clients


def _raduno(staff, tournament, n, games):
    tournament.dispute_window_minutes = 0
    tournament.save()
    regs = players(tournament, n)
    response = staff[0].post(reverse("manage:formats", args=[tournament.pk]),
                             {"form": "format", "preset": "raduno", "games": str(games)})
    assert response.status_code == 302
    tournament.refresh_from_db()
    # Qualifying table points = half the strength: 1.5 x strength + 50 x wins never ties (13.1: x1 at 4).
    qualifying = {pk: Decimal(s) / 2 for pk, s in strength_of(regs).items()}
    for _i in range(games):
        _play(staff, tournament, 1, qualifying)
    return regs


def test_a_raduno_of_80_plays_2_parallel_finals_with_shared_ranks(staff, client, tournament):
    regs = _raduno(staff, tournament, 80, 3)
    names = {r.pk: r.player.full_name for r in regs}
    assert ([(p.kind, p.rounds) for p in tournament.phases.order_by("order")]
            == [("qualifying", 3), ("semifinal", 1), ("final", 1)])
    assert (tournament.formula, tournament.como_reference, tournament.corrective_scope, tournament.tiebreak) == (
        "bonus50", 4, "table_points", "best_results,previous_round")
    assert [r.tables.count() for r in tournament.rounds.order_by("number")] == [20, 20, 20]
    standings = tournament_standings(tournament).rows
    assert [r.rank for r in standings[:33]] == list(range(1, 34))  # no tie where the groups are cut
    order = [r.registration_id for r in standings]

    _phase(staff[0], tournament, 2, "draw")
    semis = tournament.rounds.get(number=4)
    groups = [order[0:32:2], order[1:32:2]]  # 1st, 3rd, 5th, ... to group 1; 2nd, 4th, ... to group 2
    assert _tables(semis) == [{group[i] for i in table} for group in groups for table in SNAKE]
    phase = tournament.phases.get(order=2)
    assert (phase.settings["finals"], phase.settings["groups"], phase.settings["participants"]) == (2, groups, 80)
    assert tournament.phases.get(order=3).name == "2 parallel finals"
    # Each semifinal won by its player of the lowest band: who comes from the group's weaker half.
    weakest_first = order[::-1]
    _phase(staff[0], tournament, 2, "publish")
    points = _placed(semis, weakest_first)
    tables = list(semis.tables.order_by("number"))
    _by_form(staff[1], tables[0], points)
    for table in tables[1:]:
        report(table, [(points[s.registration_id],) for s in table.seats.order_by("position")])
    _phase(staff[0], tournament, 2, "close")
    winners = [[group[table[3]] for table in SNAKE] for group in groups]

    finals = _play(staff, tournament, 3, {**{r: FINAL_TP[i] for i, r in enumerate(winners[0])},
                                          **{r: FINAL_TP[i] for i, r in enumerate(winners[1])}})
    assert _tables(finals) == [set(winners[0]), set(winners[1])]
    for rnd in tournament.rounds.filter(standings_published_at__isnull=True):
        assert staff[0].post(reverse("manage:round_action", args=[tournament.pk, rnd.number, "standings"])
                             ).status_code == 302
    bracket = staff[0].get(reverse("manage:bracket", args=[tournament.pk]))
    assert [t.label for t in bracket.context["phases"][2].rounds[0].tables] == ["Final 1", "Final 2"]

    # 13.9.2: the two winners share 1st, the seconds 3rd, ...; a shared rank listed by name.
    finalists = []
    for place in range(4):
        pair = sorted([winners[0][place], winners[1][place]], key=lambda pk: names[pk])
        finalists += [(1 + 2 * place, pk, 1 if pk in winners[0] else 2, place + 1) for pk in pair]
    # The others by the points of their qualifying games plus the semifinal they lost.
    qualifying_total = {r.registration_id: r.total for r in standings}
    lost = {pk: tp for pk, tp in points.items() if tp != SEMIFINAL_TP[0]}
    others = sorted((pk for pk in order if pk not in points or pk in lost),
                    key=lambda pk: -(qualifying_total[pk] + lost.get(pk, 0)))
    assert len(others) == 72 and len({qualifying_total[pk] + lost.get(pk, 0) for pk in others}) == 72
    expected = finalists + [(9 + i, pk, None, None) for i, pk in enumerate(others)]

    page = client.get(reverse("public:standings", args=[tournament.pk]))
    lead = one(page, "#final-standings")
    assert attr(lead, "tr[data-registration]", "data-registration") == [str(pk) for _r, pk, _f, _p in expected]
    assert [text(td) for td in lead.select("tbody td.num")] == [str(rank) for rank, _pk, _f, _p in expected]
    assert attr(lead, "tr[data-final]", "data-final") == [str(f) for _r, _pk, f, _p in expected[:8]]
    assert attr(lead, "tr[data-final]", "data-place") == [str(p) for _r, _pk, _f, p in expected[:8]]
    assert text(one(lead, f"tr[data-registration='{expected[0][1]}'] td:last-child")) == tr(
        "final %(n)s, %(place)s°", n=expected[0][2], place=1)
    ninth = expected[8][1]
    assert text(one(lead, f"tr[data-registration='{ninth}'] td:last-child")) == (
        tr("qualifying + semifinal") if ninth in lost else tr("qualifying (%(rank)s°)", rank=order.index(ninth) + 1))

    data = client.get(reverse("public:standings_json", args=[tournament.pk])).json()
    assert (data["status"], data["after_round"]) == ("final", 3)
    assert [(r["position"], r["player"], r.get("final"), r.get("place")) for r in data["rows"]] == [
        (rank, names[pk], final, place) for rank, pk, final, place in expected]

    # The big screen and the widget show the same order.
    screen = client.get(reverse("public:screen_data", args=[tournament.pk])).json()["standings"]
    assert [(r["rank"], r["name"]) for r in screen] == [(rank, names[pk]) for rank, pk, _f, _p in expected]
    widget = client.get(reverse("public:standings_widget", args=[tournament.pk]), {"n": "10"})
    assert [[text(td) for td in tr_.select("td")[:2]] for tr_ in one(widget, "table[data-widget]").select("tbody tr")] == [
        [str(rank), names[pk]] for rank, pk, _f, _p in expected[:10]]

    rows = list(csv.reader(io.StringIO(staff[0].get(reverse("manage:standings_csv", args=[tournament.pk]))
                                       .content.decode("utf-8-sig"))))
    assert [(r[0], r[1], r[3]) for r in rows[1:10]] == [
        (str(rank), tr("final %(n)d, %(place)d°", n=final, place=place), names[pk])
        for rank, pk, final, place in expected[:8]] + [("9", rows[9][1], names[expected[8][1]])]
    assert [(int(r[0]), r[3]) for r in rows[1:]] == [(rank, names[pk]) for rank, pk, _f, _p in expected]


def test_a_raduno_of_76_plays_one_final(staff, client, tournament, organiser):
    regs = _raduno(staff, tournament, 76, 1)
    order = [r.registration_id for r in tournament_standings(tournament).rows]
    _phase(staff[0], tournament, 2, "draw")
    semis = tournament.rounds.get(number=2)
    assert _tables(semis) == [{order[i] for i in table} for table in SNAKE]
    assert tournament.phases.get(order=2).settings["finals"] == 1
    assert tournament.phases.get(order=3).name == "Final"
    _phase(staff[0], tournament, 2, "publish")
    points = _placed(semis, order)  # the strongest of each semifinal wins it
    for table in semis.tables.all():
        report(table, [(points[s.registration_id],) for s in table.seats.order_by("position")])
    _phase(staff[0], tournament, 2, "close")
    winners = [order[table[0]] for table in SNAKE]
    final = _play(staff, tournament, 3, {r: FINAL_TP[i] for i, r in enumerate(winners)})
    assert _tables(final) == [set(winners)]
    bracket = staff[0].get(reverse("manage:bracket", args=[tournament.pk]))
    assert [t.label for t in bracket.context["phases"][2].rounds[0].tables] == ["Final"]
    data = client.get(reverse("public:standings_json", args=[tournament.pk], query={"live": "1"})).json()
    assert [(r["position"], r.get("final"), r.get("place")) for r in data["rows"][:5]] == [
        (1, 1, 1), (2, 1, 2), (3, 1, 3), (4, 1, 4), (5, None, None)]
    names = {r.pk: r.player.full_name for r in regs}
    assert [r["player"] for r in data["rows"][:4]] == [names[pk] for pk in winners]


def test_semifinals_with_too_few_players_present_are_refused_and_nothing_is_drawn(staff, tournament):
    _raduno(staff, tournament, 10, 1)
    response = staff[0].post(reverse("manage:phase_action", args=[tournament.pk, 2, "draw"]))
    assert [str(m) for m in response.wsgi_request._messages if m.level_tag == "error"] == [tr(
        "%(k)d final needs at least %(seats)d players present for its semifinals.",
        plural="%(k)d parallel finals need at least %(seats)d players present for their semifinals.",
        count=1, k=1, seats=12)]
    assert list(tournament.rounds.values_list("number", flat=True)) == [1]
