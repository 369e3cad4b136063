"""Seed 000 rule 4: from 9 players present, table 1 is exactly the current top five."""
import pytest

from tables.seating import Player, SeatingError, SeatingRequest, seat_round
from tables.seating.como import como_sizes

from .helpers import roster


def ids(*numbers):
    return [f"P{n:02d}" for n in numbers]


@pytest.mark.parametrize("n, prefer, sizes", [
    (9, 5, (5, 4)), (10, 5, (5, 5)),
    (11, 5, (5, 6)), (11, 4, (5, 3, 3)),
    (12, 5, (5, 4, 3)), (12, 4, (5, 4, 3)),
    (13, 5, (5, 4, 4)), (14, 5, (5, 5, 4)),
    (16, 5, (5, 6, 5)), (16, 4, (5, 4, 4, 3)),
    (23, 5, (5, 5, 5, 4, 4)),
])
def test_como_sizes_keep_table_one_at_five(n, prefer, sizes):
    assert como_sizes(n, prefer).sizes == sizes


def test_como_sizes_say_when_tables_of_three_or_six_are_used():
    assert como_sizes(11, 4).message == "11 players with the top 5 at table 1: 3-player tables are used (5+3+3)"
    assert como_sizes(13, 5).message is None


def test_como_sizes_need_nine_players():
    with pytest.raises(SeatingError) as exc:
        como_sizes(8)
    assert exc.value.code == "como_too_few"


@pytest.mark.parametrize("n, prefer", [(9, 5), (11, 5), (11, 4), (12, 5), (16, 5), (16, 4), (21, 4)])
def test_seeded_top_puts_exactly_the_top_five_at_table_one(n, prefer):
    # Ranks from the bottom up, so that the top five are not simply the first five of the input.
    players = [Player(f"P{i:02d}", None, n + 1 - i) for i in range(1, n + 1)]
    result = seat_round(SeatingRequest(players=players, method="seeded_top", table_size=prefer, seed=3,
                                       time_limit_s=60))
    assert result.tables[0] == [f"P{i:02d}" for i in range(n, n - 5, -1)]
    assert [len(t) for t in result.tables] == list(como_sizes(n, prefer).sizes)


def test_seeded_top_with_ties_at_the_cut_draws_among_the_tied():
    """Two players share 5th place: one of them, by the seed, completes table 1."""
    players = [Player(f"P{i:02d}", None, min(i, 5)) for i in range(1, 12)]
    fifths = set()
    for seed in range(6):
        result = seat_round(SeatingRequest(players=players, method="seeded_top", table_size=5, seed=seed,
                                           time_limit_s=60))
        assert result.tables[0][:4] == ids(1, 2, 3, 4) and len(result.tables[0]) == 5
        fifths.add(result.tables[0][4])
    assert fifths <= set(ids(*range(5, 12))) and len(fifths) > 1


def test_seeded_top_refuses_organiser_sizes_that_change_table_one():
    with pytest.raises(SeatingError) as exc:
        seat_round(SeatingRequest(players=roster(11, ranked=True), method="seeded_top", sizes=[6, 5]))
    assert (exc.value.code, exc.value.context) == ("como_top_size", {"size": 6})
    result = seat_round(SeatingRequest(players=roster(11, ranked=True), method="seeded_top", sizes=[5, 3, 3],
                                       time_limit_s=60))
    assert result.tables[0] == ids(1, 2, 3, 4, 5)


def test_seeded_top_without_standings_says_so_and_draws_at_random():
    players = roster(12, club_size=3)
    result = seat_round(SeatingRequest(players=players, method="seeded_top", table_size=5, seed=1,
                                       time_limit_s=60))
    assert result.notices == [("no_standings", {})]
    # The random draw's sizes (12 preferring 5: 4+4+4), clubs kept apart; no top table of five.
    assert [len(t) for t in result.tables] == [4, 4, 4]
    assert result.penalties.same_club_pairs == 0
