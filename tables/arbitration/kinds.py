"""What the arbitration of a game and of a 2vs2 match differ in, as data: the one set of services
(tables.arbitration.services) and selectors reads it, so a penalty is given and withdrawn, and a
dispute recorded and decided, the same way for both.

A penalty is against a player (a game's: its kind, perhaps the game it is about) or a team (a match's:
match points from a day on). A dispute is about a result (a table's, a match's), a penalty or the
standings, and accepted within the window after the standings it concerns were published: a round's
for a game, a day's for a match."""
import numbers
from dataclasses import dataclass
from operator import attrgetter
from typing import Callable

from django.utils.translation import gettext_lazy as _

from tables.arbitration.selectors import day_disputed, round_disputed
from tables.models import Dispute, Penalty, TeamDispute, TeamPenalty

# The snapshots of the log (before and after).
GAME_PENALTY_FIELDS = ("kind", "points", "reason", "seat", "void_past_results", "withdrawn", "withdrawn_reason")
GAME_DISPUTE_FIELDS = ("about", "round", "table", "penalty", "raised_by", "text", "state", "decision")
MATCH_PENALTY_FIELDS = ("day", "points", "reason", "withdrawn", "withdrawn_reason", "team")
MATCH_DISPUTE_FIELDS = ("about", "day", "raised_by", "text", "state", "decision")

# A warning may be about one game or about the player's conduct in the whole tournament.
NEEDS_GAME = {Penalty.Kind.GAME_DISQUALIFICATION, Penalty.Kind.FORFEIT}


@dataclass(frozen=True, eq=False)
class ArbitrationKind:
    """Everything the services and selectors of arbitration do differently for one kind of play."""

    name: str
    penalty: type
    dispute: type
    # Whom a penalty is against (a registration, a team), refused when not of the tournament.
    offender: str
    offender_refused: str
    # The penalty's own columns as given to the service (besides its tournament, points, reason and
    # author), the values of the arguments left out, and the refusals of this kind's arguments:
    # (field, refused(tournament, the penalty as asked), message), checked after the shared ones (a
    # later refusal of a field replaces an earlier one).
    penalty_columns: tuple
    penalty_defaults: dict
    penalty_rules: tuple
    points_type: type  # the points a penalty takes off: table points (any number), match points (whole)
    # A penalty may expel the player (withdraw their registration; withdrawing the penalty reinstates them).
    expels: bool
    # The disputed result: its field, its tournament's id, the refusal when missing or of another tournament.
    result: str
    result_tournament: Callable
    result_refused: str
    # The published standings a dispute concerns: (the dispute's columns naming them, what was
    # published, with its standings_published_at, or None) for (tournament, about, result, penalty).
    disputed: Callable
    # An upheld dispute links the correction it caused (and a dispute keeps an internal note).
    links_correction: bool
    # The log: the fields of a penalty, of a dispute as recorded and as decided.
    penalty_log: tuple
    recorded_log: tuple
    dispute_log: tuple
    # The related rows read with a penalty or a dispute: locked to change it, listed, shown alone.
    penalty_locked_with: tuple
    penalty_listed_with: tuple
    dispute_locked_with: tuple
    dispute_listed_with: tuple
    dispute_shown_with: tuple
    # How the log names each write: its action, the player and the table (or match) it is about.
    given: Callable
    withdrawn: Callable
    recorded: Callable
    decided: Callable


def _table(seat):
    return seat.table.audit_label if seat else ""


def _match(match):
    return f"{match.round}: {match}"[:120] if match else ""


GAME = ArbitrationKind(
    name="game",
    penalty=Penalty,
    dispute=Dispute,
    offender="registration",
    offender_refused=_("This player is not in the tournament."),
    penalty_columns=("registration", "kind", "seat", "internal_note"),
    penalty_defaults={"seat": None, "internal_note": "", "void_past_results": False},
    penalty_rules=(
        ("seat", lambda tournament, p: p["kind"] in NEEDS_GAME and p["seat"] is None,
         _("Choose the game this penalty applies to.")),
        ("seat", lambda tournament, p: p["seat"] is not None and p["seat"].registration_id != p["registration"].pk,
         _("That game is not one of this player's.")),
        ("seat", lambda tournament, p: p["kind"] == Penalty.Kind.EXPULSION and p["seat"] is not None,
         _("An expulsion applies to the whole tournament, not to one game.")),
    ),
    points_type=numbers.Number,
    expels=True,
    result="table",
    result_tournament=attrgetter("round.tournament_id"),
    result_refused=_("Choose the table whose result is disputed."),
    disputed=round_disputed,
    links_correction=True,
    penalty_log=GAME_PENALTY_FIELDS,
    recorded_log=GAME_DISPUTE_FIELDS,
    dispute_log=GAME_DISPUTE_FIELDS,
    penalty_locked_with=("registration__player", "seat__table__round"),
    penalty_listed_with=("registration__player", "seat__table__round", "created_by", "withdrawn_by"),
    dispute_locked_with=("table__round", "penalty"),
    dispute_listed_with=("table__round", "penalty__registration__player", "recorded_by", "decided_by"),
    dispute_shown_with=("table__round", "penalty__registration__player"),
    given=lambda p: dict(action=f"penalty.{p.kind}", player=p.registration.player, table_label=_table(p.seat)),
    withdrawn=lambda p: dict(action="penalty.withdraw", player=p.registration.player, table_label=_table(p.seat)),
    recorded=lambda d: dict(action="dispute.record", table_label=d.table.audit_label if d.table else "",
                            player=d.penalty.registration.player if d.penalty else None),
    decided=lambda d: dict(action=f"dispute.{d.state}", table_label=d.table.audit_label if d.table else ""),
)

MATCH = ArbitrationKind(
    name="match",
    penalty=TeamPenalty,
    dispute=TeamDispute,
    offender="team",
    offender_refused=_("Choose a team of this tournament."),
    penalty_columns=("team", "day"),
    penalty_defaults={},
    penalty_rules=(
        ("day", lambda tournament, p: p["day"] not in set(tournament.team_matches.values_list("round", flat=True)),
         _("Choose a day of the schedule.")),
    ),
    points_type=int,
    expels=False,
    result="match",
    result_tournament=attrgetter("tournament_id"),
    result_refused=_("Choose the match whose result is disputed."),
    disputed=day_disputed,
    links_correction=False,
    penalty_log=MATCH_PENALTY_FIELDS,
    recorded_log=MATCH_DISPUTE_FIELDS + ("match",),
    dispute_log=MATCH_DISPUTE_FIELDS,
    penalty_locked_with=("team",),
    penalty_listed_with=("team", "created_by", "withdrawn_by"),
    dispute_locked_with=(),
    dispute_listed_with=("match__home", "match__away", "penalty__team"),
    dispute_shown_with=("match__home", "match__away", "penalty__team"),
    given=lambda p: dict(action="team.penalty"),
    withdrawn=lambda p: dict(action="team.penalty.withdraw"),
    recorded=lambda d: dict(action="team.dispute.record", table_label=_match(d.match)),
    decided=lambda d: dict(action=f"team.dispute.{d.state}"),
)

KINDS = (GAME, MATCH)


def kind_of(row):
    """The kind of a penalty or a dispute (its model says)."""
    return next(kind for kind in KINDS if isinstance(row, (kind.penalty, kind.dispute)))
