"""Reads of tournaments and their registrations, for the pages (the audit log's: `tournaments.audit.selectors`)."""
from django.db.models import Count, Q
from django.shortcuts import get_object_or_404

from tournaments.models import Registration, Tournament
from tournaments.rules import is_organiser, own_tournaments

PUBLIC_LIST = 50


def published_tournaments():
    return Tournament.objects.filter(published=True).select_related("club")[:PUBLIC_LIST]


def published_rounds(tournament):
    """The rounds whose seating was published (open or closed), oldest first (the tables app's too)."""
    return tournament.rounds.exclude(status="draft").select_related("phase").order_by("number")


def tournament_phases(tournament):
    """The phases of the tournament's format, in order ([] without a format that has phases)."""
    return list(tournament.phases.order_by("order"))


def organised_tournaments(user):
    """The user's own tournaments with their confirmed players; none without the organiser role
    (taken back by an administrator: one's tournaments are no longer run)."""
    organised = own_tournaments(user, Tournament.objects.all()) if is_organiser(user) else Tournament.objects.none()
    return organised.annotate(
        n_players=Count("registrations", filter=Q(registrations__status=Registration.Status.CONFIRMED)))


def arbitrated_tournaments(user):
    return Tournament.objects.filter(arbiters=user).exclude(organiser=user)


def registration_totals(tournament):
    """How many players are confirmed, pending, present (and confirmed) and have paid."""
    return tournament.registrations.aggregate(
        confirmed=Count("pk", filter=Q(status=Registration.Status.CONFIRMED)),
        pending=Count("pk", filter=Q(status=Registration.Status.PENDING)),
        present=Count("pk", filter=Q(status=Registration.Status.CONFIRMED, present=True)),
        paid=Count("pk", filter=Q(fee_paid=True)),
    )


def registrations(tournament):
    """Every registration of the tournament, with player and club."""
    return tournament.registrations.select_related("player", "player__club")


def confirmed_registrations(tournament):
    return registrations(tournament).filter(status=Registration.Status.CONFIRMED)


def registration_of(tournament, pk):
    """The tournament's registration with this id, with player and club, else 404."""
    return get_object_or_404(registrations(tournament), pk=pk)


def checked_in_counts(regs):
    """The confirmed and the present (among them) of a list of registrations."""
    confirmed = [r for r in regs if r.status == Registration.Status.CONFIRMED]
    return {"confirmed": len(confirmed), "present": sum(1 for r in confirmed if r.present)}

