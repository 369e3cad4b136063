"""Who may do what. One helper per role; every view calls one of them.

- public: anyone, published tournaments only;
- arbiter: assigned to a tournament by its organiser (records results, penalties, disputes);
- organiser: holds the `tournaments.add_tournament` permission and runs the tournaments they created
  (only while holding it).

Many clubs share one server: an organiser reaches the accounts they made (and the arbiters of their
tournaments) and the players they created or registered, never another organiser's.

A logged-in user who is neither organiser nor arbiter of a tournament gets 404 for its
objects (its existence is not revealed); an arbiter who asks for an organiser-only page gets 403.
"""
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import get_object_or_404

from tournaments.models import AccountOwner, Player, Tournament


def is_organiser(user):
    return user.is_authenticated and user.has_perm("tournaments.add_tournament")


def require_organiser(user):
    """For pages of organisers in general (new tournament, clubs, players)."""
    if not is_organiser(user):
        raise PermissionDenied


def _staff_role(user, tournament):
    if not user.is_authenticated:
        return None
    # Taking the organiser role back (the "Organizzatori" page) takes the tournaments with it: their
    # pages answer as to anyone else until an administrator gives the role again.
    if user.is_superuser or (tournament.organiser_id == user.pk and is_organiser(user)):
        return "organiser"
    if tournament.arbiters.filter(pk=user.pk).exists():
        return "arbiter"
    return None


def tournament_for_organiser(user, pk):
    tournament = get_object_or_404(Tournament.objects.select_related("club", "organiser"), pk=pk)
    role = _staff_role(user, tournament)
    if role == "organiser":
        return tournament
    if role == "arbiter":
        raise PermissionDenied
    raise Http404


def tournament_for_arbiter(user, pk):
    """Arbiters of the tournament and its organiser."""
    tournament = get_object_or_404(Tournament.objects.select_related("club", "organiser"), pk=pk)
    if _staff_role(user, tournament) is None:
        raise Http404
    return tournament


def tournament_for_public(pk):
    return get_object_or_404(Tournament.objects.select_related("club"), pk=pk, published=True)


def staff_role(user, tournament):
    """'organiser', 'arbiter' or None: what the templates show."""
    return _staff_role(user, tournament)


def runs_as_organiser(user, organiser_id):
    """Whether `user` runs what organiser `organiser_id` created (a circuit, say): only while holding
    the organiser role, or as an administrator."""
    return user.is_authenticated and (user.is_superuser or (organiser_id == user.pk and is_organiser(user)))


def may_give_link(user, account):
    """A one-time password link is issued only by the organiser who made the account (or an
    administrator): anyone else's link would hand the account over."""
    if not user.is_authenticated:
        return False
    return user.is_superuser or (is_organiser(user)
                                 and AccountOwner.objects.filter(account=account, owner=user).exists())


def may_read_player(user, player):
    """A player's e-mail and details are read by the organiser who created them and the organisers of a
    tournament they are registered in (an administrator: every player)."""
    if not is_organiser(user):
        return False
    if user.is_superuser or player.created_by_id == user.pk:
        return True
    return player.registrations.filter(tournament__organiser=user).exists()


def player_for_organiser(user, pk):
    """A player of the shared list as an organiser may open them: 404 for one that is another organiser's
    (created by them, or registered only in their tournaments); one nobody owns stays shared, its e-mail
    hidden (`may_read_player`)."""
    require_organiser(user)
    text = str(pk)
    player = get_object_or_404(Player, pk=int(text) if text.isdecimal() and len(text) <= 18 else None)
    if not may_open_player(user, player):
        raise Http404
    return player


def may_open_player(user, player):
    """An organiser opens (edits, merges, deletes) a player they may read, or one nobody owns yet."""
    if may_read_player(user, player):
        return True
    return is_organiser(user) and player.created_by_id is None and not player.registrations.exists()
