"""phases: presets, phases, qualification, knockout advancement, final standings."""
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError

from phases import bracket as brackets
from phases import draw
from phases import selectors as phase_selectors
from phases import services as phase_services
from tables.rounds import services as table_services
from tables.models import Round, Seat
from tables.standings import selectors as standings_selectors
from tables.standings.selectors import standings_rounds, tournament_standings
from tests.factories import report, seat_round
from tests.phases.helpers import play, players, report_by_strength, report_order, seated, strength_of
from tournaments.models import AuditLog, Phase, Tournament


def _phases(tournament):
    return list(tournament.phases.order_by("order"))


def _qualify(tournament, organiser, strength, phase):
    """Play the qualifying rounds under table points: the standings follow the strength."""
    Tournament.objects.filter(pk=tournament.pk).update(formula="punti_tavolo")
    tournament.refresh_from_db()
    for i in range(phase.rounds):
        play(draw.phase_draw(user=organiser, phase=phase, seed=i), strength, organiser)


@pytest.mark.parametrize("preset, kinds", [
    ("sum3", ["qualifying"]),
    ("sum3_final", ["qualifying", "final"]),
    ("semis16", ["qualifying", "semifinal", "final"]),
    ("evenings_final", ["qualifying", "final"]),
    ("championship", ["qualifying", "final"]),
    ("knockout", ["knockout", "final"]),
    ("knockout_second_chance", ["knockout", "knockout", "final"]),
    ("como", ["qualifying"]),
    ("teams_2vs2", []),
])
def test_format_apply_builds_the_phases_of_each_preset(tournament, organiser, preset, kinds):
    players(tournament, 16)
    phase_services.format_apply(user=organiser, tournament=tournament, preset=preset)
    assert [p.kind for p in _phases(tournament)] == kinds
    tournament.refresh_from_db()
    assert tournament.format_preset == preset


def test_format_apply_evenings_with_finalina_and_discards(tournament, organiser):
    phase_services.format_apply(user=organiser, tournament=tournament, preset="evenings_final", games=6, discards=2,
                         finalina=True)
    tournament.refresh_from_db()
    assert [(p.kind, p.rounds) for p in _phases(tournament)] == [("qualifying", 6), ("final", 1), ("finalina", 0)]
    assert (tournament.rounds_planned, tournament.discard_worst) == (6, 2)


def test_format_apply_como_sets_the_rules_of_seed_000(tournament, organiser):
    phase_services.format_apply(user=organiser, tournament=tournament, preset="como")
    tournament.refresh_from_db()
    assert (tournament.formula, tournament.best_of, tournament.como_reference, tournament.table_size,
            tournament.tiebreak, tournament.rounds_planned) == ("punti_tavolo", 3, 5, 5, "best_results", 4)


def test_format_apply_semis16_uses_table_points_and_bonus(tournament, organiser):
    phase_services.format_apply(user=organiser, tournament=tournament, preset="semis16")
    tournament.refresh_from_db()
    assert (tournament.formula, tournament.rounds_planned) == ("bonus50", 2)


def test_format_apply_refuses_games_outside_the_format(tournament, organiser):
    with pytest.raises(ValidationError) as exc:
        phase_services.format_apply(user=organiser, tournament=tournament, preset="evenings_final", games=7)
    assert exc.value.message_dict == {"games": ["This format plays 4 to 6 games."]}
    with pytest.raises(ValidationError) as exc:
        phase_services.format_apply(user=organiser, tournament=tournament, preset="championship", discards=1)
    assert exc.value.message_dict == {"discards": ["This format discards 0 or 2 to 7 results."]}
    assert tournament.phases.count() == 0


def test_format_apply_refuses_a_knockout_without_enough_players(tournament, organiser):
    players(tournament, 8)
    with pytest.raises(ValidationError) as exc:
        phase_services.format_apply(user=organiser, tournament=tournament, preset="knockout")
    assert exc.value.messages == ["With 8 players a knockout does not end with a final table of 3 to 6: "
                                  "register more players."]


def test_format_apply_is_audited_with_before_and_after(tournament, organiser):
    phase_services.format_apply(user=organiser, tournament=tournament, preset="sum3_final")
    entry = AuditLog.objects.get(action="format.apply")
    assert entry.before["format_preset"] == ""
    assert (entry.after["format_preset"], entry.after["phases"]) == ("sum3_final", ["Qualifying rounds", "Final"])


def test_format_apply_keeps_rounds_played_as_qualifying_rounds(tournament, organiser):
    regs = players(tournament, 4)
    seat_round(tournament, [regs])
    phase_services.format_apply(user=organiser, tournament=tournament, preset="sum3_final")
    qualifying = _phases(tournament)[0]
    assert [r.number for r in phase_selectors.phase_rounds(qualifying)] == [1]


def test_format_apply_refused_once_the_final_is_seated(tournament, organiser):
    regs = players(tournament, 8)
    strength = strength_of(regs)
    phase_services.format_apply(user=organiser, tournament=tournament, preset="sum3_final")
    qualifying, final = _phases(tournament)
    _qualify(tournament, organiser, strength, qualifying)
    draw.phase_draw(user=organiser, phase=final)
    with pytest.raises(ValidationError):
        phase_services.format_apply(user=organiser, tournament=tournament, preset="sum3")


def test_sum3_final_seats_the_top_4_and_the_final_decides_the_podium(tournament, organiser):
    regs = players(tournament, 12)
    strength = strength_of(regs)
    phase_services.format_apply(user=organiser, tournament=tournament, preset="sum3_final")
    qualifying, final = _phases(tournament)
    _qualify(tournament, organiser, strength, qualifying)
    rnd = draw.phase_draw(user=organiser, phase=final)
    assert (rnd.number, rnd.phase, rnd.method) == (4, final, "fixed")
    assert sorted(seated(rnd)[0]) == ["P00", "P01", "P02", "P03"]
    table_services.round_publish(user=organiser, rnd=rnd)
    report_order(rnd.tables.get(), [regs[3], regs[1], regs[0], regs[2]])
    table_services.round_close(user=organiser, rnd=rnd)
    result = standings_selectors.final_standings(tournament)
    assert result.complete is True
    assert [(r.position, r.registration.player.last_name, r.phase) for r in result.rows[:6]] == [
        (1, "P03", "final"), (2, "P01", "final"), (3, "P00", "final"), (4, "P02", "final"),
        (5, "P04", "qualifying"), (6, "P05", "qualifying")]


def test_qualifying_standings_ignore_the_final_table(tournament, organiser):
    regs = players(tournament, 8)
    strength = strength_of(regs)
    phase_services.format_apply(user=organiser, tournament=tournament, preset="sum3_final")
    qualifying, final = _phases(tournament)
    _qualify(tournament, organiser, strength, qualifying)
    before = [(r.player, r.total) for r in standings_selectors.qualifying_standings(tournament)]
    play(draw.phase_draw(user=organiser, phase=final), strength, organiser)
    assert [(r.player, r.total) for r in standings_selectors.qualifying_standings(tournament)] == before


def test_knockout_rounds_count_for_standings_and_the_final_does_not_in_every_reader(tournament, organiser):
    """One rule (tables.standings.selectors.standings_rounds) decides which rounds add points: the public
    standings and the phases' qualifying order count the knockout game and ignore the final."""
    regs = players(tournament, 16)
    strength = strength_of(regs)
    Tournament.objects.filter(pk=tournament.pk).update(formula="punti_tavolo")
    tournament.refresh_from_db()
    phase_services.format_apply(user=organiser, tournament=tournament, preset="knockout")
    first, final = _phases(tournament)
    knockout_round = play(draw.phase_draw(user=organiser, phase=first, seed=3), strength, organiser)
    final_round = play(draw.phase_draw(user=organiser, phase=final), strength, organiser)
    assert [n for n, _status in standings_rounds(tournament)] == [knockout_round.number]
    public = {r.registration_id: r.total for r in tournament_standings(tournament).rows}
    qualifying = {int(r.player): r.total for r in standings_selectors.qualifying_standings(tournament)}
    assert public == qualifying
    # Table points of the knockout game only (2 x strength), the final adding nothing.
    assert public == {reg.pk: Decimal(2 * strength[reg.pk]) for reg in regs}
    assert tournament_standings(tournament).round_numbers == [knockout_round.number]
    assert final_round.number not in tournament_standings(tournament).round_numbers


def test_final_and_finalina_are_tables_1_and_2_of_one_round(tournament, organiser):
    regs = players(tournament, 12)
    strength = strength_of(regs)
    phase_services.format_apply(user=organiser, tournament=tournament, preset="evenings_final", games=4, discards=1,
                         finalina=True)
    qualifying, final, finalina = _phases(tournament)
    _qualify(tournament, organiser, strength, qualifying)
    with pytest.raises(ValidationError):
        draw.phase_draw(user=organiser, phase=finalina)
    rnd = draw.phase_draw(user=organiser, phase=final)
    assert [sorted(t) for t in seated(rnd)] == [["P00", "P01", "P02", "P03"], ["P04", "P05", "P06", "P07"]]
    table_services.round_publish(user=organiser, rnd=rnd)
    final_table, finalina_table = rnd.tables.order_by("number")
    report_order(final_table, [regs[2], regs[0], regs[1], regs[3]])
    report_order(finalina_table, [regs[7], regs[6], regs[5], regs[4]])
    table_services.round_close(user=organiser, rnd=rnd)
    rows = standings_selectors.final_standings(tournament).rows
    assert [(r.position, r.registration.player.last_name, r.phase) for r in rows] == [
        (1, "P02", "final"), (2, "P00", "final"), (3, "P01", "final"), (4, "P03", "final"),
        (5, "P07", "finalina"), (6, "P06", "finalina"), (7, "P05", "finalina"), (8, "P04", "finalina"),
        (9, "P08", "qualifying"), (10, "P09", "qualifying"), (11, "P10", "qualifying"), (12, "P11", "qualifying")]
    assert [v.status for v in phase_selectors.phases_overview(tournament)] == ["done", "done", "done"]


@pytest.mark.parametrize("present, tables", [
    (6, [["P00", "P01", "P02", "P03"]]),  # 2 left over: no finalina of 2
    (5, [["P00", "P01", "P02", "P03"]]),  # 1 left over: no finalina of 1
    (7, [["P00", "P01", "P02", "P03"], ["P04", "P05", "P06"]]),  # 3 left over: a finalina of 3
])
def test_a_finalina_needs_at_least_3_players(tournament, organiser, present, tables):
    regs = players(tournament, 12)
    strength = strength_of(regs)
    phase_services.format_apply(user=organiser, tournament=tournament, preset="evenings_final", games=4, discards=1,
                         finalina=True)
    qualifying, final, finalina = _phases(tournament)
    _qualify(tournament, organiser, strength, qualifying)
    for reg in regs[present:]:
        reg.present = False
        reg.save()
    rnd = draw.phase_draw(user=organiser, phase=final)
    assert [sorted(t) for t in seated(rnd)] == tables


@pytest.mark.parametrize("plan, seeded, semifinalists", [
    (0, ["P00"], [f"P{i:02d}" for i in range(1, 12)]),
    (1, ["P00", "P01"], [f"P{i:02d}" for i in range(2, 10)]),
])
def test_semifinals_under_32_players_follow_the_guidance_of_seed_004(tournament, organiser, plan, seeded,
                                                                     semifinalists):
    regs = players(tournament, 20)
    strength = strength_of(regs)
    phase_services.format_apply(user=organiser, tournament=tournament, preset="semis16")
    qualifying, semis, final = _phases(tournament)
    _qualify(tournament, organiser, strength, qualifying)
    rnd = draw.phase_draw(user=organiser, phase=semis, plan_choice=plan)
    tables = seated(rnd)
    assert sorted(p for t in tables for p in t) == semifinalists
    semis.refresh_from_db()
    assert [r.player.last_name for r in tournament.registrations.filter(pk__in=semis.settings["seeded_to_final"])] \
        == seeded
    # The weakest player of each semifinal wins it: one finalist per semifinal.
    table_services.round_publish(user=organiser, rnd=rnd)
    by_name = {r.player.last_name: r for r in regs}
    winners = []
    for table, names_at_table in zip(rnd.tables.order_by("number"), tables):
        order = sorted(names_at_table, reverse=True)
        winners.append(order[0])
        report_order(table, [by_name[n] for n in order])
    table_services.round_close(user=organiser, rnd=rnd)
    final_round = draw.phase_draw(user=organiser, phase=final)
    assert seated(final_round) == [seeded + winners]


def test_semifinals_need_ten_players_present(tournament, organiser):
    regs = players(tournament, 9)
    phase_services.format_apply(user=organiser, tournament=tournament, preset="semis16")
    qualifying, semis, _final = _phases(tournament)
    _qualify(tournament, organiser, strength_of(regs), qualifying)
    with pytest.raises(ValidationError) as exc:
        draw.phase_draw(user=organiser, phase=semis)
    assert exc.value.messages == ["Semifinals need at least 10 players present; with fewer, play the final "
                                  "directly."]


def test_phase_draw_waits_for_the_earlier_phases(tournament, organiser):
    players(tournament, 8)
    phase_services.format_apply(user=organiser, tournament=tournament, preset="sum3_final")
    qualifying, final = _phases(tournament)
    draw.phase_draw(user=organiser, phase=qualifying)
    with pytest.raises(ValidationError) as exc:
        draw.phase_draw(user=organiser, phase=final)
    assert exc.value.messages == ["Finish the earlier phases first."]
    with pytest.raises(ValidationError) as exc:
        draw.phase_draw(user=organiser, phase=qualifying)
    assert exc.value.messages == ["Close the current round of this phase before drawing the next one."]


def test_the_final_skips_players_not_checked_in(tournament, organiser):
    regs = players(tournament, 8)
    strength = strength_of(regs)
    phase_services.format_apply(user=organiser, tournament=tournament, preset="sum3_final")
    qualifying, final = _phases(tournament)
    _qualify(tournament, organiser, strength, qualifying)
    regs[2].present = False
    regs[2].save()
    rnd = draw.phase_draw(user=organiser, phase=final)
    assert sorted(seated(rnd)[0]) == ["P00", "P01", "P03", "P04"]


def test_phase_draw_is_audited_with_the_tables(tournament, organiser):
    regs = players(tournament, 8)
    phase_services.format_apply(user=organiser, tournament=tournament, preset="sum3_final")
    qualifying, final = _phases(tournament)
    _qualify(tournament, organiser, strength_of(regs), qualifying)
    draw.phase_draw(user=organiser, phase=final)
    entry = AuditLog.objects.filter(action="phase.draw").order_by("pk").last()
    assert entry.after["round"] == 4
    assert sorted(entry.after["tables"][0]) == sorted(str(r.pk) for r in regs[:4])


def test_knockout_without_second_chance_advances_table_winners(tournament, organiser):
    regs = players(tournament, 16)
    strength = strength_of(regs)
    phase_services.format_apply(user=organiser, tournament=tournament, preset="knockout")
    first, final = _phases(tournament)
    rnd = draw.phase_draw(user=organiser, phase=first, seed=3)
    assert [len(t) for t in seated(rnd)] == [4, 4, 4, 4]
    play(rnd, strength, organiser)
    winners = {max((s.registration_id for s in t.seats.all()), key=strength.get) for t in rnd.tables.all()}
    final_round = draw.phase_draw(user=organiser, phase=final)
    assert {s.registration_id for s in final_round.tables.get().seats.all()} == winners
    play(final_round, strength, organiser)
    rows = standings_selectors.final_standings(tournament).rows
    assert [r.phase for r in rows[:4]] == ["final"] * 4
    assert [r.position for r in rows] == [1, 2, 3, 4] + [5] * 4 + [9] * 4 + [13] * 4


def test_knockout_with_second_chance_plays_the_losers_again(tournament, organiser):
    regs = players(tournament, 12)
    strength = strength_of(regs)
    phase_services.format_apply(user=organiser, tournament=tournament, preset="knockout_second_chance")
    first, second, final = _phases(tournament)
    assert (second.name, second.settings) == ("Second chance", {"second_chance": True})
    rnd = draw.phase_draw(user=organiser, phase=first, seed=1)
    play(rnd, strength, organiser)
    first_winners = {max((s.registration_id for s in t.seats.all()), key=strength.get) for t in rnd.tables.all()}
    again = draw.phase_draw(user=organiser, phase=second, seed=2)
    again_players = {s.registration_id for t in again.tables.all() for s in t.seats.all()}
    assert again_players == {r.pk for r in regs} - first_winners
    assert [len(t) for t in seated(again)] == [5, 4]
    play(again, strength, organiser)
    second_winners = {max((s.registration_id for s in t.seats.all()), key=strength.get) for t in again.tables.all()}
    final_round = draw.phase_draw(user=organiser, phase=final)
    assert {s.registration_id for s in final_round.tables.get().seats.all()} == first_winners | second_winners


def test_knockout_tie_for_first_stops_the_next_phase(tournament, organiser):
    regs = players(tournament, 12)
    phase_services.format_apply(user=organiser, tournament=tournament, preset="knockout")
    first, final = _phases(tournament)
    rnd = draw.phase_draw(user=organiser, phase=first, seed=1)
    table_services.round_publish(user=organiser, rnd=rnd)
    for table in rnd.tables.order_by("number"):
        report(table, [(50,), (50,), (20,), (10,)])
    table_services.round_close(user=organiser, rnd=rnd)
    with pytest.raises(ValidationError) as exc:
        draw.phase_draw(user=organiser, phase=final)
    assert exc.value.messages == ["Table 1 of round 1 has no single winner: record the places at the table to "
                                  "settle the tie."]
    assert Round.objects.filter(tournament=tournament).count() == 1
    assert len(regs) == 12


def test_bracket_marks_the_winner_of_each_table(tournament, organiser):
    regs = players(tournament, 16)
    strength = strength_of(regs)
    phase_services.format_apply(user=organiser, tournament=tournament, preset="knockout")
    first, _final = _phases(tournament)
    play(draw.phase_draw(user=organiser, phase=first, seed=3), strength, organiser)
    bracket = brackets.phase_bracket(tournament)
    tables = bracket[0].rounds[0].tables
    assert [len(t.seats) for t in tables] == [4, 4, 4, 4]
    for table in tables:
        assert [s.place for s in table.seats] == [1, 2, 3, 4]
        assert [s.advances for s in table.seats] == [True, False, False, False]
    assert bracket[1].rounds == []


def test_como_draws_table_one_from_the_standings_from_the_second_evening(tournament, organiser):
    regs = players(tournament, 10)
    strength = strength_of(regs)
    tournament = phase_services.format_apply(user=organiser, tournament=tournament, preset="como")
    evenings = _phases(tournament)[0]
    first = draw.phase_draw(user=organiser, phase=evenings, seed=4)
    assert (first.method, [len(t) for t in seated(first)]) == ("random", [5, 5])
    play(first, strength, organiser)
    second = draw.phase_draw(user=organiser, phase=evenings, seed=4)
    assert second.method == "seeded_top"
    top5 = [r.player for r in standings_selectors.qualifying_standings(tournament)[:5]]
    assert {s.registration_id for s in second.tables.get(number=1).seats.all()} == set(top5)


def test_como_draws_at_random_with_fewer_than_nine_present(tournament, organiser):
    regs = players(tournament, 8)
    phase_services.format_apply(user=organiser, tournament=tournament, preset="como")
    evenings = _phases(tournament)[0]
    play(draw.phase_draw(user=organiser, phase=evenings, seed=4), strength_of(regs), organiser)
    assert draw.phase_draw(user=organiser, phase=evenings, seed=4).method == "random"


def test_como_counts_the_best_3_of_4_and_breaks_ties_on_the_best_result(tournament, organiser):
    from tables.standings.selectors import tournament_standings
    regs = players(tournament, 10, present=False)
    tournament = phase_services.format_apply(user=organiser, tournament=tournament, preset="como")
    a, b = regs[:5], regs[5:]
    results = {0: [80, 60, 40, 10], 1: [70, 70, 40, 20]}  # P00 and P01: 180 each over their best 3
    for evening in range(4):
        rnd = seat_round(tournament, [a, b], number=evening + 1)
        table_a, table_b = rnd.tables.order_by("number")
        report(table_a, [(results[0][evening],), (results[1][evening],), (5,), (5,), (5,)])
        report(table_b, [(1,), (1,), (1,), (1,), (1,)])
    rows = tournament_standings(tournament).rows
    assert [(r.rank, r.player.last_name, r.total) for r in rows[:2]] == [(1, "P00", Decimal(180)),
                                                                          (2, "P01", Decimal(180))]


def test_como_corrective_scales_a_four_player_table_by_four_fifths(tournament, organiser):
    from tables.standings.selectors import tournament_standings
    regs = players(tournament, 9, present=False)
    tournament = phase_services.format_apply(user=organiser, tournament=tournament, preset="como")
    rnd = seat_round(tournament, [regs[:5], regs[5:]])
    five, four = rnd.tables.order_by("number")
    report(five, [(80,), (60,), (40,), (20,), (10,)])
    report(four, [(80,), (60,), (40,), (20,)])
    totals = {r.player.last_name: r.total for r in tournament_standings(tournament).rows}
    assert (totals["P00"], totals["P05"], totals["P06"]) == (Decimal(80), Decimal(64), Decimal(48))


def test_final_standings_without_phases_follow_the_standings(tournament, organiser):
    regs = players(tournament, 4)
    rnd = seat_round(tournament, [regs])
    report_by_strength(rnd, strength_of(regs))
    result = standings_selectors.final_standings(tournament)
    assert (result.has_phases, result.complete) == (False, False)
    assert [(r.position, r.registration.player.last_name) for r in result.rows] == [
        (1, "P00"), (2, "P01"), (3, "P02"), (4, "P03")]


def test_end_roll_variant_set_is_audited(tournament, organiser):
    phase_services.end_roll_variant_set(user=organiser, tournament=tournament, variant="lariana")
    tournament.refresh_from_db()
    assert tournament.end_roll_variant == "lariana"
    entry = AuditLog.objects.get(action="format.end_roll")
    assert (entry.before, entry.after) == ({"end_roll_variant": "standard"}, {"end_roll_variant": "lariana"})
    with pytest.raises(ValidationError):
        phase_services.end_roll_variant_set(user=organiser, tournament=tournament, variant="dadi")


def test_phases_overview_lets_the_organiser_draw_one_phase_at_a_time(tournament, organiser):
    players(tournament, 8)
    phase_services.format_apply(user=organiser, tournament=tournament, preset="sum3_final")
    views = phase_selectors.phases_overview(tournament)
    assert [(v.status, v.can_draw) for v in views] == [("waiting", True), ("waiting", False)]
    assert Phase.objects.filter(tournament=tournament).count() == 2


def test_knockout_replans_the_later_phases_for_the_players_actually_left(tournament, organiser):
    regs = players(tournament, 24, present=False)
    strength = strength_of(regs)
    phase_services.format_apply(user=organiser, tournament=tournament, preset="knockout")
    assert [p.kind for p in _phases(tournament)] == ["knockout", "final"]  # 24 registered: 6 tables, final of 6
    for reg in regs[:16]:
        reg.present = True
        reg.save()
    first = _phases(tournament)[0]
    rnd = draw.phase_draw(user=organiser, phase=first, seed=2)
    assert [len(t) for t in seated(rnd)] == [4, 4, 4, 4]
    play(rnd, strength, organiser)
    final = draw.phase_draw(user=organiser, phase=_phases(tournament)[1])
    assert [len(t) for t in seated(final)] == [4]
    assert [(p.kind, p.settings.get("size")) for p in _phases(tournament)] == [("knockout", None), ("final", 4)]
    entry = AuditLog.objects.get(action="phase.replan")
    assert (entry.before, entry.after) == ({"phases": ["Final"]}, {"phases": ["Final"], "players_left": 4})


def test_knockout_adds_a_game_when_more_players_are_left_than_planned(tournament, organiser):
    regs = players(tournament, 16, present=False)
    phase_services.format_apply(user=organiser, tournament=tournament, preset="knockout")
    assert [p.kind for p in _phases(tournament)] == ["knockout", "final"]
    more = players(tournament, 20)[:20]
    for reg in regs:
        reg.present = True
        reg.save()
    strength = strength_of(regs + more)
    rnd = draw.phase_draw(user=organiser, phase=_phases(tournament)[0], seed=2)
    assert len(seated(rnd)) == 9
    play(rnd, strength, organiser)
    semis = draw.phase_draw(user=organiser, phase=_phases(tournament)[1], seed=3)
    assert [(p.kind, p.name) for p in _phases(tournament)] == [
        ("knockout", "Knockout game 1"), ("semifinal", "Semifinals"), ("final", "Final")]
    assert [len(t) for t in seated(semis)] == [3, 3, 3]
    assert AuditLog.objects.get(action="phase.replan").after["phases"] == ["Semifinals", "Final"]


def test_phase_publish_refuses_tables_changed_by_hand(tournament, organiser):
    regs = players(tournament, 8)
    phase_services.format_apply(user=organiser, tournament=tournament, preset="sum3_final")
    qualifying, final = _phases(tournament)
    _qualify(tournament, organiser, strength_of(regs), qualifying)
    rnd = draw.phase_draw(user=organiser, phase=final)
    final.refresh_from_db()
    assert sorted(final.settings["entrants"]) == sorted(r.pk for r in regs[:4])
    with pytest.raises(ValidationError) as refused:
        table_services.round_reseat(user=organiser, rnd=rnd)
    assert refused.value.messages == ["The tables of this phase come from the results: they cannot be drawn again."]
    # A finalist replaced by hand (e.g. in the admin) with a player who did not qualify.
    Seat.objects.filter(pk=rnd.tables.get(number=1).seats.first().pk).update(registration=regs[7])
    with pytest.raises(ValidationError) as exc:
        phase_services.phase_publish(user=organiser, phase=final)
    assert exc.value.messages == ["The tables of this phase no longer seat exactly its qualified players "
                                  "(re-seated or drawn again by hand): put them back before publishing."]
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.DRAFT


def test_phase_publish_publishes_the_draft_round(tournament, organiser):
    players(tournament, 8)
    phase_services.format_apply(user=organiser, tournament=tournament, preset="sum3_final")
    qualifying, _final = _phases(tournament)
    with pytest.raises(ValidationError):
        phase_services.phase_publish(user=organiser, phase=qualifying)
    rnd = draw.phase_draw(user=organiser, phase=qualifying)
    assert phase_services.phase_publish(user=organiser, phase=qualifying).status == Round.Status.PUBLISHED
    assert rnd.pk == phase_selectors.phases_overview(tournament)[0].current.pk


def test_a_finals_draft_offers_neither_a_new_draw_nor_a_reseat_a_qualifying_draft_does(client, tournament,
                                                                                       organiser):
    from django.urls import reverse
    from tests.html import select
    regs = players(tournament, 8)
    phase_services.format_apply(user=organiser, tournament=tournament, preset="sum3_final")
    qualifying, final = _phases(tournament)
    client.force_login(organiser)
    first = draw.phase_draw(user=organiser, phase=qualifying, seed=1)
    page = client.get(reverse("manage:round", args=[tournament.pk, first.number]))
    assert len(select(page, "#redraw-method")) == 1
    assert len(select(page, "form[action$='/reseat/']")) == 1
    play(first, strength_of(regs), organiser)
    for i in range(1, qualifying.rounds):
        play(draw.phase_draw(user=organiser, phase=qualifying, seed=i + 1), strength_of(regs), organiser)
    rnd = draw.phase_draw(user=organiser, phase=final)
    page = client.get(reverse("manage:round", args=[tournament.pk, rnd.number]))
    assert select(page, "[data-action=publish-seating]")
    assert select(page, "#redraw-method") == [] and select(page, "form[action$='/reseat/']") == []
