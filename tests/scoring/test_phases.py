"""scoring.phases: table sizes, knockout stages and the order of knocked-out players (no database)."""
import pytest

from scoring import Game, PlayerResult
from scoring.errors import InvalidParams
from scoring.phases import Stage, deal, draw_tables, knockout_order, knockout_stages, semifinal_tables, table_sizes
from scoring.standings import semifinal_plans


def _game(round_, table, tps):
    """tps: {player: table points}; higher wins."""
    return Game(round_, table, [PlayerResult(p, tp) for p, tp in tps.items()])


def test_table_sizes_prefer_four_then_fives():
    assert [table_sizes(n, 4) for n in (12, 13, 18)] == [[4, 4, 4], [5, 4, 4], [5, 5, 4, 4]]


def test_table_sizes_prefer_five_then_fours():
    assert [table_sizes(n, 5) for n in (13, 14, 25)] == [[5, 4, 4], [5, 5, 4], [5, 5, 5, 5, 5]]


def test_table_sizes_fall_back_to_threes_and_sixes():
    assert [table_sizes(6, 4), table_sizes(6, 5), table_sizes(7, 4), table_sizes(11, 4)] == \
        [[3, 3], [6], [4, 3], [4, 4, 3]]


def test_table_sizes_refuse_fewer_than_three_players():
    with pytest.raises(InvalidParams):
        table_sizes(2, 4)


def test_knockout_stages_without_second_chance_follow_seed_004():
    assert knockout_stages(64, 4) == [Stage("knockout", 64, 16), Stage("semifinal", 16, 4), Stage("final", 4, 1)]
    assert knockout_stages(125, 5) == [Stage("knockout", 125, 25), Stage("semifinal", 25, 5), Stage("final", 5, 1)]


def test_knockout_stages_with_second_chance_follow_seed_004():
    assert knockout_stages(37, 4, second_chance=True) == [
        Stage("knockout", 37, 9), Stage("second_chance", 28, 7), Stage("semifinal", 16, 4), Stage("final", 4, 1)]
    assert knockout_stages(69, 5, second_chance=True) == [
        Stage("knockout", 69, 14), Stage("second_chance", 55, 11), Stage("semifinal", 25, 5), Stage("final", 5, 1)]


def test_knockout_stages_refuse_a_final_of_two():
    with pytest.raises(InvalidParams) as exc:
        knockout_stages(8, 4)
    assert exc.value.context == {"players": 8, "advancing": 2}


def test_draw_tables_same_seed_same_tables():
    ids = list(range(1, 17))
    assert draw_tables(ids, 4, seed=5) == draw_tables(list(reversed(ids)), 4, seed=5)
    assert sorted(p for t in draw_tables(ids, 4, seed=5) for p in t) == ids
    assert [len(t) for t in draw_tables(ids[:13], 4, seed=1)] == [5, 4, 4]


def test_deal_refuses_sizes_that_do_not_add_up():
    with pytest.raises(InvalidParams):
        deal([1, 2, 3, 4], [3, 3])


def test_knockout_order_ranks_later_knockouts_first_then_place():
    first = [_game(1, 1, {"A": 80, "B": 60, "C": 40, "D": 20}), _game(1, 2, {"E": 80, "F": 60, "G": 40, "H": 20})]
    semi = [_game(2, 1, {"A": 50, "E": 70, "X": 10})]
    order = knockout_order([first, semi], finalists=["E"])
    assert [p for p, _rank in order] == ["A", "X", "B", "F", "C", "G", "D", "H"]
    ranks = [rank for _p, rank in order]
    assert ranks[2] == ranks[3] and ranks[0] != ranks[1] != ranks[2]


def test_semifinal_tables_follow_the_plan_of_seed_004():
    order = [f"P{i}" for i in range(1, 21)]
    seeded, tables = semifinal_tables(order, semifinal_plans(20)[0])
    assert seeded == ["P1"]
    assert sorted(p for t in tables for p in t) == sorted(f"P{i}" for i in range(2, 13))
    seeded, tables = semifinal_tables(order, semifinal_plans(20)[1])
    assert (seeded, len(tables)) == (["P1", "P2"], 2)
