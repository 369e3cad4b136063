import random

from tables.seating import SeatingRequest, seat_round
from tables.seating.optimizer import greedy_round, search
from tables.seating.problem import Problem
from tables.seating.penalties import weights

from .helpers import play, roster, total_repeats


def request(n, **kw):
    # The time limit is far off: the search's work budget decides, so a busy machine gives the same result.
    kw.setdefault("time_limit_s", 60)
    return SeatingRequest(players=roster(n, kw.pop("club_size", 0)), **kw)


def test_seat_round_is_deterministic_for_a_seed():
    history = [["P01", "P02", "P03", "P04"], ["P05", "P06", "P07", "P08", "P09"]]
    a = seat_round(request(23, club_size=3, seed=11, rounds_left=4, history=history))
    b = seat_round(request(23, club_size=3, seed=11, rounds_left=4, history=history))
    assert a.tables == b.tables


def test_seat_round_draws_differently_with_another_seed():
    a = seat_round(request(24, seed=1))
    b = seat_round(request(24, seed=2))
    assert a.tables != b.tables


def test_whole_tournament_is_deterministic():
    assert play(20, 4, 4, seed=3)[2] == play(20, 4, 4, seed=3)[2]


def test_planning_keeps_clubs_apart_and_avoids_repeats():
    players, _, seated = play(40, 4, 6, club_size=5)
    assert total_repeats(players, seated) == 0
    assert seat_round(SeatingRequest(players=players, history=[t for r in seated for t in r], time_limit_s=60)) \
        .penalties.same_club_pairs == 0


def test_planning_finds_a_repeat_free_schedule_with_mixed_tables():
    players, _, seated = play(22, 4, 4, time_limit_s=5.0)
    assert total_repeats(players, seated) == 0


def test_32_players_over_10_rounds_stay_under_one_repeat_per_player():
    players, _, seated = play(32, 4, 10)
    assert total_repeats(players, seated) < 32


def test_two_hundred_players_keep_clubs_apart():
    """Speed at 200 players is measured by bench/bench_seating.py, not here."""
    players = roster(200, club_size=5)
    result = seat_round(SeatingRequest(players=players, sizes=[5] * 20 + [4] * 25, rounds_left=10,
                                       time_limit_s=60))
    assert sorted(p for t in result.tables for p in t) == sorted(p.id for p in players)
    assert result.penalties.same_club_pairs == 0


def test_search_cost_matches_a_full_recount():
    n, sizes = 13, [5, 4, 4]
    base = [[0] * n for _ in range(n)]
    base[0][1] = base[1][0] = 1
    problem = Problem(n, sizes, 3, club=[i % 3 for i in range(n)], base=base, odd_table=[True, False, False],
                      odd_base=[1] * 5 + [0] * 8, weight=weights(), winners=[i < 4 for i in range(n)])
    rng = random.Random(5)
    M = [row[:] for row in base]
    start = [greedy_round(problem, M, [0] * n, rng) for _ in range(3)]
    best, cost = search(problem, start, rng, deadline=float("inf"), budget=50_000)
    assert cost == problem.cost(best)
    assert cost <= problem.cost(start)
    assert cost >= problem.lower_bound()


def test_lower_bound_prices_forced_repeats_at_the_repeat_weight():
    """4 players at one table for 2 rounds: the 6 pairs meet again, one repeat each, no club pair."""
    n = 4
    problem = Problem(n, [4], 2, club=[None] * n, base=[[0] * n for _ in range(n)], odd_table=[False],
                      odd_base=[0] * n, weight=weights())
    assert problem.lower_bound() == problem.cost([[[0, 1, 2, 3]], [[0, 1, 2, 3]]]) == 6 * weights()["repeat"]


def test_cost_charges_a_player_moved_off_the_draft_table():
    n = 8
    problem = Problem(n, [4, 4], 1, club=[None] * n, base=[[0] * n for _ in range(n)], odd_table=[False, False],
                      odd_base=[0] * n, weight=weights(), anchor=[0, 0, 0, 0, 1, 1, 1, 1])
    assert problem.cost([[[0, 1, 2, 3], [4, 5, 6, 7]]]) == 0
    assert problem.cost([[[0, 1, 2, 4], [3, 5, 6, 7]]]) == 2 * problem.wa


def test_lower_bound_counts_forced_club_pairs():
    n = 8
    problem = Problem(n, [4, 4], 2, club=[0, 0, 0, 1, 2, 3, 4, 5], base=[[0] * n for _ in range(n)],
                      odd_table=[False, False], odd_base=[0] * n, weight=weights())
    assert problem.lower_bound() == 2 * weights()["club"]
