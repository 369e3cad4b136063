"""End of a timed game, the "sdadata" (SCORING.md section 10; seeds 004, 000, 003).

`extra_round` counts the rounds in which the end roll is made: 1 is the first round with a roll.
The rounds played after the time limit and before any roll are in ROUNDS_BEFORE_ROLLING.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from .errors import InvalidParams

VARIANTS = ("standard", "or_less", "lariana", "firenze")
# Seed 004: the round in progress at the time limit is the second-to-last, rolls follow the last.
# Seed 000 (Lariana): three more rounds, then the rolling rounds. Seed 003 (Firenze): the arbiter
# rolls after the round in progress.
ROUNDS_BEFORE_ROLLING = {"standard": 1, "or_less": 1, "lariana": 3, "firenze": 0}
MAX_CONQUESTS_TO_ROLL = 2  # seed 004: no roll after conquering 3 or more territories in the turn


@dataclass(frozen=True)
class EndRoll:
    """What ends the game in one extra round."""
    variant: str
    extra_round: int
    dice: int                 # two dice, one for Firenze (rolled by the arbiter)
    ending: frozenset[int]    # dice sums (faces for one die) that end the game
    by_arbiter: bool = False  # Firenze: the arbiter rolls once per round

    @property
    def probability(self) -> Fraction:
        """Chance that one roll ends the game (seed 004 lists 3/36, 7/36, 12/36, 18/36)."""
        if self.dice == 1:
            return Fraction(len(self.ending & set(range(1, 7))), 6)
        hits = sum(1 for a in range(1, 7) for b in range(1, 7) if a + b in self.ending)
        return Fraction(hits, 36)


def end_roll(variant: str, extra_round: int) -> EndRoll:
    """Seed 004: sum 4 in the first extra round, 4-5 in the second, 4-6 in the third, 4-7 from the
    fourth on; variant "or_less": <= 4, <= 5, <= 6, <= 7. Seed 000 Lariana: 4, then 4 or 7.
    Seed 003 Firenze: the arbiter rolls one die, 1-2 ends."""
    if variant not in VARIANTS:
        raise InvalidParams(f"unknown end-roll variant {variant!r} (known: {', '.join(VARIANTS)})",
                            field="variant")
    if not isinstance(extra_round, int) or type(extra_round) is bool or extra_round < 1:
        raise InvalidParams("the extra round is a whole number from 1", field="extra_round")
    if variant == "firenze":
        return EndRoll(variant, extra_round, 1, frozenset({1, 2}), by_arbiter=True)
    if variant == "lariana":
        return EndRoll(variant, extra_round, 2, frozenset({4} if extra_round == 1 else {4, 7}))
    highest = 3 + min(extra_round, 4)
    lowest = 2 if variant == "or_less" else 4
    return EndRoll(variant, extra_round, 2, frozenset(range(lowest, highest + 1)))


def ends_game(variant: str, extra_round: int, roll: int) -> bool:
    """True when `roll` (sum of two dice, or the arbiter's die) ends the game."""
    return roll in end_roll(variant, extra_round).ending


def may_roll(conquered_this_turn: int) -> bool:
    """Seed 004: a player who conquered 3 or more territories in the turn does not roll."""
    return conquered_this_turn <= MAX_CONQUESTS_TO_ROLL


TURN_KINDS = ("roll", "skip", "out")


@dataclass(frozen=True)
class RollOrder:
    """Where the end roll of one table stands (seed 004, "sdadata" and its casebook)."""
    extra_rounds: tuple        # the extra round of each event; None for an elimination
    next_player: object        # whose turn it is to roll (None when nobody is left to roll)
    next_extra_round: int      # the extra round of that roll
    out: frozenset             # players eliminated so far


def roll_order(order, events) -> RollOrder:
    """Whose roll it is, and in which extra round, at a table of players `order` (turn order: the last
    one is the last player of the table) after `events`: (player, kind) in the order they happened,
    kind "roll", "skip" (conquered 3 or more territories: no roll) or "out" (eliminated).

    Seed 004: the roll goes round starting from the last player of the table; an extra round starts
    each time the turn comes back to the player who rolled first (Lariana, seed 000 art. 44.1: the
    player whose turn it was when time ran out; the arbiter records who rolls first). Casebook: if
    the last player is eliminated, the first to roll is the player before them (before that one, if
    also out); if the player who starts the rounds is eliminated after rolling at least once, the
    player before them starts the next extra round (rolls with the sums the other would have)."""
    order = list(order)
    out, extra_rounds = set(), []
    extra, current, last_turn, first = 0, set(), None, None

    def alive():
        return [p for p in order if p not in out]

    def before(player):
        """The player still in the game who plays just before `player`."""
        start = order.index(player)
        return next((order[(start - k) % len(order)] for k in range(1, len(order) + 1)
                     if order[(start - k) % len(order)] not in out), None)

    def anchor():
        if first is not None:
            return first
        players = alive()
        return players[-1] if players else None

    def round_of(player):
        if extra == 0:
            return 1
        if player in current or (player == anchor() and current):
            return extra + 1
        return extra

    for player, kind in events:
        if kind not in TURN_KINDS:
            raise InvalidParams(f"unknown end-roll event {kind!r}", field="kind")
        if player not in order:
            raise InvalidParams(f"player {player!r} is not at the table", field="player")
        if kind == "out":
            out.add(player)
            if player == first:
                first = before(player)
            extra_rounds.append(None)
            continue
        if first is None:
            first = player
        number = round_of(player)
        if number != extra:
            extra, current = number, set()
        current.add(player)
        extra_rounds.append(extra)
        last_turn = player
    players = alive()
    if not players:
        following = None
    elif last_turn is None:
        following = anchor()
    else:
        start = order.index(last_turn)
        following = next(order[(start + k) % len(order)] for k in range(1, len(order) + 1)
                         if order[(start + k) % len(order)] not in out)
    return RollOrder(tuple(extra_rounds), following, round_of(following) if following is not None else extra,
                     frozenset(out))
