"""SCORING.md section 8: territory values and the table-points calculator."""
import json

import pytest

from scoring import InvalidResult
from scoring.territories import (DATA, continents, table_points_from_territories, territories,
                                 territories_by_continent, territory)
from tests.shared_dir import shared_file


def test_territories_are_the_42_of_tab_d():
    assert len(territories()) == 42
    assert sum(t.value for t in territories()) == 164


def test_territories_data_is_the_shared_file():
    shared = shared_file("territories.json")
    assert json.loads(DATA.read_text(encoding="utf-8")) == json.loads(shared.read_text(encoding="utf-8"))


def test_territories_grouped_by_continent():
    groups = territories_by_continent()
    assert {k: len(v) for k, v in groups.items()} == {
        "nord_america": 9, "sud_america": 4, "europa": 7, "africa": 6, "asia": 12, "oceania": 4}
    assert continents()["asia"].bonus_armies == 7


def test_table_points_sum_ticked_territories_by_continent():
    total = table_points_from_territories(["Cina", "Medio Oriente", "perù", "Cina"])
    assert total.total == 16
    assert total.by_continent["asia"] == 13 and total.by_continent["sud_america"] == 3
    assert [t.name for t in total.territories] == ["Perù", "Cina", "Medio Oriente"]


def test_table_points_of_nothing_is_zero():
    assert table_points_from_territories([]).total == 0


def test_territory_lookup_ignores_case_accents_and_spaces():
    assert territory("  africa   del nord ").value == 6


def test_unknown_territory_is_rejected():
    with pytest.raises(InvalidResult) as info:
        table_points_from_territories(["Atlantide"])
    assert str(info.value) == "unknown territory 'Atlantide'"
    assert info.value.field == "territories"
