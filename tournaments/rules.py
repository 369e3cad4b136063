"""Who may do what. One helper per role; every view calls one of them.

- public: anyone, published tournaments only;
- arbiter: assigned to a tournament by its organiser (records results, penalties, disputes);
- organiser: holds the `tournaments.add_tournament` permission and runs the tournaments they created
  (only while holding it).

Many clubs share one server: an organiser reaches the accounts they made (and the arbiters of their
tournaments) and the players they created or registered, never another organiser's.

A logged-in user who is neither organiser nor arbiter of a tournament gets 404 for its
objects (its existence is not revealed); an arbiter who asks for an organiser-only page gets 403.

Every permission is a predicate here: a plain function of the user and the objects (a few take a
queryset to narrow, or one to ask), called by the views, services and selectors; `require_*` and
`*_for_*` helpers raise for the views. This app sits below the tables app: a round, a table or a
dispute is reached through the objects given, never by importing its model.
"""
from django.core.exceptions import PermissionDenied
from django.db.models import Q
from django.http import Http404
from django.shortcuts import get_object_or_404

from tournaments.models import AccountOwner, Player, Tournament


def is_organiser(user):
    return user.is_authenticated and user.has_perm("tournaments.add_tournament")


def require_organiser(user):
    """For pages of organisers in general (new tournament, clubs, players)."""
    if not is_organiser(user):
        raise PermissionDenied


def is_administrator(user):
    return user.is_authenticated and user.is_superuser


def require_administrator(user):
    """For the pages of administrators (who holds the organiser role)."""
    if not is_administrator(user):
        raise PermissionDenied


# --- tournaments -------------------------------------------------------------------------------

def organises(user, tournament):
    """The tournament's organiser, while holding the organiser role, or an administrator. Taking the
    role back (the "Organizzatori" page) takes the tournaments with it: their pages answer as to anyone
    else until an administrator gives the role again."""
    return runs_as_organiser(user, tournament.organiser_id)


def arbitrates(user, tournament):
    """One of the arbiters the tournament's organiser assigned."""
    return user.is_authenticated and tournament.arbiters.filter(pk=user.pk).exists()


def owns_tournament(user, tournament):
    """The user who created the tournament (role held or not) or an administrator: who sees their
    registrations listed on a player's page, and who corrects a published result without a dispute.
    `user` None (a command, an import) owns nothing."""
    return user is not None and (user.is_superuser or user.pk == tournament.organiser_id)


def may_export_email_of(account, tournament):
    """A tournament's export (the organiser's download) keeps the e-mail of its organiser alone: the other
    people it names (arbiters, another club's organiser in a shared player's log entry) keep theirs."""
    return account.pk == tournament.organiser_id


def may_copy_tournament(user, source):
    """A new tournament copies one of the organiser's own, never another's (an administrator's included)."""
    return source.organiser_id == user.pk


def _staff_role(user, tournament):
    if organises(user, tournament):
        return "organiser"
    if arbitrates(user, tournament):
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


def run_by(user, objects):
    """`objects` (a queryset of things with an `organiser`: circuits) narrowed to those `user` created;
    an administrator's: all of them."""
    return objects if user.is_superuser else objects.filter(organiser=user)


def may_add_to_circuit(user, circuit, tournament):
    """Only the organiser's own tournaments join their own circuit."""
    return tournament.organiser_id == circuit.organiser_id == user.pk


def may_change_shared(user, tournaments):
    """Players and clubs are shared by every organiser, but one shown only by other organisers'
    tournaments (`tournaments`) is theirs to change: an organiser may change it only when one of their
    own shows it; an administrator, a command (`user` None) and anyone for an object no tournament
    shows may."""
    if user is None or user.is_superuser or not tournaments:
        return True
    return any(t.organiser_id == user.pk for t in tournaments)


# --- accounts and arbiters ---------------------------------------------------------------------

def owns_account(user, account):
    """The organiser who made `account` from the app (tournaments.models.AccountOwner), or an administrator."""
    return user.is_superuser or AccountOwner.objects.filter(account=account, owner=user).exists()


def accounts_owned_by(user, accounts):
    """`accounts` (a queryset of users) narrowed to those `owns_account` gives `user`."""
    return accounts if user.is_superuser else accounts.filter(owned_by__owner=user)


def may_give_link(user, account):
    """A one-time password link is issued only by the organiser who made the account (or an
    administrator): anyone else's link would hand the account over."""
    if not user.is_authenticated:
        return False
    return user.is_superuser or (is_organiser(user) and owns_account(user, account))


def arbiter_accounts(accounts):
    """`accounts` (a queryset of users) narrowed to those that may arbitrate: active, never an
    administrator (who reaches every tournament anyway)."""
    return accounts.filter(is_active=True, is_superuser=False)


def offerable_arbiters(tournament, accounts):
    """`accounts` narrowed to those the tournament's "Arbitri" page offers: the accounts its organiser
    made and those already arbiters of one of their tournaments (or of this one). Never the server's
    other users, never an administrator, never the organiser."""
    organiser = tournament.organiser_id
    return (arbiter_accounts(accounts)
            .filter(Q(owned_by__owner_id=organiser) | Q(arbitrated_tournaments__organiser_id=organiser)
                    | Q(arbitrated_tournaments=tournament))
            .exclude(pk=organiser).distinct())


def may_be_added_as_arbiter(account, tournament):
    """A colleague named by their exact user name: an account that may arbitrate and has chosen its
    password (a link is never given for someone else's account), not the tournament's organiser."""
    return (account.is_active and not account.is_superuser and account.has_usable_password()
            and account.pk != tournament.organiser_id)


# --- rounds and results ------------------------------------------------------------------------

def may_reopen_round(rnd):
    """A closed round opens again while the next one is not drawn."""
    return rnd.status == rnd.Status.CLOSED and not rnd.tournament.rounds.filter(number__gt=rnd.number).exists()


def may_correct_result(user, table, open_disputes):
    """Until its round's standings are published a table's result is entered and corrected freely; then
    only the organiser (or an administrator: `owns_tournament`) corrects it, or anyone recording it
    while a dispute about it is open. `open_disputes`: the open disputes about this table's result or
    about the published standings (a queryset, asked only when needed)."""
    rnd = table.round
    if rnd.standings_published_at is None or owns_tournament(user, rnd.tournament):
        return True
    return open_disputes.exists()


# --- players -----------------------------------------------------------------------------------

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
