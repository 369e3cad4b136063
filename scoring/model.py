"""Plain immutable data passed in and out of the engine (no database, no Django)."""
from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from functools import cached_property
from typing import Hashable, Mapping, NamedTuple

from .errors import InvalidParams
from .numeric import CENT, ENGINE_CONTEXT, ZERO, coerce_number
from .placement import compute_placement

PlayerId = Hashable  # str in the JSON contract; the web adapter may use integer primary keys

TIEBREAKS = ("best_results", "wins", "table_points", "head_to_head", "previous_round")
# Club variants (SCORING.md section 13): each is None unless given, and a formula it does not apply to
# refuses it (scoring.formulas.base.Formula.check_params).
CLUB_PARAMETERS = ("corrective_scope", "risiko_total", "spartaco_risiko_losers", "standard_eliminated")
CORRECTIVE_SCOPES = ("score", "table_points")
SPARTACO_RISIKO_LOSERS = ("flat", "own_tp")
STANDARD_ELIMINATED = ("order", "position")
MEDAL_PLACES = 5  # medagliere counts places 1..5


@dataclass(frozen=True)
class PlayerResult:
    """One player's result at one table, as recorded by the arbiter (SCORING.md section 2).

    table_points: TP, >= 0, at most 2 decimals; 0 when eliminated. Ignored (counts 100) with risiko.
    eliminated: None, or the elimination order (1 = first eliminated).
    place: optional explicit place, only used to break a tie in TP among survivors.
    penalty: arbiter's penalty on this game, in points (seed 001 art. 20).
    disqualified: excluded from the game: treated as the first eliminated (seed 004 casebook).
    void: the game does not count for this player (a forfeit, a voided result): an absence in that
        round (section 5): 0 points, no win, no place, no TP; the others' placement is unchanged.
    """
    id: PlayerId
    table_points: Decimal = ZERO
    risiko: bool = False
    eliminated: int | None = None
    place: int | None = None
    penalty: Decimal = ZERO
    disqualified: bool = False
    void: bool = False

    def __post_init__(self):
        # Numbers arrive as int, float or Decimal; other types are left for validation to report.
        object.__setattr__(self, "table_points", coerce_number(self.table_points))
        object.__setattr__(self, "penalty", coerce_number(ZERO if self.penalty is None else self.penalty))


@dataclass(frozen=True)
class Game:
    """One table of one round."""
    round: int
    table: int
    players: tuple[PlayerResult, ...]

    def __post_init__(self):
        object.__setattr__(self, "players", tuple(self.players))

    @cached_property
    def placement(self):
        """The validated placement (SCORING.md section 3), computed once per game."""
        return compute_placement(self)


class Absence(NamedTuple):
    """A player absent or losing by forfeit in a round: scores 0, counts as a played result."""
    round: int
    player: PlayerId


def _is_whole(value) -> bool:
    return isinstance(value, int) and type(value) is not bool


def _param_amount(value, name: str, maximum: int) -> Decimal:
    value = coerce_number(value)
    if (not isinstance(value, Decimal) or not value.is_finite() or value < 0 or value > maximum
            or value.quantize(CENT, context=ENGINE_CONTEXT) != value):
        raise InvalidParams(f"{name} must be a number from 0 to {maximum} with at most 2 decimals",
                            field=name, context={"maximum": maximum})
    return value


def _check_choice(value, name: str, choices: tuple[str, ...]) -> None:
    if value is not None and (not isinstance(value, str) or value not in choices):
        raise InvalidParams(f"{name} must be one of: {', '.join(choices)}", field=name,
                            context={"choices": choices})


@dataclass(frozen=True)
class Params:
    """Tournament parameters (SCORING.md sections 4-6); every one is optional.

    discard_worst: drop each player's k lowest results.
    best_of: count only the N highest results (Como: best 3 of 4).
    como_reference: when set, multiply each game's points by n / reference (seed 000, rule 5).
    tiebreak: chain of "best_results", "wins", "table_points", "head_to_head", "previous_round";
        empty = ties share.
    bonus: winner's bonus of bonus50 and vittorie.
    spartaco_malus: what every loser loses to a RisiKo! under spartaco.
    tournament_penalties: player -> points taken off the total (never below 0).

    Club variants (section 13), None when not given (today's rule applies):
    corrective_scope: "score" (section 5) or "table_points" (13.1: the Como factor scales the table
        points before the formula); needs como_reference.
    risiko_total: a RisiKo! winner's exact points under bonus50, vittorie, punti_tavolo (13.2).
    spartaco_risiko_losers: "flat" (100 - malus) or "own_tp" (their own TP) after a RisiKo! (13.3).
    standard_eliminated: "order" (elimination order) or "position" (5 - final place, 13.6).
    """
    discard_worst: int = 0
    best_of: int | None = None
    como_reference: int | None = None
    tiebreak: tuple[str, ...] = ()
    bonus: Decimal = Decimal(50)
    spartaco_malus: Decimal = Decimal(14)
    tournament_penalties: Mapping[PlayerId, Decimal] = field(default_factory=dict)
    corrective_scope: str | None = None
    risiko_total: Decimal | None = None
    spartaco_risiko_losers: str | None = None
    standard_eliminated: str | None = None

    def __post_init__(self):
        if not _is_whole(self.discard_worst) or self.discard_worst < 0:
            raise InvalidParams("discard_worst must be a whole number of at least 0", field="discard_worst")
        if self.best_of is not None and (not _is_whole(self.best_of) or self.best_of < 1):
            raise InvalidParams("best_of must be empty or a whole number of at least 1", field="best_of")
        if self.como_reference is not None and (not _is_whole(self.como_reference)
                                                or not 3 <= self.como_reference <= 6):
            raise InvalidParams("como_reference must be empty or a table size from 3 to 6",
                                field="como_reference")
        chain = self.tiebreak
        if isinstance(chain, str) or not isinstance(chain, (list, tuple)):
            raise InvalidParams(f"tiebreak must be a list of: {', '.join(TIEBREAKS)}", field="tiebreak")
        for name in chain:
            if name not in TIEBREAKS:
                raise InvalidParams(f"unknown tie-break {name!r} (known: {', '.join(TIEBREAKS)})",
                                    field="tiebreak", code="unknown_tiebreak", context={"tiebreak": name})
        object.__setattr__(self, "tiebreak", tuple(chain))
        object.__setattr__(self, "bonus", _param_amount(self.bonus, "bonus", 1000))
        object.__setattr__(self, "spartaco_malus", _param_amount(self.spartaco_malus, "spartaco_malus", 100))
        if not isinstance(self.tournament_penalties, Mapping):
            raise InvalidParams("tournament_penalties must map players to points", field="tournament_penalties")
        penalties = {}
        for player, amount in self.tournament_penalties.items():
            try:
                penalties[player] = _param_amount(amount, "tournament_penalties", 100_000)
            except InvalidParams as exc:
                raise InvalidParams(f"tournament penalty of player {player}: {exc.detail}",
                                    field="tournament_penalties", context={"player": player}) from None
        object.__setattr__(self, "tournament_penalties", penalties)  # a private copy
        _check_choice(self.corrective_scope, "corrective_scope", CORRECTIVE_SCOPES)
        if self.corrective_scope is not None and self.como_reference is None:
            raise InvalidParams("corrective_scope needs como_reference (the reference table size)",
                                field="corrective_scope", code="corrective_scope_without_reference")
        if self.risiko_total is not None:
            object.__setattr__(self, "risiko_total", _param_amount(self.risiko_total, "risiko_total", 1000))
        _check_choice(self.spartaco_risiko_losers, "spartaco_risiko_losers", SPARTACO_RISIKO_LOSERS)
        _check_choice(self.standard_eliminated, "standard_eliminated", STANDARD_ELIMINATED)

    def __hash__(self):
        return hash((self.discard_worst, self.best_of, self.como_reference, self.tiebreak, self.bonus,
                     self.spartaco_malus, tuple(sorted(self.tournament_penalties.items(), key=repr)),
                     self.corrective_scope, self.risiko_total, self.spartaco_risiko_losers,
                     self.standard_eliminated))


DEFAULT_PARAMS = Params()


class PlayerScore(NamedTuple):
    """One player's points for one game, step by step (formula, Como corrective, penalty)."""
    player: PlayerId
    place: int                 # competition rank at the table (shared places repeat)
    table_points: Decimal      # counted TP: 100 with RisiKo!, 0 when eliminated
    formula_points: Decimal    # what the formula gives
    corrected_points: Decimal  # after the Como corrective (equal to formula_points without it)
    penalty: Decimal           # arbiter's penalty on this game
    points: Decimal            # final: corrected - penalty, never below 0
    eliminated: int | None     # elimination order after disqualifications
    risiko: bool
    void: bool = False         # an absence (forfeit): points 0, no win, place or TP in the standings


@dataclass(frozen=True)
class GameScore:
    """A game's points; players listed in placement order (shared places by id).

    The engine builds a score with its placed seats and their points (formula's, after the Como
    corrective, final) instead of `players`: the PlayerScore of each seat is made when `players`
    is first read, and `points` and `places` are read without it. Standings need only the points,
    so scoring a season under every formula does not make the some 40,000 PlayerScores per formula
    nobody reads."""
    round: int
    table: int
    players: tuple[PlayerScore, ...]
    como_factor: tuple[int, int] | None = None  # (n, reference) when the corrective applied

    def __getattr__(self, name):
        # Reached only for what the instance does not hold: `players` of a score built as seats.
        if name == "players":
            seats = self.__dict__.get("_seats")
            if seats is not None:
                players = self.__dict__["players"] = tuple([
                    _new_tuple(PlayerScore, (seat.player, seat.rank, seat.tp, value, corrected, seat.penalty, final,
                                             seat.eliminated, seat.risiko, seat.void))
                    for seat, value, corrected, final in zip(*seats)])
                return players
        raise AttributeError(name)

    @property
    def points(self) -> dict:
        if "players" not in self.__dict__ and "_seats" in self.__dict__:
            seats, _values, _corrected, finals = self._seats
            return {seat.player: final for seat, final in zip(seats, finals)}
        return {p.player: p.points for p in self.players}

    @property
    def places(self) -> dict:
        if "players" not in self.__dict__ and "_seats" in self.__dict__:
            return {seat.player: seat.rank for seat in self._seats[0]}
        return {p.player: p.place for p in self.players}


# PlayerScore's fields in order, built as the tuple it is (its keyword-checking constructor, called
# some 500,000 times for a season's 12 formulas, costs twice as much).
_new_tuple = tuple.__new__


@dataclass(frozen=True)
class StandingRow:
    """A row of the standings (SCORING.md section 6)."""
    rank: int
    player: PlayerId
    total: Decimal                 # exact, after discards and tournament penalty
    shown_total: Decimal           # rounded half-up to 2 decimals: what is compared and displayed
    wins: int                      # games won (place 1, shared or not), every game counts
    medals: tuple[int, ...]        # counts of places 1..5, every game counts
    results: tuple[Decimal, ...]   # every result in round order (absences count 0)
    counted: tuple[Decimal, ...]   # the results kept after discards / best_of, best first
    table_points: Decimal          # total counted TP over every game
    games: int                     # results including absences
    penalty: Decimal = ZERO        # tournament-level penalty applied to the total


@dataclass(frozen=True)
class Result:
    """What `score_tournament` returns."""
    formula: str
    params: Params
    games: tuple[GameScore, ...]
    standings: tuple[StandingRow, ...]
