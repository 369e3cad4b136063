import pytest

from tables.seating import SeatingError, table_sizes
from scoring.phases import table_sizes as rule_sizes
from tables.seating.sizes import validate_sizes

FALLBACK = {3, 6, 7, 11}


@pytest.mark.parametrize("prefer", [4, 5])
def test_table_sizes_every_n_from_3_to_200_is_seated_or_flagged(prefer):
    for n in range(3, 201):
        plan = table_sizes(n, prefer)
        assert sum(plan.sizes) == n
        assert list(plan.sizes) == sorted(plan.sizes, reverse=True)
        if n in FALLBACK:
            assert plan.fallback and str(n) in plan.message
            assert any(s in (3, 6) for s in plan.sizes)
        else:
            assert not plan.fallback and plan.message is None
            assert set(plan.sizes) <= {4, 5}


@pytest.mark.parametrize("prefer", [4, 5])
def test_table_sizes_use_as_many_preferred_tables_as_possible(prefer):
    other = 9 - prefer
    for n in range(3, 201):
        if n in FALLBACK:
            continue
        best = max(a for a in range(n // prefer + 1) if (n - prefer * a) % other == 0)
        assert table_sizes(n, prefer).sizes.count(prefer) == best


def test_table_sizes_follow_the_examples_of_the_spec():
    assert table_sizes(13, 4).sizes == (5, 4, 4)
    assert table_sizes(18, 4).sizes == (5, 5, 4, 4)
    assert table_sizes(13, 5).sizes == (5, 4, 4)
    assert table_sizes(14, 5).sizes == (5, 5, 4)


def test_table_sizes_fallbacks_stay_close_to_the_preferred_size():
    assert table_sizes(7, 4).sizes == (4, 3)
    assert table_sizes(11, 4).sizes == (4, 4, 3)
    assert table_sizes(11, 5).sizes == (6, 5)
    assert table_sizes(6, 5).sizes == (6,)
    assert table_sizes(3, 4).sizes == (3,)


def test_table_sizes_reject_fewer_than_three_players():
    with pytest.raises(SeatingError, match="at least 3 players"):
        table_sizes(2)


def test_table_sizes_reject_other_preferred_sizes():
    with pytest.raises(SeatingError, match="4 or 5"):
        table_sizes(12, 6)


def test_table_sizes_keep_a_valid_override_in_its_order():
    assert table_sizes(13, 4, override=[4, 5, 4]).sizes == (4, 5, 4)


@pytest.mark.parametrize("sizes, message", [
    ([4, 4], "add up to 8 seats for 9"),
    ([7, 2], "from 3 to 6"),
    ([], "non-empty"),
    ([4.0, 5], "whole number"),
    ([True, 4, 4], "whole number"),
])
def test_validate_sizes_rejects_bad_overrides(sizes, message):
    with pytest.raises(SeatingError, match=message):
        validate_sizes(9, sizes)


def test_six_players_preferring_four_sit_at_two_tables_of_three_everywhere():
    """SEATING.md section 1 is written once: the draw and the knockout stages agree, also where
    the two used to differ (6 players preferring 4: 3+3, not one table of 6)."""
    assert table_sizes(6, 4).sizes == (3, 3)
    assert table_sizes(6, 4).fallback is True
    for prefer in (4, 5):
        for n in range(3, 120):
            assert list(table_sizes(n, prefer).sizes) == rule_sizes(n, prefer)
