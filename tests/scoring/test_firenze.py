"""SCORING.md 8.1: the Firenze points sheet and its tie-break (seed 003)."""
from decimal import Decimal

import pytest

from scoring import InvalidResult
from scoring.firenze import FirenzeRow, FirenzeSheet, firenze_order, firenze_points


def sheet(player, **counts):
    base = dict(objective_territories=10, adjacent_territories=3, other_territories=5,
                protected_territories=2, armies=41, cards=3)
    base.update(counts)
    return FirenzeSheet(player, **base)


def test_firenze_points_count_every_line_of_the_sheet():
    # 10 x 35 + 3 x 15 + 5 x 10 + 2 x 15 + 41 x 0.5 + 3 x 1
    assert firenze_points(sheet("A")) == Decimal("498.5")


def test_firenze_points_continents_worth_nothing_by_default():
    assert firenze_points(sheet("A", continents=2)) == Decimal("498.5")
    assert firenze_points(sheet("A", continents=2), continent_value=5) == Decimal("508.5")


def test_firenze_order_ties_go_to_objective_territories_then_territories():
    sheets = [
        sheet("A"),                                                    # 498.5, 10 objective
        sheet("B", objective_territories=11, adjacent_territories=0, armies=61),  # 498.5, 11 objective
        sheet("C", other_territories=6, armies=21),                   # 498.5, 10 objective, 19 held
        sheet("D", cards=2), sheet("E", cards=2),                     # 497.5, identical: a draw
    ]
    assert firenze_order(sheets) == [
        FirenzeRow(1, "B", Decimal("498.5")), FirenzeRow(2, "C", Decimal("498.5")),
        FirenzeRow(3, "A", Decimal("498.5")), FirenzeRow(4, "D", Decimal("497.5")),
        FirenzeRow(4, "E", Decimal("497.5"))]


def test_firenze_order_later_tie_breaks():
    a = sheet("A", unconquered_adjacent=2)
    b = sheet("B", unconquered_adjacent=3)
    c = sheet("C", unconquered_adjacent=3, protected_territories=1, armies=71)  # same points as B
    assert [r.player for r in firenze_order([a, b, c])] == ["B", "C", "A"]


@pytest.mark.parametrize("counts, message", [
    ({"armies": -1}, "player A: armies must be a whole number of at least 0"),
    ({"other_territories": 40}, "player A: a player holds at most 42 territories"),
    ({"protected_territories": 19}, "player A: protected territories are among the held ones"),
])
def test_firenze_rejects_impossible_counts(counts, message):
    with pytest.raises(InvalidResult) as info:
        firenze_points(sheet("A", **counts))
    assert str(info.value) == message
