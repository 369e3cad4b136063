"""Validation of a game result (SCORING.md section 2).

Each rule raises `InvalidResult` with a one-line message such as
"round 2 table 3 player B: eliminated players hold 0 table points", the player and the field at
fault, and a stable `code` for translations. Rules are checked in the order of section 2 and the
first failure wins, so the same input always gives the same message.
"""
from __future__ import annotations

from decimal import Decimal

from .errors import InvalidResult
from .modifiers import final_elimination_orders
from .numeric import CENT, ENGINE_CONTEXT, HUNDRED, ZERO

MIN_PLAYERS = 3
MAX_PLAYERS = 6
MAX_TABLE_POINTS = Decimal(200)
MAX_PENALTY = Decimal(10_000)  # above any game's points: a penalty this large voids a result


class Entry:
    """A checked player result, normalised for placement (disqualification applied). Placing the
    table (scoring.placement) fills in its rank, position and group: the entry is then the seat."""
    __slots__ = ("player", "tp", "risiko", "eliminated", "place", "penalty", "void", "rank", "position", "group")

    def __init__(self, player, tp, risiko, eliminated, place, penalty, void=False):
        self.player = player
        self.tp = tp              # counted TP: 100 with RisiKo!, 0 when eliminated
        self.risiko = risiko
        self.eliminated = eliminated
        self.place = place        # the place given by the arbiter, if any
        self.penalty = penalty
        self.void = void

    def __repr__(self):
        return f"Seat({self.player!r}, rank={getattr(self, 'rank', None)}, tp={self.tp})"


def _whole(value) -> bool:
    return isinstance(value, int) and type(value) is not bool


def _fail(game, detail, code, player=None, field=None, **context):
    raise InvalidResult(detail, code=code, round=game.round, table=game.table, player=player,
                        field=field, context=context)


# Amounts already found valid, per maximum, by numeric value (validity depends on the value alone:
# equal Decimals such as 5, 5.0 and 5.00 pass or fail together); a season repeats the same values.
_VALID_AMOUNTS: dict = {}
_VALID_AMOUNTS_MAX = 20_000


def _valid_amounts(maximum):
    valid = _VALID_AMOUNTS.get(maximum)
    if valid is None:
        valid = _VALID_AMOUNTS[maximum] = set()
    return valid


def _check_amount(game, player, value, field, label, maximum, verb):
    valid = _valid_amounts(maximum)
    if type(value) is Decimal and value.is_finite() and value in valid:
        return
    if not isinstance(value, Decimal):
        _fail(game, f"{label} must be a number", f"{field}_type", player, field)
    if not value.is_finite():
        _fail(game, f"{label} must be a finite number", f"{field}_type", player, field)
    if value < 0:
        _fail(game, f"{label} cannot be negative", f"{field}_negative", player, field)
    if value > maximum:
        _fail(game, f"{label} cannot exceed {maximum}", f"{field}_too_high", player, field, maximum=maximum)
    if value.quantize(CENT, context=ENGINE_CONTEXT) != value:
        _fail(game, f"{label} {verb} at most 2 decimals", f"{field}_decimals", player, field)
    if type(value) is Decimal and len(valid) < _VALID_AMOUNTS_MAX:
        valid.add(value)


def check_game(game) -> list[Entry]:
    """Check every rule of SCORING.md section 2 except place consistency (see placement).

    Returns the players as entries in input order, with disqualified players turned into the
    first eliminated (seed 004 casebook) and RisiKo! counted as 100 TP.
    """
    if not _whole(game.round) or game.round < 0:
        raise InvalidResult("round must be a whole number of at least 0", code="round_type",
                            field="round", location=f"game round {game.round!r}")
    if not _whole(game.table) or game.table < 0:
        raise InvalidResult("table must be a whole number of at least 0", code="table_type",
                            field="table", location=f"round {game.round} table {game.table!r}")
    players = game.players
    n = len(players)
    if not MIN_PLAYERS <= n <= MAX_PLAYERS:
        _fail(game, f"a table has {MIN_PLAYERS} to {MAX_PLAYERS} players, this one has {n}",
              "table_size", field="players", players=n)

    seen = set()
    valid_tp = _valid_amounts(MAX_TABLE_POINTS)
    valid_penalty = _valid_amounts(MAX_PENALTY)
    for p in players:
        pid = getattr(p, "id", None)
        if (pid.__class__ is not str or pid == "") and (
                pid is None or type(pid) is bool or not _hashable(pid) or pid == ""):
            _fail(game, "player id must be a non-empty string or a whole number", "player_id",
                  field="id")
        if pid in seen:
            _fail(game, "listed twice at the same table", "duplicate_player", pid, "id")
        seen.add(pid)
        if type(p.disqualified) is not bool:
            _fail(game, "disqualified must be true or false", "disqualified_type", pid, "disqualified")
        if type(p.void) is not bool:
            _fail(game, "void must be true or false", "void_type", pid, "void")
        if type(p.risiko) is not bool:
            _fail(game, "risiko must be true or false", "risiko_type", pid, "risiko")
        value = p.table_points  # most amounts were seen valid before: one set lookup
        if not (value.__class__ is Decimal and value.is_finite() and value in valid_tp):
            _check_amount(game, pid, value, "table_points", "table points", MAX_TABLE_POINTS, "have")
        if p.eliminated is not None and (not _whole(p.eliminated) or p.eliminated < 1):
            _fail(game, "the elimination order must be a whole number from 1", "eliminated_type", pid,
                  "eliminated")
        if p.place is not None and (not _whole(p.place) or not 1 <= p.place <= n):
            _fail(game, f"place must be a whole number from 1 to {n}", "place_type", pid, "place", players=n)
        value = p.penalty
        if not (value.__class__ is Decimal and value.is_finite() and value in valid_penalty):
            _check_amount(game, pid, value, "penalty", "penalty", MAX_PENALTY, "has")

    # A disqualified player's own record (RisiKo!, TP) no longer counts.
    counted = [p for p in players if not p.disqualified]
    recorded = [p for p in players if p.eliminated is not None]
    if any(p.risiko for p in counted):
        risiko_seen = None
        for p in counted:
            if p.risiko:
                if risiko_seen is not None:
                    _fail(game, "only one player per table can make RisiKo!", "risiko_twice", p.id, "risiko")
                risiko_seen = p
        for p in counted:
            if p.risiko and p.eliminated is not None:
                _fail(game, "the RisiKo! player cannot be eliminated", "risiko_eliminated", p.id, "eliminated")
    for p in recorded:
        if p.table_points != 0 and not p.disqualified:
            _fail(game, "eliminated players hold 0 table points", "eliminated_table_points", p.id,
                  "table_points")

    k = len(recorded)
    used = set()
    for p in recorded:
        if p.eliminated > k or p.eliminated in used:
            _fail(game, f"elimination orders must run 1..{k} without gaps or repeats",
                  "elimination_order", p.id, "eliminated", eliminated=k)
        used.add(p.eliminated)

    if k == n or (len(counted) < n and all(p.disqualified or p.eliminated is not None for p in players)):
        _fail(game, "at least one player must not be eliminated", "all_eliminated", field="eliminated")

    orders = final_elimination_orders(players)
    entries = []
    for p in players:
        order = orders.get(p.id)
        if order is not None:
            tp, risiko = ZERO, False
        elif p.risiko:
            tp, risiko = HUNDRED, True
        else:
            tp, risiko = p.table_points, False
        entries.append(Entry(p.id, tp, risiko, order, p.place, p.penalty, p.void))
    return entries


def _hashable(value) -> bool:
    try:
        hash(value)
    except TypeError:
        return False
    return True
