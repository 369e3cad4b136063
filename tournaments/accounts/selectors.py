"""Reads of the account pages: a tournament's arbiters, the active users and who holds the organiser role."""
from django.contrib.auth import get_user_model
from django.shortcuts import get_object_or_404

from tournaments.models import Tournament
from tournaments.rules import accounts_owned_by, is_organiser, offerable_arbiters

ORGANISERS_GROUP = "organisers"


def arbiters_of(tournament):
    return tournament.arbiters.all()


def arbiter_candidates(tournament):
    """The accounts the tournament's "Arbitri" page offers (tournaments.rules.offerable_arbiters), by name."""
    return offerable_arbiters(tournament, get_user_model().objects.all()).order_by("username")


def arbiters_without_password(tournament, user):
    """The tournament's arbiters whose one-time link was never used (no password chosen yet) and whom
    `user` may give a new link: those they made (an administrator: every one)."""
    arbiters = accounts_owned_by(user, tournament.arbiters.order_by("username"))
    return [a for a in arbiters if not a.has_usable_password()]


def arbiter_of(tournament, pk):
    return get_object_or_404(tournament.arbiters, pk=pk)


def users_and_organiser_role():
    """(user, holds the organiser role) for every active user, by username."""
    users = get_user_model().objects.filter(is_active=True).order_by("username").prefetch_related("groups")
    return [(u, any(g.name == ORGANISERS_GROUP for g in u.groups.all())) for u in users]


def active_user_or_404(pk):
    return get_object_or_404(get_user_model(), pk=pk, is_active=True)


def tournament_in_progress_for_arbiter(user):
    """The one tournament that `user`, an arbiter and not an organiser, has a round in play in (its
    seating published, not closed): where their login lands. None when there is none, or several."""
    if not user.is_authenticated or is_organiser(user):
        return None
    live = list(Tournament.objects.filter(arbiters=user, rounds__status="published").distinct()[:2])
    return live[0] if len(live) == 1 else None
