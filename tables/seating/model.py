"""Plain inputs and outputs of the seating optimiser (SEATING.md section 4)."""
from dataclasses import dataclass, field

METHODS = ("random", "seeded_top", "snake", "swiss", "greek", "fixed", "semifinal", "final")

# Penalty kinds of SEATING.md section 3, in their default priority order.
PRIORITIES = ("club", "repeat", "fives", "winners")


class SeatingError(ValueError):
    """The request cannot be seated; the message is one line meant for the organiser.

    `code` names the rule broken and `context` holds the values of the message (player ids,
    counts), so that an interface can say it in its own language."""

    def __init__(self, message, *, code="invalid", **context):
        super().__init__(message)
        self.code = code
        self.context = context


@dataclass(frozen=True)
class Player:
    id: str
    club: str | None = None
    # Position in the current standings (1 = leader); players sharing a rank are tied.
    rank: int | None = None


@dataclass
class SeatingRequest:
    players: list[Player]
    method: str = "random"
    table_size: int = 4
    # Organiser's override of the table sizes, table 1 first (SEATING.md section 1).
    sizes: list[int] | None = None
    seed: int = 0
    time_limit_s: float = 1.0
    # Rounds still to play including this one: the optimiser plans them together.
    rounds_left: int = 1
    # Tables of earlier rounds, round after round.
    history: list[list[str]] = field(default_factory=list)
    # Earlier seats at tables of the non-preferred size (5-player tables when the preferred size
    # is 4); players missing here are counted from `history`.
    fives: dict[str, int] = field(default_factory=dict)
    # Players who cannot move: id -> table number (1-based).
    pinned: dict[str, int] = field(default_factory=dict)
    # The previous round's tables, each ordered by place (winner first): `greek` needs it, and its
    # winners are kept apart by every method.
    previous: list[list[str]] = field(default_factory=list)
    # Winners of the previous round, when `previous` is not given.
    winners: list[str] = field(default_factory=list)
    # `fixed`: the organiser's tables, table 1 first.
    plan: list[list[str]] = field(default_factory=list)
    # Penalty kinds, most important first; kinds left out weigh least, in the default order.
    priorities: list[str] = field(default_factory=lambda: list(PRIORITIES))
    # `semifinal`: players seeded directly to the final, and how many play the semifinals.
    direct: int | None = None
    qualifiers: int | None = None
    # `final`: the finalists (default: the top of the standings); `finalina` adds the table of the
    # next best.
    finalists: list[str] = field(default_factory=list)
    finalina: bool = False


@dataclass(frozen=True)
class Penalties:
    same_club_pairs: int = 0
    repeat_pairs: int = 0
    max_meetings: int = 0
    repeat_fives: int = 0
    winner_pairs: int = 0
    repeat_five_tables: int = 0   # the off-size tables seating one of those players (what the page counts)

    def as_contract(self):
        """The four figures of the JSON contract."""
        return {"same_club_pairs": self.same_club_pairs, "repeat_pairs": self.repeat_pairs,
                "max_meetings": self.max_meetings, "repeat_fives": self.repeat_fives}


@dataclass
class SeatingResult:
    tables: list[list[str]]
    penalties: Penalties
    seconds: float = 0.0
    # Notes for the organiser, e.g. a 3-player table had to be used.
    messages: list[str] = field(default_factory=list)
    # The same notes as (code, context) for an interface to say in its own language.
    notices: list[tuple[str, dict]] = field(default_factory=list)
    # `semifinal`: players seeded directly to the final.
    direct: list[str] = field(default_factory=list)
    # Present players with no table this round (`semifinal`, `final`).
    bye: list[str] = field(default_factory=list)
