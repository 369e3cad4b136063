"""The single entry point the web application calls: `score_tournament`."""
from __future__ import annotations

import gc
import threading
from contextlib import contextmanager
from typing import Iterable, Mapping, Sequence

from .errors import ScoringError
from .formulas import get_formula
from .formulas.base import locate
from .model import DEFAULT_PARAMS, Absence, Game, GameScore, Params, Result
from .modifiers import FORFEIT_POINTS, apply_penalty, table_points_corrective
from .numeric import engine_context
from .placement import with_table_points
from .standings import Prepared, standings_from


def _score(formula, game: Game, params: Params, points=None) -> GameScore:
    """The game's points under `formula`; each seat's final points are also appended to `points`
    (a list), in placement order, when given."""
    return _score_all(formula, (game,), params, [] if points is None else points)[0]


def _score_in_steps(formula, game: Game, params: Params, points) -> GameScore:
    """A table with a penalty, an absence or the Como corrective: each player's points step by step."""
    placement = game.placement
    seats = placement.seats
    reference = params.como_reference
    n = placement.n
    corrective = reference is not None and n != reference
    if corrective and params.corrective_scope == "table_points":
        # SCORING.md 13.1: the factor scales the table points the formula reads, not its points.
        values = formula.table(with_table_points(placement, table_points_corrective(placement, reference)), params)
        corrected = values
    else:
        values = formula.table(placement, params)
        corrected = [value * n / reference for value in values] if corrective else values
    finals = []
    for seat, value in zip(seats, corrected):
        # SCORING.md section 5: formula, then Como corrective, then penalties.
        if seat.void:
            finals.append(FORFEIT_POINTS)  # an absence, whatever the formula gave (even below 0)
        else:
            finals.append(apply_penalty(value, seat.penalty) if seat.penalty else value)
    points.extend(finals)
    return _seated_score(game, (seats, values, corrected, finals), (n, reference) if reference is not None else None)


def _seated_score(game, seats, como_factor):
    """GameScore of `game` built from its seats and their points (see GameScore), without the frozen
    dataclass's checked assignments (one object a game and formula)."""
    score = _new_object(GameScore)
    score.__dict__.update(round=game.round, table=game.table, _seats=seats, como_factor=como_factor)
    return score


_new_object = object.__new__


def _score_all(formula, games, params, points) -> tuple:
    """Every game's points under `formula`; each seat's final points are appended to `points`, game
    after game. Most tables have no penalty, absence or corrective: each player's points are the
    formula's, and the score keeps the seats and their points (GameScore)."""
    table = formula.table
    reference = params.como_reference
    scores = []
    add = scores.append
    extend = points.extend
    for game in games:
        placement = game.placement
        try:
            if placement.plain and (reference is None or placement.n == reference):
                values = table(placement, params)
                extend(values)
                add(_seated_score(game, (placement.seats, values, values, values),
                                  None if reference is None else (placement.n, reference)))
            else:
                add(_score_in_steps(formula, game, params, points))
        except ScoringError as exc:  # a formula's own rule (maialino_2024: one winner) names the game
            locate(exc, game)
            raise
    return tuple(scores)


# The formula-independent part of the standings of the last list of games scored: the comparison
# of every formula scores one list of games twelve times. The games are kept with it, so their ids
# stay theirs; games are immutable.
_last_prepared: tuple = (None, None, None)


def _prepared(games: Sequence[Game], absences: list) -> Prepared:
    """The `Prepared` part of `games` with the given `absences` and the implicit ones."""
    global _last_prepared
    try:
        key = (tuple(map(id, games)), tuple(absences))
        hash(key)
    except TypeError:  # an unhashable player id: let the plain path report it
        return Prepared(games, absences + implicit_absences(games, absences))
    kept_games, kept_key, prepared = _last_prepared
    if kept_key == key:
        return prepared
    prepared = Prepared(games, absences + implicit_absences(games, absences))
    _last_prepared = (tuple(games), key, prepared)
    return prepared


_collection_paused = 0  # scorings under way that paused the cyclic collector (threads of one process)
_collection_lock = threading.Lock()


@contextmanager
def _without_cycle_collection():
    """Scoring a season creates some hundred thousand small objects and no reference cycle; the
    cyclic garbage collector, triggered by those allocations, would walk everything alive (every
    game of the season) again and again and cost as much as the scoring itself. Under a threaded
    server the collector comes back when the last scoring that paused it ends.

    Coming back, the collector would first walk every object the scoring left (its placements and
    standings) once more, at the next allocation: a fifth of a season's scoring. Where nothing else
    keeps objects frozen (the command line, the benchmarks, the tests) they are handed over to the
    oldest generation at once instead, as long-lived objects; a server worker that froze its
    application's objects at start (gunicorn.conf.py) keeps them frozen and lets the walk happen."""
    global _collection_paused
    with _collection_lock:
        pause = _collection_paused > 0 or gc.isenabled()
        if pause:
            _collection_paused += 1
            gc.disable()
    try:
        yield
    finally:
        if pause:
            with _collection_lock:
                _collection_paused -= 1
                if _collection_paused == 0:
                    if not gc.get_freeze_count():
                        gc.freeze()
                        gc.unfreeze()
                    gc.enable()


def implicit_absences(games: Sequence[Game], given: Iterable[Absence] = ()) -> list[Absence]:
    """SCORING.md section 5: a player with no result in a round that was played is absent there:
    0 for that round, counted as a played result for discards."""
    seen = {(a.round, a.player) for a in given}
    by_round: dict = {}
    for game in games:
        by_round.setdefault(game.round, set()).update(p.id for p in game.players)
    everyone = set().union(*by_round.values()) if by_round else set()
    return [Absence(round_, player) for round_, present in sorted(by_round.items())
            for player in sorted(everyone - present, key=repr) if (round_, player) not in seen]


def score_game(formula, game: Game, params: Params | None = None) -> GameScore:
    """One game's points under a formula, with Como corrective and penalties (sections 4-5)."""
    formula = get_formula(formula)
    params = params or DEFAULT_PARAMS
    formula.check_params(params)
    with engine_context():
        return _score(formula, game, params)


def score_tournament(formula, params: Params | None = None, games: Sequence[Game] = (), *,
                     absences: Iterable[Absence] = ()) -> Result:
    """Score every game and build the standings (SCORING.md sections 2-6).

    formula: a name of `FORMULAS` ("conversione150") or a formula object.
    params: `Params`, or a mapping of its fields (None = defaults).
    games: `Game` objects in any order; `round` orders them for the head-to-head tie-break.
    absences: `Absence(round, player)`: 0 for that round, counted as a played result.

    Raises ScoringError (InvalidResult naming round, table, player and field; InvalidParams;
    UnknownFormula) and computes nothing when any game is invalid.
    """
    formula = get_formula(formula)
    if isinstance(params, Mapping):
        params = Params(**params)
    params = params or DEFAULT_PARAMS
    formula.check_params(params)
    absences = [Absence(*a) for a in absences]
    with engine_context(), _without_cycle_collection():
        points = []  # every seat's final points, game after game
        scores = _score_all(formula, games, params, points)
        prepared = _prepared(games, absences)
        standings = standings_from(formula, params, prepared, scores, points)
    return Result(formula.name, params, scores, tuple(standings))
