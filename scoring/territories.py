"""The 42 territories and their values (Tab. D of seed 000, the box's victory points of seed 002),
and the table-points calculator (SCORING.md section 8)."""
from __future__ import annotations

import json
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Iterable

from .errors import InvalidResult

DATA = Path(__file__).resolve().parent / "data" / "territories.json"


@dataclass(frozen=True)
class Continent:
    key: str
    name: str
    bonus_armies: int


@dataclass(frozen=True)
class Territory:
    name: str
    continent: str  # continent key ("europa")
    value: int


@dataclass(frozen=True)
class TerritoryTotal:
    """Table points from ticked territories: the total and the subtotal of each continent."""
    total: int
    by_continent: dict            # continent key -> sum of the ticked territories' values
    territories: tuple[Territory, ...]


def _normalise(name: str) -> str:
    decomposed = unicodedata.normalize("NFKD", name)
    plain = "".join(c for c in decomposed if not unicodedata.combining(c))
    return " ".join(plain.casefold().split())


@lru_cache(maxsize=1)
def _load():
    data = json.loads(DATA.read_text(encoding="utf-8"))
    continents = {key: Continent(key, c["name"], c["bonus_armies"]) for key, c in data["continents"].items()}
    territories = tuple(Territory(t["name"], t["continent"], t["value"]) for t in data["territories"])
    index = {_normalise(t.name): t for t in territories}
    return continents, territories, index


def continents() -> dict[str, Continent]:
    """Continent key -> Continent, in the order of the data file."""
    return dict(_load()[0])


def territories() -> tuple[Territory, ...]:
    """The 42 territories."""
    return _load()[1]


def territories_by_continent() -> dict[str, tuple[Territory, ...]]:
    """Continent key -> its territories (for a calculator grouped by continent)."""
    out = {key: [] for key in _load()[0]}
    for t in territories():
        out[t.continent].append(t)
    return {key: tuple(ts) for key, ts in out.items()}


def territory(name: str) -> Territory:
    """A territory by name (case, accents and extra spaces are ignored: "peru" is "Perù")."""
    try:
        return _load()[2][_normalise(name)]
    except (KeyError, AttributeError, TypeError):
        raise InvalidResult(f"unknown territory {name!r}", code="unknown_territory", field="territories",
                            context={"territory": name}, location="") from None


def table_points_from_territories(names: Iterable[str]) -> TerritoryTotal:
    """Seed 000 art. 47 / Tab. D: sum the values of the ticked territories (each counted once).

    Ticking the objective territories a player holds gives their table points; ticking every held
    territory gives the box's Time Attack score (seed 002).
    """
    chosen = {}
    for name in names:
        t = territory(name)
        chosen[t.name] = t
    by_continent = {key: 0 for key in _load()[0]}
    for t in chosen.values():
        by_continent[t.continent] += t.value
    ordered = tuple(t for t in territories() if t.name in chosen)
    return TerritoryTotal(sum(by_continent.values()), by_continent, ordered)


def check_held_once(holdings) -> None:
    """One territory is held by one player: `holdings` maps each player of a table to the names of
    the territories ticked for them; a territory ticked for two players is refused (seed 002,
    Time Attack: each territory's victory points go to the one player who controls it)."""
    owner = {}
    for player, names in holdings.items():
        for name in names:
            t = territory(name)
            if t.name in owner and owner[t.name] != player:
                raise InvalidResult(f"{t.name} is ticked for two players", code="territory_twice",
                                    player=player, field="territories",
                                    context={"territory": t.name, "other": owner[t.name]}, location="")
            owner[t.name] = player


def places_by_armies(survivors, first_place: int = 1) -> dict:
    """Seed 002, Time Attack: "In caso di parità, vincerà il giocatore con il maggior numero di
    armate in campo". `survivors`: (player, territory sum, armies or None) of the players still on the
    board (not eliminated, no RisiKo!), `first_place` the place of the best of them. Returns the
    places decided by armies: for each group tied on the sum whose armies are all entered, more
    armies first; equal armies share the place (a further extra round is played at the table)."""
    ordered = sorted(survivors, key=lambda s: -s[1])
    places = {}
    i = 0
    while i < len(ordered):
        j = i + 1
        while j < len(ordered) and ordered[j][1] == ordered[i][1]:
            j += 1
        group = ordered[i:j]
        if len(group) > 1 and all(s[2] is not None for s in group):
            group = sorted(group, key=lambda s: -s[2])
            for k, (player, _sum, armies) in enumerate(group):
                shared = k and armies == group[k - 1][2]
                places[player] = places[group[k - 1][0]] if shared else first_place + i + k
        i = j
    return places
