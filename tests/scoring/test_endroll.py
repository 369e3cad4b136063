"""SCORING.md section 10: which dice end a timed game."""
from fractions import Fraction

import pytest

from scoring import InvalidParams
from scoring.endroll import ROUNDS_BEFORE_ROLLING, end_roll, ends_game, may_roll


@pytest.mark.parametrize("extra_round, sums, chance", [
    (1, {4}, Fraction(3, 36)), (2, {4, 5}, Fraction(7, 36)), (3, {4, 5, 6}, Fraction(12, 36)),
    (4, {4, 5, 6, 7}, Fraction(18, 36)), (9, {4, 5, 6, 7}, Fraction(18, 36)),
])
def test_end_roll_standard_matches_seed_004(extra_round, sums, chance):
    roll = end_roll("standard", extra_round)
    assert (roll.ending, roll.dice, roll.probability) == (sums, 2, chance)


@pytest.mark.parametrize("extra_round, highest, chance", [
    (1, 4, Fraction(6, 36)), (2, 5, Fraction(10, 36)), (3, 6, Fraction(15, 36)), (4, 7, Fraction(21, 36)),
])
def test_end_roll_or_less_matches_seed_004(extra_round, highest, chance):
    roll = end_roll("or_less", extra_round)
    assert (roll.ending, roll.probability) == (set(range(2, highest + 1)), chance)


def test_end_roll_lariana_four_then_four_or_seven():
    assert end_roll("lariana", 1).ending == {4}
    assert end_roll("lariana", 2).ending == {4, 7}
    assert end_roll("lariana", 5).ending == {4, 7}
    assert ROUNDS_BEFORE_ROLLING["lariana"] == 3


def test_end_roll_firenze_arbiter_die_one_or_two():
    roll = end_roll("firenze", 3)
    assert (roll.dice, roll.ending, roll.by_arbiter, roll.probability) == (1, {1, 2}, True, Fraction(1, 3))


def test_ends_game_checks_the_sum():
    assert ends_game("standard", 2, 5)
    assert not ends_game("standard", 2, 3)
    assert ends_game("or_less", 1, 3)


def test_may_roll_not_after_three_conquests():
    assert may_roll(2)
    assert not may_roll(3)


def test_end_roll_rejects_unknown_variant_and_round():
    with pytest.raises(InvalidParams) as info:
        end_roll("roulette", 1)
    assert str(info.value) == "params: unknown end-roll variant 'roulette' (known: standard, or_less, lariana, firenze)"
    with pytest.raises(InvalidParams):
        end_roll("standard", 0)


# --- whose roll it is (seed 004, "sdadata" and its casebook) -------------------------------------

ORDER = ["1", "2", "3", "4"]  # turn order: "4" is the last player of the table


def test_roll_order_starts_from_the_last_player_and_goes_round():
    from scoring.endroll import roll_order
    state = roll_order(ORDER, [])
    assert (state.next_player, state.next_extra_round) == ("4", 1)
    state = roll_order(ORDER, [("4", "roll"), ("1", "roll"), ("2", "skip"), ("3", "roll")])
    assert state.extra_rounds == (1, 1, 1, 1)
    assert (state.next_player, state.next_extra_round) == ("4", 2)


def test_roll_order_last_player_out_before_the_rolls_the_one_before_rolls_first():
    from scoring.endroll import roll_order
    assert roll_order(ORDER, [("4", "out")]).next_player == "3"
    assert roll_order(ORDER, [("4", "out"), ("3", "out")]).next_player == "2"
    state = roll_order(ORDER, [("4", "out"), ("3", "roll"), ("1", "roll"), ("2", "roll"), ("3", "roll")])
    assert state.extra_rounds == (None, 1, 1, 1, 2)


def test_roll_order_casebook_third_player_eliminates_the_fourth_and_rolls_with_4_or_5():
    """Seed 004: the 4th rolls with 4, then the 1st and 2nd; the 3rd eliminates the 4th during their
    turn and rolls not only with 4 but also with 5."""
    from scoring.endroll import end_roll, roll_order
    state = roll_order(ORDER, [("4", "roll"), ("1", "roll"), ("2", "roll"), ("4", "out")])
    assert (state.next_player, state.next_extra_round) == ("3", 2)
    assert end_roll("standard", state.next_extra_round).ending == frozenset({4, 5})
    state = roll_order(ORDER, [("4", "roll"), ("1", "roll"), ("2", "roll"), ("4", "out"), ("3", "roll")])
    assert (state.extra_rounds[-1], state.next_player, state.next_extra_round) == (2, "1", 2)


def test_roll_order_skips_a_player_out_in_the_middle_of_the_order():
    from scoring.endroll import roll_order
    state = roll_order(ORDER, [("4", "roll"), ("2", "out")])
    assert state.next_player == "1"
    assert roll_order(ORDER, [("4", "roll"), ("2", "out"), ("1", "roll")]).next_player == "3"


def test_roll_order_lariana_rounds_start_with_whoever_rolled_first():
    """Seed 000 art. 44.1: the extra round starts with the player whose turn it was when time ran
    out (here the 2nd): it ends with the 1st, and the 2nd starts the next one."""
    from scoring.endroll import roll_order
    state = roll_order(ORDER, [("2", "roll"), ("3", "roll"), ("4", "roll"), ("1", "roll")])
    assert state.extra_rounds == (1, 1, 1, 1)
    assert (state.next_player, state.next_extra_round) == ("2", 2)
    # The first roller out: the player before them starts the next extra round.
    state = roll_order(ORDER, [("2", "roll"), ("3", "roll"), ("2", "out")])
    assert (state.next_player, state.next_extra_round) == ("4", 1)
    state = roll_order(ORDER, [("2", "roll"), ("3", "roll"), ("4", "roll"), ("2", "out")])
    assert (state.next_player, state.next_extra_round) == ("1", 2)
