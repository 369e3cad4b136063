"""Knockout phases, "eliminazione diretta" (SCORING.md 4.13; seeds 003 and 004).

No points: the table winner (place 1) advances. Without second chance one game decides; with
second chance the losers of the first qualifying game play a second one, whose winners also
advance. A tie for first must be settled at the table (explicit `place`, section 2).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from .errors import InvalidResult
from .numeric import ZERO, engine_context


@dataclass(frozen=True)
class KnockoutOutcome:
    """Who goes on, who is out, and who still has to play the second-chance game."""
    advancing: tuple
    eliminated: tuple
    second_chance: tuple = ()  # losers waiting for the second-chance game

    @property
    def complete(self) -> bool:
        return not self.second_chance


def table_winner(game):
    """Seed 003: "Ogni vincitore di ciascun tavolo passerà al turno successivo" (place 1)."""
    seats = game.placement.seats
    if seats[0].group > 1:
        tied = ", ".join(str(s.player) for s in seats[:seats[0].group])
        raise InvalidResult(f"a knockout table needs one winner: settle the tie between {tied} with places",
                            code="knockout_tie", round=game.round, table=game.table, field="place")
    return seats[0].player


def _split(games):
    winners, losers = [], []
    for game in games:
        winner = table_winner(game)
        winners.append(winner)
        losers.extend(s.player for s in game.placement.seats if s.player != winner)
    return winners, losers


def knockout_phase(first: Sequence, second_chance: Sequence | None = None, *,
                   with_second_chance: bool = False) -> KnockoutOutcome:
    """Seed 004, "eliminazione diretta senza / con seconda chance".

    first: the games of the phase (or of the first qualifying game).
    second_chance: the second qualifying game's tables, played among the losers of `first`.
    with_second_chance: True when the format has a second chance; while `second_chance` is None
        the losers are reported in `second_chance` (they still have to play).
    """
    winners, losers = _split(first)
    if not with_second_chance and second_chance is None:
        return KnockoutOutcome(tuple(winners), tuple(losers))
    if second_chance is None:
        return KnockoutOutcome(tuple(winners), (), tuple(losers))
    allowed = set(losers)
    seen = set()
    for game in second_chance:
        for p in game.players:
            if p.id not in allowed:
                raise InvalidResult("only the losers of the first game play the second chance",
                                    code="second_chance_player", round=game.round, table=game.table,
                                    player=p.id, field="players")
            if p.id in seen:
                raise InvalidResult("plays the second chance twice", code="second_chance_twice",
                                    round=game.round, table=game.table, player=p.id, field="players")
            seen.add(p.id)
    second_winners, _ = _split(second_chance)
    advancing = tuple(winners) + tuple(second_winners)
    out = tuple(p for p in losers if p not in set(second_winners))
    return KnockoutOutcome(advancing, out)


def knockout_progress(stages: Sequence) -> tuple[list, list]:
    """Who is still in after the knockout games played so far, and the losers waiting for a second
    chance (seed 004). `stages`: (games, is_second_chance) in order of play; a second-chance game is
    played among the losers of the knockout game before it."""
    advancing, waiting, first_games = [], [], None
    for games, second_chance in stages:
        if second_chance:
            outcome = knockout_phase(first_games or [], games, with_second_chance=True)
            advancing, waiting = list(outcome.advancing), []
        else:
            outcome = knockout_phase(games, with_second_chance=True)
            advancing, waiting, first_games = list(outcome.advancing), list(outcome.second_chance), games
    return advancing, waiting


def seconds(games: Sequence) -> list[tuple]:
    """Seed 003, "i migliori secondi": the players placed 2nd at the tables of `games`, best first by
    their table points (a tie is ordered by the caller). Tables whose 2nd place is shared give no
    second. Returns (player, table points) pairs."""
    out = []
    for game in games:
        seats = game.placement.seats
        if len(seats) > 1 and seats[1].rank == 2 and seats[1].group == 1:
            out.append((seats[1].player, seats[1].tp))
    return sorted(out, key=lambda item: -item[1])


def seconds_on_one_scale(games: Sequence) -> list[tuple]:
    """Seed 003's best seconds compared on one scale: each second's points as a share of the points of
    their own table's winner (table points where the table ended on the board, sheet points where the
    Firenze sheet decided it, SCORING.md 8.1), so that a sheet's hundreds never beat table points by
    their size alone. Returns (player, share, points) triples, highest share first (ties are ordered
    by the caller); a winner with 0 points gives a share of 0."""
    out = []
    with engine_context():
        for game in games:
            seats = game.placement.seats
            if len(seats) > 1 and seats[1].rank == 2 and seats[1].group == 1:
                top = seats[0].tp
                share = seats[1].tp / top if top > 0 else ZERO
                out.append((seats[1].player, share, seats[1].tp))
    return sorted(out, key=lambda item: -item[1])
