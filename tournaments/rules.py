"""Who may do what. One helper per role; every view calls one of them.

- public: anyone, published tournaments only;
- arbiter: assigned to a tournament by its organiser (records results, penalties, disputes);
- organiser: holds the `tournaments.add_tournament` permission and runs the tournaments they created
  (only while holding it).

Many clubs share one server: an organiser reaches the accounts they made (and the arbiters of their
tournaments); players and clubs are a shared address book whose cards stay their creators' (see
"players and clubs" below).

A logged-in user who is neither organiser nor arbiter of a tournament gets 404 for its
objects (its existence is not revealed); an arbiter who asks for an organiser-only page gets 403.

Every permission is a predicate here: a plain function of the user and the objects (a few take a
queryset to narrow, or one to ask), called by the views, services and selectors; `require_*` and
`*_for_*` helpers raise for the views. This app sits below the tables app: a round, a table or a
dispute is reached through the objects given, never by importing its model.
"""
from django.core.exceptions import PermissionDenied
from django.db.models import Exists, OuterRef, Q
from django.http import Http404
from django.shortcuts import get_object_or_404

from tournaments.models import AccountOwner, ClubRule, Player, Registration, Tournament
from tournaments.text import posted_id


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
# Two ideas, one name each: the organiser's own tournament (`is_own_tournament`: they created it, role
# held or not; `own_tournaments` is the same rule for a queryset) and who runs a tournament (`organises`:
# its organiser while holding the role, or an administrator). Every other rule about an organiser and a
# tournament is written with these two.

def is_own_tournament(user, tournament):
    """The organiser's own tournament: `tournament` was created by `user` (the organiser role held or not;
    an administrator's own are those they created). A tournament is copied only from one's own, joins
    only one's own circuit, and its export keeps the e-mail of its own organiser alone (the other people
    it names, arbiters or another club's organiser in a shared player's log entry, keep theirs).
    `user` None (a command, an import) has none."""
    return user is not None and tournament.organiser_id == user.pk


def own_tournaments(user, tournaments):
    """`tournaments` (a queryset) narrowed by `is_own_tournament`."""
    return tournaments.filter(organiser_id=user.pk)


def _runs(user, organiser_id):
    """`user` runs what organiser `organiser_id` created (a tournament, a circuit): only while holding the
    organiser role, or as an administrator."""
    return user.is_authenticated and (user.is_superuser or (organiser_id == user.pk and is_organiser(user)))


def organises(user, tournament):
    """The tournament's organiser, while holding the organiser role, or an administrator. Taking the
    role back (the "Organizzatori" page) takes the tournaments with it: their pages answer as to anyone
    else until an administrator gives the role again."""
    return _runs(user, tournament.organiser_id)


def answers_for(user, tournament):
    """Its own organiser (role held or not: `is_own_tournament`) or an administrator: who sees its
    registrations listed on a player's page, and who corrects a published result without a dispute."""
    return user is not None and (user.is_superuser or is_own_tournament(user, tournament))


def arbitrates(user, tournament):
    """One of the arbiters the tournament's organiser assigned."""
    return user.is_authenticated and tournament.arbiters.filter(pk=user.pk).exists()


def staff_role(user, tournament):
    """'organiser', 'arbiter' or None: what the templates show, and what the pages of one tournament
    let in."""
    if organises(user, tournament):
        return "organiser"
    if arbitrates(user, tournament):
        return "arbiter"
    return None


def tournament_for_organiser(user, pk):
    tournament = get_object_or_404(Tournament.objects.select_related("club", "organiser"), pk=pk)
    role = staff_role(user, tournament)
    if role == "organiser":
        return tournament
    if role == "arbiter":
        raise PermissionDenied
    raise Http404


def tournament_for_arbiter(user, pk):
    """Arbiters of the tournament and its organiser."""
    tournament = get_object_or_404(Tournament.objects.select_related("club", "organiser"), pk=pk)
    if staff_role(user, tournament) is None:
        raise Http404
    return tournament


def tournament_for_public(pk):
    return get_object_or_404(Tournament.objects.select_related("club"), pk=pk, published=True)


def tournament_for_live(user, pk):
    """A tournament's live channel: anyone's while it is published, else its arbiters' and organiser's
    (their dashboards refresh by it); nobody else learns it exists."""
    tournament = get_object_or_404(Tournament, pk=pk)
    if not tournament.published and staff_role(user, tournament) is None:
        raise Http404
    return tournament


def shown_publicly(rows, through="tournament"):
    """`rows` (a queryset of things of a tournament, reached by `through`) narrowed to those of published
    tournaments: what a public page (a circuit's ranking, a player's history) may show."""
    return rows.filter(**{f"{through}__published": True})


def run_by(user, objects):
    """`objects` (a queryset of things with an `organiser`: circuits) narrowed to those `user` created;
    an administrator's: all of them."""
    return objects if user.is_superuser else objects.filter(organiser=user)


def may_add_to_circuit(user, circuit, tournament):
    """Only the organiser's own tournaments join their own circuit."""
    return circuit.organiser_id == user.pk and is_own_tournament(user, tournament)


def circuit_for_organiser(user, circuits, pk):
    """The circuit `pk` of `circuits` (a queryset) as its organiser (or an administrator) runs it;
    404 for anyone else, whose answer does not reveal it exists."""
    circuit = get_object_or_404(circuits, pk=pk)
    if not _runs(user, circuit.organiser_id):
        raise Http404
    return circuit


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
    only the organiser (or an administrator: `answers_for`) corrects it, or anyone recording it
    while a dispute about it is open. `open_disputes`: the open disputes about this table's result or
    about the published standings (a queryset, asked only when needed)."""
    rnd = table.round
    if rnd.standings_published_at is None or answers_for(user, rnd.tournament):
        return True
    return open_disputes.exists()


# --- players and clubs: a shared address book ------------------------------------------------------
# Every organiser may invite any player they can see to their own tournaments (registering, checking in
# and withdrawing them there); a player's card (names, nickname, e-mail, city, club) and a club stay
# their creator's. Ownership comes only from creating the record: registering someone grants nothing.

def owns_record(user, record):
    """The organiser who created `record` (a player or a club), while holding the role, or an
    administrator. `user` None is a command or an import acting for nobody in particular: it may."""
    if user is None:
        return True
    if not user.is_authenticated:
        return False
    return user.is_superuser or (record.created_by_id == user.pk and is_organiser(user))


def may_change_player(user, player):
    """Renaming, re-clubbing, changing the e-mail of a player, or deleting them: their owner alone."""
    return owns_record(user, player)


def may_change_club(user, club):
    """Renaming or deleting a club (the organising club of tournaments, the club of players): its creator."""
    return owns_record(user, club)


def may_read_email(user, player):
    """A player's e-mail is shown to their owner (and an administrator) alone: never to the organiser
    of another tournament they play in."""
    return user is not None and user.is_authenticated and owns_record(user, player)


def may_read_national_id(user, player):
    """A player's national ID, like their e-mail, is read by their owner (and an administrator) alone; a
    command or an import acting for nobody in particular (`user` None) may."""
    return user is None or may_read_email(user, player)


def may_merge_players(user, keep, drop):
    """Two records of one person become one by their owner, when one organiser owns both; records of
    different owners are merged by an administrator (the page offers to ask one)."""
    return owns_record(user, keep) and owns_record(user, drop)


def merge_kept(keep, drop):
    """(the record kept, the record merged into it) when `drop` is said to be the same person as `keep`:
    as asked when one organiser owns both; across owners (an administrator's merge) the record made first
    survives with its owner, whichever was named first, so asking for a merge never hands another
    organiser's player, or their card, to the one who asked."""
    if keep.created_by_id == drop.created_by_id:
        return keep, drop
    return (keep, drop) if (keep.created_at, keep.pk) <= (drop.created_at, drop.pk) else (drop, keep)


def may_export_player_email(player, tournament):
    """A tournament's exports (its JSON, its workbooks) carry the e-mail and the national ID of the players
    its organiser owns, nobody else's: another organiser's player's stay on their card."""
    return player.created_by_id is not None and player.created_by_id == tournament.organiser_id


def players_visible_to(user, players):
    """`players` (a queryset) narrowed to those `user` may see in the organisers' lists and open: their
    own records, players registered in one of their own tournaments or in a published one, and records
    nobody owns and no tournament shows. A player registered only in another organiser's unpublished
    tournaments (and every other organiser's player not yet in a published tournament) is neither
    listed nor opened, whoever created the record or nobody did. The rule is written here only:
    `may_see_player` asks it about one player."""
    if user.is_superuser:
        return players
    own_or_published = Q(tournament__published=True) | Q(tournament__organiser_id=user.pk)
    shown = Registration.objects.filter(own_or_published, player=OuterRef("pk"))
    anywhere = Registration.objects.filter(player=OuterRef("pk"))
    return players.filter(Q(created_by_id=user.pk) | Exists(shown)
                          | (Q(created_by__isnull=True) & ~Exists(anywhere)))


def may_see_player(user, player):
    """Who may open a player's card and register them: an organiser to whom `players_visible_to` shows
    them (a command or an import, `user` None, may)."""
    if user is None:
        return True
    if not is_organiser(user):
        return False
    return players_visible_to(user, Player.all_players.filter(pk=player.pk)).exists()


def player_for_organiser(user, pk):
    """A player of the shared list as an organiser may open them (read-only unless `may_change_player`):
    404 for one they may not see."""
    require_organiser(user)
    player = get_object_or_404(Player, pk=posted_id(pk))
    if not may_see_player(user, player):
        raise Http404
    return player


# --- club rules --------------------------------------------------------------------------------
# The rules the clubs published are everyone's to read, copy and play; an organiser's own rules are
# theirs alone (another organiser never learns they exist).

def club_rules_visible_to(user, rules):
    """`rules` (a queryset of ClubRule) narrowed to the published ones and the organiser's own."""
    if not is_organiser(user):
        return rules.none()
    return rules.filter(Q(published=True) | Q(owner_id=user.pk))


def club_rules_usable_in(tournament, rules):
    """`rules` narrowed to those `tournament` may name as the rule its settings came from (and its pages
    show): the published ones and its organiser's own. Another organiser's own rule is never usable
    there, whatever a form or a file posts."""
    return rules.filter(Q(published=True) | Q(owner_id=tournament.organiser_id))


def may_edit_club_rule(user, rule):
    """Only an organiser's own rule is edited (or deleted) and only by them; a published rule never."""
    return is_organiser(user) and not rule.published and rule.owner_id == user.pk


def club_rule_for_organiser(user, pk):
    """A rule the organiser may read (published, or their own); 404 for another's."""
    require_organiser(user)
    return get_object_or_404(club_rules_visible_to(user, ClubRule.objects.all()), pk=pk)


def own_club_rule_for_organiser(user, pk):
    """A rule the organiser may change: their own; 403 for a published one, 404 for another's."""
    rule = club_rule_for_organiser(user, pk)
    if not may_edit_club_rule(user, rule):
        raise PermissionDenied
    return rule
