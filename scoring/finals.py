"""Parallel finals with shared ranks (SCORING.md 13.9; GestioneTorneo manual, Raduno).

Above 76 players a Raduno plays k finals at once: the players are split into k parallel groups, each
plays its own semifinals and final, and the players who finish in the same place of their final
share the rank. `finals_standings` ranks them; `semifinal_groups` fills the groups.
`python -m scoring finals` is its machine contract.
"""
from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass

from .contract import is_player_id, is_whole, parse_players
from .errors import InvalidDocument, ScoringError
from .model import Game
from .numeric import engine_context
from .placement import id_key

SEATS_PER_GROUP = 16  # 4 semifinals of 4 players per group
# 13.9: the club program's `soglieRaduni` (k = 1 up to 76 participants, 2 up to 116, ..., 5 above 196).
FINALS_THRESHOLDS = (76, 116, 156, 196)


@dataclass(frozen=True)
class FinalsRow:
    """A row of the final order: `final` and `place` for a finalist, None for everyone else."""
    rank: int
    player: object
    final: int | None = None
    place: int | None = None


def _err(message, code="finals", **kw):
    return InvalidDocument(message, code=code, **kw)


def finals_count(participants: int) -> int:
    """13.9: the number k of parallel finals for this many participants."""
    return 1 + sum(1 for threshold in FINALS_THRESHOLDS if participants > threshold)


def semifinal_groups(order, finals: int, seats_per_group: int = SEATS_PER_GROUP) -> list[list]:
    """13.9.1 (GestioneTorneo: "posizioni 1, 4, 7, ... (multipli di 3 più 1) faranno parte di un
    insieme"): the first `seats_per_group` x `finals` candidates of the qualifying order (present
    ones, in candidate order), the i-th (from 0) to group (i mod finals) + 1."""
    chosen = list(order)[:seats_per_group * finals]
    return [chosen[g::finals] for g in range(finals)]


def finals_standings(finals, others) -> list[FinalsRow]:
    """13.9.2: each final is placed as a table (section 3); a finalist's rank is 1 + the number of
    finalists of every final with a strictly better place (k winners share rank 1, the seconds rank
    k + 1, ...). Everyone else follows: F + their rank among `others` (F finalists).

    `finals`: Game objects, the final's number as `table`, numbered 1..k; `others`: (rank, player)
    of the other players' standings (section 6), a competition ranking."""
    numbers = sorted(game.table for game in finals)
    if not numbers or numbers != list(range(1, len(numbers) + 1)):
        raise _err(f"finals must be numbered 1 to k, not {numbers}", code="finals_numbers", field="final")
    placed, seen = [], set()
    with engine_context():
        for game in finals:
            try:
                seats = game.placement.seats
            except ScoringError as exc:
                raise exc.at(f"final {game.table}") from None
            for seat in seats:
                if seat.player in seen:
                    raise _err("plays in more than one final", code="finals_player_twice", field="players",
                               location=f"final {game.table} player {seat.player}")
                seen.add(seat.player)
                placed.append((seat.rank, seat.player, game.table))
    places = sorted(place for place, _, _ in placed)
    rows = [FinalsRow(1 + bisect_left(places, place), player, final, place) for place, player, final in placed]
    rows.sort(key=lambda r: (r.rank, id_key(r.player)))

    finalists = len(rows)
    ranks = []
    for rank, player in others:
        if player in seen:
            raise _err("is listed twice (among the finalists or the others)", code="finals_player_twice",
                       field="others", location=f"player {player}")
        seen.add(player)
        ranks.append(rank)
    _check_ranking(sorted(ranks))
    rows.extend(sorted((FinalsRow(finalists + rank, player) for rank, player in others),
                       key=lambda r: (r.rank, id_key(r.player))))
    return rows


def _check_ranking(ranks):
    for i, rank in enumerate(ranks):
        if rank != i + 1 and not (i > 0 and rank == ranks[i - 1]):
            raise _err(f"the ranks of others {ranks} are not a competition ranking (1, 1, 3, ...)",
                       code="finals_ranks", field="others")


# --- the JSON contract of `python -m scoring finals` --------------------------------------------

def parse_finals_document(doc):
    """Input document -> ([Game], [(rank, player)], groups request or None); raises InvalidDocument.

    groups request: (order, seats_per_group) of `semifinal_groups`."""
    if not isinstance(doc, dict):
        raise _err("the input must be a JSON object", code="shape")
    raw_finals = doc.get("finals")
    if not isinstance(raw_finals, list):
        raise _err("finals must be a list", code="shape", field="finals")
    id_types, finals = set(), []
    for i, raw in enumerate(raw_finals, 1):
        if not isinstance(raw, dict) or not is_whole(raw.get("final")) or raw["final"] < 1:
            raise _err(f"final {i} must be an object with a whole number final of at least 1",
                       code="shape", field="final")
        number = raw["final"]
        if any(game.table == number for game in finals):
            raise _err(f"two finals are numbered {number}", code="finals_numbers", field="final")
        try:
            players = parse_players(raw.get("players"), 1, number, id_types)
        except ScoringError as exc:
            raise exc.at(f"final {number}") from None
        finals.append(Game(1, number, players))

    raw_others = doc.get("others")
    if raw_others is None:
        raw_others = []
    if not isinstance(raw_others, list):
        raise _err("others must be a list", code="shape", field="others")
    others = []
    for j, row in enumerate(raw_others, 1):
        if not isinstance(row, dict) or not is_player_id(row.get("player")):
            raise _err(f"others row {j} must be an object with a player id", code="shape", field="others")
        if not is_whole(row.get("rank")) or row["rank"] < 1:
            raise _err(f"others row {j}: rank must be a whole number of at least 1", code="shape",
                       field="rank")
        id_types.add(type(row["player"]))
        others.append((row["rank"], row["player"]))
    if len(id_types) > 1:
        raise _err("player ids must be all strings or all whole numbers", code="shape", field="id")

    groups = doc.get("semifinal_groups")
    if groups is not None:
        if not isinstance(groups, dict) or not isinstance(groups.get("order"), list):
            raise _err("semifinal_groups must be an object with an order list", code="shape",
                       field="semifinal_groups")
        order = groups["order"]
        if not all(map(is_player_id, order)):
            raise _err("semifinal_groups order must list player ids", code="shape", field="order")
        id_types.update(map(type, order))
        if len(id_types) > 1:
            raise _err("player ids must be all strings or all whole numbers", code="shape", field="order")
        if len(set(order)) != len(order):
            raise _err("semifinal_groups order lists a player twice", code="finals_order_twice", field="order")
        seats = groups.get("seats_per_group")
        if seats is None:
            seats = SEATS_PER_GROUP
        if not is_whole(seats) or seats < 1:
            raise _err("seats_per_group must be a whole number of at least 1", code="shape",
                       field="seats_per_group")
        groups = (order, seats)
    return finals, others, groups


def finals_to_json(rows, groups=None) -> dict:
    standings = []
    for r in rows:
        row = {"rank": r.rank, "player": r.player}
        if r.final is not None:
            row.update(final=r.final, place=r.place)
        standings.append(row)
    out = {"standings": standings}
    if groups is not None:
        out["groups"] = groups
    return out
