"""Reads of the account pages: a tournament's arbiters, the active users and who holds the organiser role."""
from django.contrib.auth import get_user_model
from django.shortcuts import get_object_or_404

from tournaments.roles import ORGANISERS_GROUP


def arbiters_of(tournament):
    return tournament.arbiters.all()


def arbiters_without_password(tournament):
    """The tournament's arbiters whose one-time link was never used (no password chosen yet)."""
    return [a for a in tournament.arbiters.order_by("username") if not a.has_usable_password()]


def arbiter_of(tournament, pk):
    return get_object_or_404(tournament.arbiters, pk=pk)


def users_and_organiser_role():
    """(user, holds the organiser role) for every active user, by username."""
    users = get_user_model().objects.filter(is_active=True).order_by("username").prefetch_related("groups")
    return [(u, any(g.name == ORGANISERS_GROUP for g in u.groups.all())) for u in users]


def active_user_or_404(pk):
    return get_object_or_404(get_user_model(), pk=pk, is_active=True)
