"""scoring.table_result.settle_table: one table's entered result filled, checked and placed in one call."""
from decimal import Decimal

import pytest

from scoring.errors import ScoringError
from scoring.table_result import EnteredResult as E
from scoring.table_result import settle_table


def _by_id(settled):
    return {line.id: (line.table_points, line.place) for line in settled.lines}


def test_ticked_territories_give_the_table_points_and_typed_points_win():
    settled = settle_table(1, 2, [E("a", territories=("Brasile", "Perù")), E("b", table_points=Decimal(9),
                                                                           territories=("Cina",)),
                                  E("c", eliminated=1), E("d", risiko=True)])
    assert _by_id(settled) == {"a": (Decimal(7), None), "b": (Decimal(9), None), "c": (Decimal(0), None),
                               "d": (Decimal(0), None)}
    assert [line.id for line in settled.lines] == ["a", "b", "c", "d"]
    assert settled.game.round == 1 and settled.game.table == 2
    assert settled.placement == settled.game.placement


def test_a_blank_survivor_is_a_missing_result_naming_the_player():
    with pytest.raises(ScoringError) as exc:
        settle_table(1, 1, [E("a", table_points=Decimal(10)), E("b"), E("c", eliminated=1)])
    assert (exc.value.code, exc.value.player, exc.value.field) == ("table_points_missing", "b", "table_points")


def test_a_territory_ticked_twice_is_refused():
    with pytest.raises(ScoringError) as exc:
        settle_table(1, 1, [E("a", territories=("Perù",)), E("b", territories=("Perù", "Cina")), E("c", eliminated=1)])
    assert exc.value.code == "territory_twice" and exc.value.player == "b" and exc.value.context["other"] == "a"


def test_armies_place_players_level_on_points_but_never_over_a_typed_place():
    level = [E("a", table_points=Decimal(20), armies=5), E("b", table_points=Decimal(20), armies=9),
             E("c", table_points=Decimal(30)), E("d", eliminated=1)]
    assert _by_id(settle_table(1, 1, level))["a"] == (Decimal(20), 3)
    assert _by_id(settle_table(1, 1, level))["b"] == (Decimal(20), 2)
    typed = [E("a", table_points=Decimal(20), armies=5, place=2), E("b", table_points=Decimal(20), armies=9, place=3),
             E("c", table_points=Decimal(30)), E("d", eliminated=1)]
    assert {k: v[1] for k, v in _by_id(settle_table(1, 1, typed)).items()} == {"a": 2, "b": 3, "c": None, "d": None}


def test_a_risiko_moves_the_army_places_down_by_one():
    settled = settle_table(1, 1, [E("r", risiko=True), E("a", table_points=Decimal(20), armies=1),
                                  E("b", table_points=Decimal(20), armies=4), E("c", eliminated=1)])
    assert {line.id: line.place for line in settled.lines} == {"r": None, "a": 3, "b": 2, "c": None}


def test_the_engine_validates_the_settled_game():
    with pytest.raises(ScoringError) as exc:
        settle_table(1, 1, [E("a", table_points=Decimal(10), eliminated=1), E("b", table_points=Decimal(5)),
                            E("c", table_points=Decimal(3))])
    assert exc.value.code == "eliminated_table_points"
