import random

import pytest

from itertools import combinations

from tables.seating.designs import (CYCLIC_BASE_ROUNDS, MIXED_BASE_ROUNDS, affine_plane, binary_flats, cyclic_design,
                                    design_rounds, designs_for, embed, gf, is_zero_repeat, mixed_design)

from .helpers import play, total_repeats


@pytest.mark.parametrize("q", [3, 4, 5, 7, 8, 9])
def test_gf_is_a_field(q):
    add, mul = gf(q)
    for a in range(1, q):
        assert sorted(mul[a][b] for b in range(q)) == list(range(q))  # no zero divisors
        assert 0 in add[a]
    assert all(mul[1][b] == b and add[0][b] == b for b in range(q))


@pytest.mark.parametrize("q", [3, 4, 5])
def test_affine_plane_meets_every_pair_exactly_once(q):
    classes = affine_plane(q)
    assert len(classes) == q + 1
    assert is_zero_repeat(classes, q * q)
    assert sum(len(b) * (len(b) - 1) // 2 for cl in classes for b in cl) == q * q * (q * q - 1) // 2


@pytest.mark.parametrize("d, rounds", [(4, 5), (5, 9), (6, 21)])
def test_binary_flats_give_long_partial_spreads(d, rounds):
    classes = binary_flats(d, 30)
    assert len(classes) == rounds
    assert is_zero_repeat(classes, 2 ** d)


@pytest.mark.parametrize("n, k", sorted(CYCLIC_BASE_ROUNDS))
def test_cyclic_base_rounds_develop_into_zero_repeat_schedules(n, k):
    classes = cyclic_design(n, k)
    assert len(classes) == CYCLIC_BASE_ROUNDS[(n, k)][0]
    assert all(len(b) == k for cl in classes for b in cl)
    assert is_zero_repeat(classes, n)


@pytest.mark.parametrize("n, k", sorted(MIXED_BASE_ROUNDS))
def test_mixed_base_rounds_develop_into_zero_repeat_schedules(n, k):
    R, m, f, bases = MIXED_BASE_ROUNDS[(n, k)]
    classes = mixed_design(n, k)
    assert len(classes) == sum(translates for translates, _ in bases)
    assert all(len(b) == k for cl in classes for b in cl)
    assert is_zero_repeat(classes, n)
    # Each base round comes back after `translates` steps: its development is complete.
    start = 0
    for translates, _ in bases:
        step = [[x if x >= m * R else (x // R) * R + (x % R + translates) % R for x in b] for b in classes[start]]
        assert sorted(map(sorted, step)) == sorted(map(sorted, classes[start]))
        start += translates


def test_thirty_two_players_meet_for_ten_rounds_without_a_repeat():
    # The social golfer problem 8-4-10: each player misses exactly one other player.
    classes = designs_for(32, 4, 10)[0]
    assert len(classes) == 10 and is_zero_repeat(classes, 32)
    met = {pair for cl in classes for b in cl for pair in combinations(sorted(b), 2)}
    missed = [pair for pair in combinations(range(32), 2) if pair not in met]
    assert len(missed) == 16 and sorted(x for pair in missed for x in pair) == list(range(32))


def test_embed_continues_relabelled_rounds_of_the_thirty_two_player_design():
    classes = mixed_design(32, 4)
    perm = list(range(32))
    random.Random(1).shuffle(perm)
    # Rounds of both kinds, out of order (some relabellings need more than embed's default budget).
    history = [[[perm[x] for x in b] for b in classes[i]] for i in (0, 8, 4)]
    rest = design_rounds(32, 4, history, 7)
    assert len(rest) == 7
    assert is_zero_repeat([[list(t) for t in rnd] for rnd in history + rest], 32)


def test_embed_finds_relabelled_rounds_of_a_design():
    classes = affine_plane(5)
    perm = list(range(25))
    random.Random(3).shuffle(perm)
    history = [[[perm[x] for x in b] for b in classes[i]] for i in (4, 1, 2)]
    [(pt, sigma)] = embed(classes, history, 25)
    assert len(set(sigma)) == 3 and sorted(pt) == list(range(25))
    rest = design_rounds(25, 5, history, 3)
    assert len(rest) == 3
    assert is_zero_repeat([[list(t) for t in rnd] for rnd in history + rest], 25)


def test_embed_rejects_history_with_a_repeat():
    assert embed(affine_plane(4), [[[0, 1, 2, 3]], [[0, 1, 4, 5]]], 16) == []


def test_embed_returns_a_list_of_maps_whatever_the_limit():
    classes = affine_plane(4)
    assert embed(classes, [], 16) == [(list(range(16)), [])]
    one, several = embed(classes, [classes[0]], 16), embed(classes, [classes[0]], 16, limit=3)
    assert len(one) == 1 and len(several) == 3 and several[0] == one[0]


@pytest.mark.parametrize("n, k, rounds", [(16, 4, 5), (25, 5, 6), (28, 4, 9), (30, 5, 6), (32, 4, 10)])
def test_seat_round_continues_a_design_round_after_round(n, k, rounds):
    players, _, seated = play(n, k, rounds, time_limit_s=2.0)
    assert total_repeats(players, seated) == 0
