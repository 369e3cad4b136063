"""Reads of the arbiters' pages: the penalties and disputes of a kind of play (`of`, a
tables.arbitration.kinds.ArbitrationKind: a game's or a 2vs2 match's), the standings a dispute
concerns and their window, whether a tournament's standings are final."""
from django.shortcuts import get_object_or_404

from tables.models import Dispute, Penalty, Round, Seat
from tournaments.models import AuditLog, Registration, TeamDay
from tournaments.text import posted_id


def tournament_penalties(tournament, of):
    return of.penalty.objects.filter(tournament=tournament).select_related(*of.penalty_listed_with)


def tournament_disputes(tournament, of):
    return of.dispute.objects.filter(tournament=tournament).select_related(*of.dispute_listed_with)


def penalty_of(tournament, pk, of):
    return get_object_or_404(of.penalty, pk=pk, tournament=tournament)


def dispute_of(tournament, pk, of):
    return get_object_or_404(of.dispute.objects.select_related(*of.dispute_shown_with), pk=pk, tournament=tournament)


def registration_or_none(tournament, reg_id):
    """The tournament's registration with this id (as posted: text), or None."""
    if posted_id(reg_id) is None:
        return None
    return Registration.objects.filter(tournament=tournament, pk=posted_id(reg_id)).first()


def warnings_in_game(penalty):
    """How many active warnings the player has in the penalty's game (a second may be escalated)."""
    if penalty.seat_id is None:
        return 0
    return Penalty.objects.filter(seat_id=penalty.seat_id, kind=Penalty.Kind.WARNING, withdrawn=False).count()


def dispute_window_closes(tournament, published):
    """The end of the window for disputes about the standings of `published` (a round, a 2vs2 day; None:
    not published yet, and so neither is the window)."""
    return Dispute.window_closes(tournament, published.standings_published_at if published is not None else None)


def round_disputed(tournament, about, table, penalty):
    """The round whose standings a game's dispute concerns ({"round": it}, it): a result's table's, a
    penalty's game's (or the latest round), the latest published standings' (None: none yet)."""
    if about == Dispute.About.RESULT:
        rnd = table.round if table else None
    elif about == Dispute.About.PENALTY:
        rnd = penalty.seat.table.round if penalty and penalty.seat else tournament.rounds.order_by("-number").first()
    else:
        rnd = (tournament.rounds.filter(standings_published_at__isnull=False).order_by("-standings_published_at")
               .first())
    rnd = Round.objects.get(pk=rnd.pk) if rnd is not None else None  # fresh: publication time matters
    return {"round": rnd}, rnd


def day_disputed(tournament, about, match, penalty):
    """The 2vs2 day whose standings a dispute concerns ({"day": its number}, its publication or None): a
    match's, a penalty's (from its day on), the latest published (None: none yet). Before the day is
    published a dispute is always accepted."""
    days = TeamDay.objects.filter(tournament=tournament)
    if about == Dispute.About.RESULT:
        number = match.round
    elif about == Dispute.About.PENALTY:
        number = penalty.day
    else:
        day = days.order_by("-number").first()
        return {"day": day.number if day else None}, day
    return {"day": number}, days.filter(number=number).first()


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
