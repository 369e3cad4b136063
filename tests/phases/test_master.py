"""The Master (SCORING.md 13.4, 13.7, 13.8): 2 games in thousandths, semifinals of 1st-16th, or of
2nd-13th with the sole unbeaten leader straight to the final, the final's order leading the standings.
Played through the web: the organiser sets the format and seats the rounds, the arbiters enter every
result on the result form, the public reads the standings, their JSON and the CSV."""
import csv
import io
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse

from phases import draw
from phases import services as phase_services
from tables.models import Round
from tables.rounds import services as table_services
from tables.standings import selectors as standings_selectors
from tests.factories import report, seat_round
from tests.html import attr, messages, one, text, texts, tr
from tests.phases.helpers import players, strength_of
from tournaments.models import Registration, Tournament


def _organiser(tournament, organiser, n):
    """n players (P00 the strongest), the Master chosen on the format page."""
    tournament.dispute_window_minutes = 0  # published standings are final at once
    tournament.save()
    regs = players(tournament, n)
    client = Client()
    client.force_login(organiser)
    response = client.post(reverse("manage:formats", args=[tournament.pk]), {"form": "format", "preset": "master"})
    assert response.status_code == 302
    tournament.refresh_from_db()
    return client, regs


def _arbiter(arbiter):
    client = Client()
    client.force_login(arbiter)
    return client


def _enter(arbiter_client, rnd, tp_of):
    """The arbiter enters every table of `rnd` on the result form: table points `tp_of(registration id)`."""
    for table in rnd.tables.order_by("number"):
        form = arbiter_client.get(reverse("arbiter:table", args=[rnd.tournament_id, rnd.number, table.number]))
        assert form.status_code == 200
        data = {"version": str(table.version)}
        for i, seat in enumerate(table.seats.order_by("position")):
            data.update({f"p{i}-seat": seat.pk, f"p{i}-table_points": tp_of(seat.registration_id)})
        response = arbiter_client.post(reverse("arbiter:table", args=[rnd.tournament_id, rnd.number, table.number]),
                                       data)
        assert response.status_code == 302, response.content[:300]


def _round_action(client, rnd, action):
    response = client.post(reverse("manage:round_action", args=[rnd.tournament_id, rnd.number, action]))
    assert response.status_code == 302
    return Round.objects.get(pk=rnd.pk)


def _phase_action(client, tournament, order, action):
    response = client.post(reverse("manage:phase_action", args=[tournament.pk, order, action]))
    assert response.status_code == 302
    return response


def _play_phase(manager, referee, tournament, order, tp_of):
    """Seat a phase's round on the format page, publish it, the arbiter's results, close it, publish its
    standings."""
    _phase_action(manager, tournament, order, "draw")
    rnd = tournament.rounds.order_by("-number").first()
    assert rnd.phase.order == order
    _phase_action(manager, tournament, order, "publish")
    _enter(referee, rnd, tp_of)
    _phase_action(manager, tournament, order, "close")
    return _round_action(manager, rnd, "standings")


def _seat_fixed(manager, tournament, plan):
    """The organiser seats a round with a fixed plan on the rounds page (check-in numbers, P00 = 1)."""
    response = manager.post(reverse("manage:rounds", args=[tournament.pk]), {
        "method": "fixed", "plan": "\n".join(" ".join(str(n) for n in table) for table in plan)})
    assert response.status_code == 302
    return tournament.rounds.order_by("-number").first()


def _names(regs, ids):
    names = {r.pk: r.player.last_name for r in regs}
    return [names[i] for i in ids]


def _by_name(regs):
    return {r.player.last_name: r for r in regs}


def _public_lead(tournament, organiser_client):
    """The final order as the public page, its JSON and the CSV show it: lists of registration ids / names."""
    public = Client()
    page = public.get(reverse("public:standings", args=[tournament.pk]))
    lead = one(page, "#final-standings")
    assert one(lead, "#lead-status")["data-state"] == "final"
    page_ids = [int(pk) for pk in attr(lead, "tr[data-registration]", "data-registration")]
    rows = public.get(reverse("public:standings_json", args=[tournament.pk])).json()["rows"]
    csv_text = organiser_client.get(reverse("manage:standings_csv", args=[tournament.pk])).content.decode("utf-8-sig")
    csv_rows = list(csv.reader(io.StringIO(csv_text)))[1:]
    return page_ids, rows, csv_rows


def test_the_format_sets_millesimi_two_games_and_the_conditional_semifinals(client, tournament, organiser):
    manager, _regs = _organiser(tournament, organiser, 16)
    assert (tournament.format_preset, tournament.formula, tournament.tiebreak, tournament.rounds_planned,
            tournament.discard_worst, tournament.best_of) == (
        "master", "millesimi", "best_results,previous_round", 2, 0, None)
    phases = list(tournament.phases.order_by("order"))
    assert [p.kind for p in phases] == ["qualifying", "semifinal", "final"]
    assert phases[0].settings["qualify"] == {
        "tiers": [{"up_to": None, "direct": 0, "semifinal": [1, 16], "repechage": {"seats": 0, "min_games": 1},
                   "direct_if_unbeaten": {"semifinal": [2, 13]}}], "final_size": 4}
    assert phases[2].settings == {"size": 4}
    page = manager.get(reverse("manage:formats", args=[tournament.pk]))
    assert texts(page, "[data-composed-summary] li") == [
        tr("ranks %(a)s-%(b)s to %(t)s semifinals", a=1, b=16, t=4) + "; "
        + tr("when the 1st alone has won every game: straight to the final, ranks %(a)s-%(b)s to %(t)s "
             "semifinals", a=2, b=13, t=3) + "; " + tr("final of %(n)s", n=4) + "."]
    decisions = text(one(page, "#decisions-master"))
    assert tr("\"Alone at the top\" (\"da solo in testa\") means the only player ranked 1st once the tie-breaks "
              "are applied (best results, then the standings after the previous round): two players equal on "
              "all of them share the 1st place and the 4 semifinals of the top 16 are played (an interpretation "
              "of the Master rules). A game won is place 1 at the table, shared or not; a player who missed a game "
              "has not won both.") in decisions
    # The composition is the Master's own: the page offers no fields to change it.
    assert "master" not in one(page, "[data-composition]")["data-show-values"].split()
    # Fields posted anyway (a stale page) do not change the Master's rules.
    manager.post(reverse("manage:formats", args=[tournament.pk]), {
        "form": "format", "preset": "master", "direct": "2", "semifinal_from": "3", "semifinal_to": "9"})
    assert tournament.phases.get(order=1).settings["qualify"] == phases[0].settings["qualify"]


@pytest.mark.django_db(transaction=True)  # the pages read what the requests committed
def test_a_leader_alone_who_won_both_goes_straight_to_the_final(tournament, organiser, arbiter):
    manager, regs = _organiser(tournament, organiser, 16)
    referee = _arbiter(arbiter)
    strength = strength_of(regs)   # P00 16 ... P15 1
    # Two rounds drawn on the format page; at every table the strongest wins (TP = 2 x strength).
    for _round in range(2):
        _play_phase(manager, referee, tournament, 1, lambda pk: 2 * strength[pk])
    standings = standings_selectors.qualifying_standings(tournament)
    p00 = regs[0]
    assert (standings[0].player, standings[0].rank, standings[0].wins, standings[0].total) == (
        p00.pk, 1, 2, Decimal("2.064"))
    assert standings[1].rank == 2
    # The public standings draw the cut lines of the plan that applies: the leader in the final zone.
    public = Client().get(reverse("public:standings", args=[tournament.pk]))
    assert attr(public, "[data-zone=final] li", "data-registration") == [str(p00.pk)]
    assert attr(public, "[data-zone=semifinal] li", "data-registration") == [
        str(row.player) for row in standings[1:13]]

    notice = tr("The 1st won both games and leads alone: straight to the final; %(tables)d semifinals of "
                "%(low)d-%(high)d.", tables=3, low=2, high=13)
    before = manager.get(reverse("manage:formats", args=[tournament.pk]))
    assert texts(before, "[data-master-case=preview]") == [tr("Seated now: %(plan)s", plan=notice)]
    response = _phase_action(manager, tournament, 2, "draw")
    page = manager.get(response["Location"])
    assert notice in messages(page)
    assert texts(page, "[data-master-case=unbeaten]") == [notice]
    semi = tournament.phases.get(order=2)
    assert semi.settings["seeded_to_final"] == [p00.pk]
    order = [row.player for row in standings]
    assert semi.settings["semifinalists"] == order[1:13] and semi.settings["absent"] == []
    rnd = tournament.rounds.order_by("-number").first()
    tables = [sorted(t.seats.values_list("registration_id", flat=True)) for t in rnd.tables.order_by("number")]
    assert tables == [sorted(order[i] for i in (1, 6, 7, 12)), sorted(order[i] for i in (2, 5, 8, 11)),
                      sorted(order[i] for i in (3, 4, 9, 10))]
    _phase_action(manager, tournament, 2, "publish")
    _enter(referee, rnd, lambda pk: 2 * strength[pk])
    _phase_action(manager, tournament, 2, "close")
    _round_action(manager, rnd, "standings")
    winners = [max(t, key=lambda pk: strength[pk]) for t in tables]

    # The final: the leader and the 3 semifinal winners; the weakest of them wins it.
    final = _play_phase(manager, referee, tournament, 3, lambda pk: 100 - 2 * strength[pk])
    seated = list(final.tables.get().seats.values_list("registration_id", flat=True))
    assert sorted(seated) == sorted([p00.pk] + winners)
    final_order = sorted(seated, key=lambda pk: strength[pk])
    page_ids, rows, csv_rows = _public_lead(tournament, manager)
    rest = [pk for pk in order if pk not in seated]
    assert page_ids == final_order + rest
    assert [row["position"] for row in rows[:5]] == [1, 2, 3, 4, 5]
    assert [row["decided_by"] for row in rows[:5]] == [tr("final")] * 4 + [tr("qualifying")]
    names = {r.pk: r.player.full_name for r in regs}
    assert [row["player"] for row in rows] == [names[pk] for pk in final_order + rest]
    assert [row[3] for row in csv_rows] == [names[pk] for pk in final_order + rest]
    # The qualifying totals in thousandths stay beside the final order.
    assert rows[final_order.index(p00.pk)]["rank"] == 1


# Case (b): 17 players seated by fixed plans; P00 wins round 1 and loses round 2 at P01's table, and
# nobody wins both games: P01 leads (1.103) with one win. Check-in numbers: P00 = 1 ... P16 = 17.
ROUND_1 = [[1, 2, 3, 4, 5], [6, 7, 8, 9], [10, 11, 12, 13], [14, 15, 16, 17]]
ROUND_2 = [[1, 2, 7, 11, 15], [6, 3, 8, 12], [10, 4, 9, 16], [14, 5, 13, 17]]
ROUND_2_WINNERS = {"P01", "P02", "P03", "P04"}
QUALIFYING = ["P01", "P02", "P00", "P03", "P04", "P05", "P09", "P13", "P06", "P07", "P08", "P10", "P11", "P12",
              "P14", "P15", "P16"]
TOTALS = ["1.103", "1.088", "1.086", "1.085", "1.083", "1.048", "1.032", "1.016", "0.050", "0.040", "0.036",
          "0.032", "0.024", "0.020", "0.014", "0.008", "0.004"]


@pytest.mark.django_db(transaction=True)  # the pages read what the requests committed
def test_no_unbeaten_leader_four_semifinals_of_the_top_16(tournament, organiser, arbiter):
    manager, regs = _organiser(tournament, organiser, 17)
    referee = _arbiter(arbiter)
    strength, by_name = strength_of(regs), _by_name(regs)
    names = {r.pk: r.player.last_name for r in regs}
    for plan, winners in ((ROUND_1, set()), (ROUND_2, ROUND_2_WINNERS)):
        rnd = _seat_fixed(manager, tournament, plan)
        rnd = _round_action(manager, rnd, "publish")
        _enter(referee, rnd, lambda pk: 50 if names[pk] in winners else 2 * strength[pk])
        rnd = _round_action(manager, rnd, "close")
        _round_action(manager, rnd, "standings")
    standings = standings_selectors.qualifying_standings(tournament)
    assert [names[row.player] for row in standings] == QUALIFYING
    assert [str(row.total) for row in standings] == TOTALS
    assert [row.rank for row in standings] == list(range(1, 18))
    assert standings[0].wins == 1 and by_name["P00"].pk == standings[2].player
    public = Client().get(reverse("public:standings", args=[tournament.pk]))
    assert attr(public, "[data-zone=final] li", "data-registration") == []
    assert _names(regs, [int(pk) for pk in attr(public, "[data-zone=semifinal] li", "data-registration")]) == \
        QUALIFYING[:16]

    # P02 (2nd) is not checked in: the 17th takes the last seat of the top 16.
    response = manager.post(reverse("manage:registration_action", args=[tournament.pk, by_name["P02"].pk, "checkin"]))
    assert response.status_code in (200, 302)
    assert not Registration.objects.get(pk=by_name["P02"].pk).present
    notice = tr("Nobody leads alone having won both games: %(tables)d semifinals of %(low)d-%(high)d.",
                tables=4, low=1, high=16)
    before = manager.get(reverse("manage:formats", args=[tournament.pk]))
    assert texts(before, "[data-master-case=preview]") == [tr("Seated now: %(plan)s", plan=notice)]
    response = _phase_action(manager, tournament, 2, "draw")
    page = manager.get(response["Location"])
    assert notice in messages(page)
    assert texts(page, "[data-master-case=base]") == [notice]
    semi = tournament.phases.get(order=2)
    assert semi.settings["seeded_to_final"] == []
    assert _names(regs, semi.settings["semifinalists"]) == [n for n in QUALIFYING if n != "P02"]
    assert _names(regs, semi.settings["absent"]) == ["P02"]
    rnd = tournament.rounds.order_by("-number").first()
    tables = [sorted(_names(regs, t.seats.values_list("registration_id", flat=True)))
              for t in rnd.tables.order_by("number")]
    assert tables == [["P01", "P06", "P07", "P16"], ["P00", "P08", "P13", "P15"], ["P03", "P09", "P10", "P14"],
                      ["P04", "P05", "P11", "P12"]]
    # The semifinals: upsets at tables 1, 3 and 4.
    semifinal_winners = {"P16", "P00", "P14", "P12"}
    _phase_action(manager, tournament, 2, "publish")
    _enter(referee, rnd, lambda pk: 60 if names[pk] in semifinal_winners else 2 * strength[pk])
    _phase_action(manager, tournament, 2, "close")
    _round_action(manager, rnd, "standings")

    final_tp = {"P14": 70, "P16": 50, "P12": 30, "P00": 10}
    final = _play_phase(manager, referee, tournament, 3, lambda pk: final_tp[names[pk]])
    assert sorted(_names(regs, final.tables.get().seats.values_list("registration_id", flat=True))) == [
        "P00", "P12", "P14", "P16"]
    page_ids, rows, csv_rows = _public_lead(tournament, manager)
    expected = ["P14", "P16", "P12", "P00"] + [n for n in QUALIFYING if n not in final_tp]
    assert _names(regs, page_ids) == expected
    full = {r.player.last_name: r.player.full_name for r in regs}
    assert [(row["position"], row["player"], row["rank"]) for row in rows[:6]] == [
        (1, full["P14"], 15), (2, full["P16"], 17), (3, full["P12"], 14), (4, full["P00"], 3), (5, full["P01"], 1),
        (6, full["P02"], 2)]
    assert [row[3] for row in csv_rows] == [full[n] for n in expected]
    assert [row[1] for row in csv_rows[:5]] == [tr("final")] * 4 + [tr("qualifying")]


# --- by the services: two leaders tied, fewer players present ----------------------------------

def _qualifying(tournament, organiser, regs, rounds):
    """Rounds seated as given (lists of tables of player indexes), every table won by its first player
    with the table points of `rounds`' TP map."""
    phase_services.format_apply(user=organiser, tournament=tournament, preset="master")
    for tables, tp in rounds:
        rnd = seat_round(tournament, [[regs[i] for i in t] for t in tables])
        for table, seats in zip(rnd.tables.order_by("number"), tables):
            report(table, [(tp[i],) for i in seats], user=organiser)
        table_services.round_close(user=organiser, rnd=rnd)


def test_two_unbeaten_leaders_equal_on_every_tie_break_play_four_semifinals(tournament, organiser):
    regs = players(tournament, 16)
    tp = {i: 40 - 2 * i for i in range(16)}
    tp[1] = tp[0]   # P00 and P01 win both games with the same table points, at different tables
    _qualifying(tournament, organiser, regs, [
        ([[0, 2, 3, 4], [1, 5, 6, 7], [8, 9, 10, 11], [12, 13, 14, 15]], tp),
        ([[0, 5, 9, 13], [1, 2, 10, 14], [8, 3, 6, 15], [12, 4, 7, 11]], tp)])
    outcome = standings_selectors.qualifying_outcome(tournament, standings_selectors.composition_of(tournament))
    assert [(row.rank, row.wins) for row in outcome.standings[:3]] == [(1, 2), (1, 2), (3, 1)]
    assert (outcome.case, outcome.result.direct_if_unbeaten, outcome.result.final, outcome.tables) == (
        "base", False, [], 4)
    assert len(outcome.result.semifinal) == 16


@pytest.mark.parametrize("present, case, direct, tables", [(13, "base", 0, [4, 3, 3, 3]),
                                                           (11, "fewer", 1, [4, 3, 3]),
                                                           (10, "fewer", 1, [3, 3, 3])])
def test_fewer_players_present_every_one_plays_a_semifinal(tournament, organiser, present, case, direct, tables):
    regs = players(tournament, 16)
    tp = {i: 40 - 2 * i for i in range(16)}
    # P01 wins round 1, P00 round 2: nobody won both.
    r1, r2 = dict(tp), dict(tp)
    r1[1] = 50
    _qualifying(tournament, organiser, regs, [
        ([[1, 0, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11], [12, 13, 14, 15]], r1),
        ([[0, 1, 5, 9], [2, 4, 10, 14], [3, 6, 8, 15], [7, 11, 12, 13]], r2)])
    Registration.objects.filter(pk__in=[r.pk for r in regs[present:]]).update(present=False)
    semi = tournament.phases.get(order=2)
    rnd = draw.phase_draw(user=organiser, phase=semi, seed=1)
    semi.refresh_from_db()
    assert semi.settings["master_case"] == case and len(semi.settings["seeded_to_final"]) == direct
    assert sorted((t.seats.count() for t in rnd.tables.all()), reverse=True) == tables
    if case == "fewer":
        assert semi.settings["seeded_to_final"] == [regs[1].pk]   # the 1st present, though not unbeaten
        assert draw.master_case_notice(semi) == tr(
            "Too few players present for 4 semifinals: the 1st straight to the final; %(tables)d semifinals "
            "of %(low)d-%(high)d.", tables=3, low=2, high=13)


def test_below_ten_present_the_semifinals_are_refused_and_nothing_is_seated(client, tournament, organiser):
    regs = players(tournament, 16)
    tp = {i: 40 - 2 * i for i in range(16)}
    r1 = dict(tp)
    r1[1] = 50
    _qualifying(tournament, organiser, regs, [
        ([[1, 0, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11], [12, 13, 14, 15]], r1),
        ([[0, 1, 5, 9], [2, 4, 10, 14], [3, 6, 8, 15], [7, 11, 12, 13]], tp)])
    Registration.objects.filter(pk__in=[r.pk for r in regs[9:]]).update(present=False)
    rounds = tournament.rounds.count()
    refusal = tr("The Master's semifinals need at least %(min)d players checked in; %(n)d are.", min=10, n=9)
    with pytest.raises(ValidationError) as exc:
        draw.phase_draw(user=organiser, phase=tournament.phases.get(order=2), seed=1)
    assert exc.value.messages == [refusal]
    assert tournament.rounds.count() == rounds
    # The format page says it before the organiser tries.
    client.force_login(organiser)
    page = client.get(reverse("manage:formats", args=[tournament.pk]))
    assert texts(page, "[data-master-case=preview]") == [refusal]


def test_an_absent_unbeaten_leader_does_not_go_straight_to_the_final(tournament, organiser):
    """SCORING.md 13.8: the leader who won both games alone must be checked in to go straight to the
    final; absent, the 4 semifinals of the top 16 are played with the players present, nobody straight."""
    regs = players(tournament, 16)
    tp = {i: 40 - 2 * i for i in range(16)}   # P00 wins both games, alone on top
    _qualifying(tournament, organiser, regs, [
        ([[0, 4, 8, 12], [1, 5, 9, 13], [2, 6, 10, 14], [3, 7, 11, 15]], tp),
        ([[0, 5, 10, 15], [1, 4, 11, 14], [2, 7, 8, 13], [3, 6, 9, 12]], tp)])
    Registration.objects.filter(pk=regs[0].pk).update(present=False)
    semi = tournament.phases.get(order=2)
    rnd = draw.phase_draw(user=organiser, phase=semi)
    semi.refresh_from_db()
    assert (semi.settings["master_case"], semi.settings["seeded_to_final"], semi.settings["absent"]) == (
        "base", [], [regs[0].pk])
    assert sorted(t.seats.count() for t in rnd.tables.all()) == [3, 4, 4, 4]
    assert regs[0].pk not in {s.registration_id for t in rnd.tables.all() for s in t.seats.all()}


def master_qualified(tournament, organiser):
    """A published Master of 16 whose two qualifying rounds are played; P00 won both, alone on top."""
    Tournament.objects.filter(pk=tournament.pk).update(published=True)
    regs = players(tournament, 16)
    tp = {i: 40 - 2 * i for i in range(16)}
    _qualifying(tournament, organiser, regs, [
        ([[0, 4, 8, 12], [1, 5, 9, 13], [2, 6, 10, 14], [3, 7, 11, 15]], tp),
        ([[0, 5, 10, 15], [1, 4, 11, 14], [2, 7, 8, 13], [3, 6, 9, 12]], tp)])
    tournament.refresh_from_db()
    return regs
