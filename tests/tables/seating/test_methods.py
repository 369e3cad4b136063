import pytest

from tables.seating import Penalties, Player, SeatingError, SeatingRequest, methods, seat_round

from .helpers import roster


def ids(*numbers):
    return [f"P{n:02d}" for n in numbers]


def seat(players, **kw):
    # The time limit is far off: the search's work budget decides, so a busy machine gives the same result.
    kw.setdefault("time_limit_s", 60)
    return seat_round(SeatingRequest(players=players, **kw))


def test_random_seats_everyone_once_at_the_planned_sizes():
    result = seat(roster(17), seed=4)
    assert sorted(p for t in result.tables for p in t) == [p.id for p in roster(17)]
    assert [len(t) for t in result.tables] == [5, 4, 4, 4]


def test_random_keeps_clubs_apart():
    players = roster(40, club_size=5)
    result = seat(players, seed=2)
    assert result.penalties.same_club_pairs == 0


def test_random_avoids_repeats_given_history():
    players = roster(16)
    history = [ids(1, 2, 3, 4), ids(5, 6, 7, 8), ids(9, 10, 11, 12), ids(13, 14, 15, 16)]
    result = seat(players, history=history)
    assert result.penalties.repeat_pairs == 0


def test_random_keeps_previous_winners_apart():
    players = roster(16)
    result = seat(players, winners=ids(1, 2, 3, 4))
    assert result.penalties.winner_pairs == 0


def test_random_sends_to_the_five_player_table_those_who_were_not_there():
    players = roster(9)
    fives = {p.id: 1 for p in players[:5]}
    result = seat(players, fives=fives)
    assert set(ids(6, 7, 8, 9)) < set(result.tables[0])
    # The fifth seat goes to someone who was there once, like everyone at the other table.
    assert result.penalties.repeat_fives == 0


def test_random_reports_fallback_tables():
    result = seat(roster(7))
    assert [len(t) for t in result.tables] == [4, 3]
    assert "3-player" in result.messages[0]


def test_random_respects_pinned_players():
    result = seat(roster(16), pinned={"P01": 3, "P02": 3, "P16": 1}, seed=9)
    assert {"P01", "P02"} <= set(result.tables[2])
    assert "P16" in result.tables[0]


def test_seeded_top_puts_the_top_five_at_table_one():
    players = roster(14, ranked=True)
    result = seat(players, method="seeded_top", table_size=5)
    assert result.tables[0] == ids(1, 2, 3, 4, 5)
    assert [len(t) for t in result.tables] == [5, 5, 4]


def test_seeded_top_is_plain_random_with_one_table():
    result = seat(roster(5, ranked=True), method="seeded_top", table_size=5)
    assert result.tables == [ids(1, 2, 3, 4, 5)]


def test_snake_spreads_ranks_back_and_forth():
    result = seat(roster(16, ranked=True), method="snake")
    assert result.tables == [ids(1, 8, 9, 16), ids(2, 7, 10, 15), ids(3, 6, 11, 14), ids(4, 5, 12, 13)]


def test_swiss_groups_neighbours_in_the_standings():
    result = seat(roster(13, ranked=True), method="swiss")
    assert result.tables == [ids(1, 2, 3, 4, 5), ids(6, 7, 8, 9), ids(10, 11, 12, 13)]


def test_swiss_uses_ties_to_keep_clubs_apart():
    players = [Player("A", "x", 1), Player("B", "x", 1), Player("C", None, 1), Player("D", None, 1),
               Player("E", None, 1), Player("F", None, 1), Player("G", None, 1), Player("H", None, 1)]
    result = seat(players, method="swiss")
    assert result.penalties.same_club_pairs == 0


def test_snake_renumbers_tables_for_a_pinned_player():
    result = seat(roster(16, ranked=True), method="snake", pinned={"P01": 4})
    assert result.tables[3] == ids(1, 8, 9, 16)


def test_greek_moves_each_place_one_table_further():
    players = roster(16)
    previous = [ids(1, 2, 3, 4), ids(5, 6, 7, 8), ids(9, 10, 11, 12), ids(13, 14, 15, 16)]
    result = seat(players, method="greek", previous=previous)
    assert result.tables == [ids(1, 14, 11, 8), ids(5, 2, 15, 12), ids(9, 6, 3, 16), ids(13, 10, 7, 4)]
    assert result.penalties.winner_pairs == 0


def test_greek_seats_newcomers_and_absences():
    players = [p for p in roster(17) if p.id != "P03"]
    previous = [ids(1, 2, 3, 4), ids(5, 6, 7, 8), ids(9, 10, 11, 12), ids(13, 14, 15, 16)]
    result = seat(players, method="greek", previous=previous)
    assert sorted(p for t in result.tables for p in t) == sorted(p.id for p in players)
    assert result.tables[0][0] == "P01"


def test_greek_needs_the_previous_round():
    with pytest.raises(SeatingError, match="previous"):
        seat(roster(8), method="greek")


def test_fixed_keeps_the_organiser_plan():
    plan = [ids(1, 5, 9, 13), ids(2, 6, 10, 14), ids(3, 7, 11, 15), ids(4, 8, 12, 16)]
    result = seat(roster(16), method="fixed", plan=plan)
    assert result.tables == plan


@pytest.mark.parametrize("plan, message", [
    ([["P01", "P02", "P03"]], "leaves out"),
    ([["P01", "P02", "P03", "P01"], ["P04", "P05", "P06"]], "twice"),
    ([["P01", "P02", "P03", "X"], ["P04", "P05", "P06"]], "not among"),
])
def test_fixed_rejects_a_bad_plan(plan, message):
    with pytest.raises(SeatingError, match=message):
        seat(roster(6), method="fixed", plan=plan)


def test_semifinal_with_32_players_takes_one_from_each_quarter():
    result = seat(roster(40, ranked=True), method="semifinal")
    assert result.tables == [ids(1, 8, 9, 16), ids(2, 7, 10, 15), ids(3, 6, 11, 14), ids(4, 5, 12, 13)]
    assert result.direct == []
    assert len(result.bye) == 24


def test_semifinal_under_32_players_seeds_the_first_to_the_final():
    result = seat(roster(20, ranked=True), method="semifinal")
    assert result.direct == ["P01"]
    assert sorted(p for t in result.tables for p in t) == ids(*range(2, 13))
    assert len(result.tables) == 3


def test_semifinal_with_two_seeded_plays_two_tables_of_third_to_tenth():
    result = seat(roster(20, ranked=True), method="semifinal", direct=2)
    assert result.direct == ids(1, 2)
    assert result.tables == [ids(3, 6, 7, 10), ids(4, 5, 8, 9)]


def test_final_takes_the_finalists_or_the_top():
    assert seat(roster(10, ranked=True), method="final").tables == [ids(1, 2, 3, 4)]
    result = seat(roster(10, ranked=True), method="final", finalists=ids(9, 2, 5, 7), finalina=True)
    assert result.tables == [ids(2, 5, 7, 9), ids(1, 3, 4, 6)]


def test_seat_round_rejects_duplicate_ids():
    with pytest.raises(SeatingError, match="twice"):
        seat([Player("A"), Player("A"), Player("B")])


def test_seat_round_rejects_unknown_methods():
    with pytest.raises(SeatingError, match="unknown method"):
        seat(roster(8), method="lottery")


def test_seat_round_reports_the_penalties_of_the_tables_it_returns():
    """The figures come from the tables returned, counted by hand here: a fixed plan makes them known."""
    players = [Player(f"P{i:02d}", club) for i, club in enumerate("AABCDDEF", start=1)]
    history = [ids(1, 2, 5, 6), ids(3, 4, 7, 8)]
    result = seat(players, method="fixed", plan=[ids(1, 2, 3, 4), ids(5, 6, 7, 8)], history=history)
    # P01-P02 (club A) and P05-P06 (club D) share a club; the same two pairs and P03-P04, P07-P08 met before.
    assert result.penalties == Penalties(same_club_pairs=2, repeat_pairs=4, max_meetings=2, repeat_fives=0,
                                         winner_pairs=0)


def test_polishing_removes_repeats_the_plan_left_in_the_published_round(monkeypatch):
    """When the rounds planned together leave this round repeats the history does not force, the
    round published is searched again on its own (here the planner is made to return the history)."""
    real_search = methods.search

    def planner_repeating_the_history(problem, start, rng, **kwargs):
        if problem.rounds > 1:
            repeated = [[list(range(4 * t, 4 * t + 4)) for t in range(4)] for _ in start]
            return repeated, problem.cost(repeated)
        return real_search(problem, start, rng, **kwargs)
    monkeypatch.setattr(methods, "search", planner_repeating_the_history)
    history = [ids(1, 2, 3, 4), ids(5, 6, 7, 8), ids(9, 10, 11, 12), ids(13, 14, 15, 16)]
    result = seat(roster(16), history=history, rounds_left=3, time_limit_s=60)
    assert result.penalties.repeat_pairs == 0


@pytest.mark.parametrize("seed", range(4))
def test_previous_winners_are_the_first_of_each_table_and_sit_apart(seed):
    """`previous` lists each table by place: its first player won (SEATING.md section 3.4)."""
    previous = [ids(1, 2, 3, 4), ids(5, 6, 7, 8), ids(9, 10, 11, 12)]
    # Clubs keep the last-placed apart anyway, so only the winners rule can separate P01, P05, P09.
    players = [Player(f"P{i:02d}", "last" if i in (4, 8, 12) else None) for i in range(1, 13)]
    result = seat(players, previous=previous, seed=seed, time_limit_s=60)
    assert sorted(sum(p in ("P01", "P05", "P09") for p in t) for t in result.tables) == [1, 1, 1]
    assert result.penalties.winner_pairs == 0
