"""Reads of the arbiters' pages: penalties, disputes, their window, whether the standings are final; the
2vs2 team penalties and disputes."""
from django.shortcuts import get_object_or_404

from tables.models import Dispute, Penalty, Round, Seat, TeamDispute, TeamPenalty
from tables.standings.selectors import dispute_deadline, standings_are_final  # noqa: F401 (read here too)
from tournaments.models import AuditLog, Registration


def tournament_penalties(tournament):
    return (Penalty.objects.filter(tournament=tournament)
            .select_related("registration__player", "seat__table__round", "created_by", "withdrawn_by"))


def tournament_disputes(tournament):
    return Dispute.objects.filter(tournament=tournament).select_related(
        "table__round", "penalty__registration__player", "recorded_by", "decided_by")


def penalty_of(tournament, pk):
    return get_object_or_404(Penalty, pk=pk, tournament=tournament)


def dispute_of(tournament, pk):
    return get_object_or_404(Dispute.objects.select_related("table__round", "penalty__registration__player"),
                             pk=pk, tournament=tournament)


def registration_or_none(tournament, reg_id):
    """The tournament's registration with this id (as posted: text), or None."""
    if not str(reg_id).isdecimal():
        return None
    return Registration.objects.filter(tournament=tournament, pk=int(reg_id)).first()


def warnings_in_game(penalty):
    """How many active warnings the player has in the penalty's game (a second may be escalated)."""
    if penalty.seat_id is None:
        return 0
    return Penalty.objects.filter(seat_id=penalty.seat_id, kind=Penalty.Kind.WARNING, withdrawn=False).count()


def dispute_window_closes(tournament, rnd):
    """The end of the window for disputes about `rnd` (None: its standings are not published yet)."""
    return Dispute.window_closes(tournament, rnd.standings_published_at if rnd is not None else None)


def correction_for(dispute):
    """The change an upheld dispute caused: the latest correction of its table, or of its penalty,
    made after the dispute was raised."""
    entries = AuditLog.objects.filter(tournament=dispute.tournament, created_at__gte=dispute.raised_at)
    if dispute.about == Dispute.About.RESULT:
        entries = entries.filter(action="result.correct",
                                 table_label=dispute.table.audit_label)
    elif dispute.about == Dispute.About.PENALTY:
        entries = entries.filter(action="penalty.withdraw", object_id=str(dispute.penalty_id))
    else:
        entries = entries.filter(action__in=["result.correct", "penalty.withdraw"])
    return entries.order_by("-pk").first()


def player_games(registration):
    """The player's seats in published rounds with their table mates, for choosing the game of a penalty
    (none without a player)."""
    if registration is None:
        return Seat.objects.none()
    return (Seat.objects.filter(registration=registration).exclude(table__round__status=Round.Status.DRAFT)
            .select_related("table__round").prefetch_related("table__seats__registration__player")
            .order_by("table__round__number", "table__number"))


# --- 2vs2 team penalties and disputes -----------------------------------------------------------------

def team_penalties(tournament):
    return list(TeamPenalty.objects.filter(tournament=tournament).select_related("team"))


def team_disputes(tournament):
    return TeamDispute.objects.filter(tournament=tournament).select_related("match__home", "match__away",
                                                                           "penalty__team")


def team_penalty_of(tournament, pk):
    return get_object_or_404(TeamPenalty, pk=pk, tournament=tournament)


def team_dispute_of(tournament, pk):
    return get_object_or_404(TeamDispute.objects.select_related("match__home", "match__away", "penalty__team"),
                             pk=pk, tournament=tournament)
