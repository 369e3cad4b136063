"""Tidying the players' list: merging two records of one person (or asking an administrator to), deleting
an unused player or club; the public sign-up."""
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Count
from django.utils.translation import gettext as _

from tournaments.audit.services import audit, snapshot
from tournaments.models import AuditLog, Club, Player, Registration, Tournament
from tournaments.registration.selectors import clubs_of, match_person
from tournaments.rules import may_merge_players, merge_kept, players_visible_to
from tournaments.services import (
    CLUB_FIELDS,
    PLAYER_FIELDS,
    audit_everywhere,
    player_save,
    registration_add,
    require_may_change,
    showing_tournaments,
)
from tournaments.text import fold

# Left empty on the player kept, these are taken from the merged one (the e-mail only when one organiser
# owns both: it never crosses to another owner's card).
FILLED_ON_MERGE = ("nickname", "club", "city", "email")
PRIVATE_ON_MERGE = ("email",)


def duplicate_name_keys(user):
    """Names (folded) that more than one player `user` may see bears: possible duplicates, shown with a flag."""
    return set(players_visible_to(user, Player.objects.all()).values("name_key").annotate(n=Count("pk"))
               .filter(n__gt=1).values_list("name_key", flat=True))


def merge_candidates(user, player):
    """Other players `user` may see with the same surname, accents and case aside: the likely other record."""
    surname = player.name_key.split(" ")[-1] if player.name_key else ""
    if not surname:
        return Player.objects.none()
    return players_visible_to(user, Player.objects.select_related("club").exclude(pk=player.pk)
                              .filter(name_key__endswith=f" {surname}"))[:50]


@transaction.atomic
def player_merge(*, user, keep, drop):
    """`drop` is the same person as `keep`: their registrations (and with them every result, penalty
    and team place) move to the record kept; the other leaves the lists and stays in the database for
    the log. Across owners (an administrator's merge) the record kept is the one made first, with its
    owner (rules.merge_kept), and no e-mail crosses from one owner's card to the other's."""
    keep = Player.objects.select_for_update().get(pk=keep.pk)
    drop = Player.objects.select_for_update().get(pk=drop.pk)
    keep, drop = merge_kept(keep, drop)
    same_owner = keep.created_by_id == drop.created_by_id
    if keep.pk == drop.pk:
        raise ValidationError(_("Choose another player to merge with."))
    if not may_merge_players(user, keep, drop):
        raise ValidationError(_("%(drop)s and %(keep)s were created by different organisers: only an administrator "
                                "can merge them.") % {"drop": drop, "keep": keep})
    shown = {player: showing_tournaments(player) for player in (keep, drop)}
    tournaments = sorted({t.pk: t for ts in shown.values() for t in ts}.values(), key=lambda t: t.pk)
    both = Tournament.objects.filter(registrations__player=keep).filter(registrations__player=drop).first()
    if both is not None:
        raise ValidationError(_("Both players are registered in %(t)s: withdraw one of the two registrations "
                                "there first.") % {"t": both})
    before = {"kept": snapshot(keep, PLAYER_FIELDS), "merged": snapshot(drop, PLAYER_FIELDS),
              "registrations": sorted(Registration.objects.filter(player=drop).values_list("pk", flat=True))}
    for name in FILLED_ON_MERGE:
        if name in PRIVATE_ON_MERGE and not same_owner:
            continue
        if not getattr(keep, name) and getattr(drop, name):
            setattr(keep, name, getattr(drop, name))
    keep.save()
    Registration.objects.filter(player=drop).update(player=keep)
    drop.removed, drop.merged_into = True, keep
    drop.save(update_fields=["removed", "merged_into"])
    audit_everywhere(tournaments=tournaments, user=user, action="player.merge", owner_id=keep.created_by_id,
                     obj=keep, player=keep,
                     before=before, after={"kept": snapshot(keep, PLAYER_FIELDS), "merged_into": keep.pk})
    return keep


@transaction.atomic
def player_merge_request(*, user, keep, drop):
    """`user` says `drop` is the same person as `keep`, two records they may not merge themselves: the
    request is an entry of the log, listed to administrators until the two are merged."""
    if keep.pk == drop.pk:
        raise ValidationError(_("Choose another player to merge with."))
    if may_merge_players(user, keep, drop):
        raise ValidationError(_("You can merge these two players yourself."))
    audit(user=user, action="player.merge_request", obj=drop, player=drop,
          after={"merge": drop.pk, "into": keep.pk, "merged_name": str(drop), "kept_name": str(keep)})


@transaction.atomic
def player_delete(*, user, player):
    """Delete a player who was never registered. Named by the audit log, they stay there, unlisted."""
    player = Player.objects.select_for_update().get(pk=player.pk)
    require_may_change(user, player)
    if Registration.objects.filter(player=player).exists():
        raise ValidationError(_("%(p)s has registrations: they cannot be deleted (merge them instead).")
                              % {"p": player})
    before, player_pk = snapshot(player, PLAYER_FIELDS), player.pk
    if AuditLog.objects.filter(player=player).exists():
        player.removed = True
        player.save(update_fields=["removed"])
    else:
        player.delete()
    audit(user=user, action="player.delete", obj=None, before={**before, "id": player_pk})


@transaction.atomic
def club_delete(*, user, club):
    """Delete a club no listed player and no tournament belongs to."""
    club = Club.objects.select_for_update().get(pk=club.pk)
    require_may_change(user, club)
    if Player.objects.filter(club=club).exists() or Tournament.objects.filter(club=club).exists():
        raise ValidationError(_("%(c)s has players or tournaments: it cannot be deleted.") % {"c": club})
    before = snapshot(club, CLUB_FIELDS)
    Player.all_players.filter(club=club, removed=True).update(club=None)
    club_pk = club.pk
    club.delete()
    audit(user=user, action="club.delete", obj=None, before={**before, "id": club_pk})


@transaction.atomic
def registration_signup(*, tournament, data):
    """Public sign-up: finds or creates the player and adds a registration pending approval.

    The name is matched against the players the tournament's organiser can see (`match_person`):
    exactly one by that name (and club, when chosen) is the person signing up, registered and marked
    `existing_player` for the organiser to check (anyone can type a name); the details typed (e-mail,
    city...) do not change their card. Several by that name and no club chosen: the form asks for the
    club, naming the candidates' clubs. A new player whose name another player bears is marked too.
    Raises AlreadyRegistered when the player is registered already: the page answers as for any
    sign-up, so nobody learns who is registered."""
    if not (tournament.published and tournament.signup_open):
        raise ValidationError(_("Sign-up for this tournament is closed."))
    club = data.get("club")
    names = {"first_name": data["first_name"], "last_name": data["last_name"]}
    # The one matching of a person, its exact answers only: a public page never suggests a near miss.
    found = match_person(viewer=tournament.organiser, club_name=club.name if club is not None else "", **names)
    known = [found.player] if found.player is not None else found.candidates
    if club is None and len(known) > 1:
        raise ValidationError({"club": _("Several players are called %(name)s (%(clubs)s): choose your club.") % {
            "name": known[0].full_name, "clubs": clubs_of(known)}})
    player = known[0] if len(known) == 1 else None
    # The same name in another club (or none) is flagged too: the players' list shows such namesakes
    # as look-alikes, and an impostor would simply pick another club.
    existing = player is not None or Player.objects.filter(name_key=fold(f"{names['first_name']} "
                                                                         f"{names['last_name']}")).exists()
    if player is None:
        player = player_save(user=None, tournament=tournament, data=data, seen_by=tournament.organiser)
    return registration_add(user=None, tournament=tournament, player=player, self_registered=True,
                            existing_player=existing)
