"""Services that write clubs, players, tournaments and registrations, each with its audit entry."""
import re

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Q
from django.db.models.functions import Lower
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments.audit.services import audit, snapshot
from tournaments.models import Club, ClubRule, Player, Registration, Tournament
from tournaments.models.core import SCREEN_PANELS
from tournaments.rules import (
    arbiter_accounts,
    club_rules_usable_in,
    is_own_tournament,
    may_change_club,
    may_change_player,
    may_see_player,
    players_visible_to,
)
from tournaments.text import fold

CLUB_FIELDS = ("name", "city")
PLAYER_FIELDS = ("first_name", "last_name", "nickname", "club", "city", "email", "national_id")
TOURNAMENT_FIELDS = (
    "name", "start_date", "end_date", "venue", "club", "formula", "bonus", "spartaco_malus",
    "como_reference", "discard_worst", "best_of", "tiebreak", "table_size", "rounds_planned",
    "entry_fee", "published", "signup_open", "dispute_window_minutes",
    "corrective_scope", "risiko_total", "spartaco_risiko_losers", "standard_eliminated", "club_preset",
)
REGISTRATION_FIELDS = ("status", "fee_paid", "present", "late_entry", "from_round")


def _apply(obj, data, fields):
    for name in fields:
        if name in data:
            setattr(obj, name, data[name])


# --- clubs -------------------------------------------------------------------------------------

def club_find_duplicate(*, name, exclude_pk=None):
    qs = Club.objects.annotate(lname=Lower("name")).filter(lname=name.strip().lower())
    if exclude_pk:
        qs = qs.exclude(pk=exclude_pk)
    return qs.first()


def showing_tournaments(obj):
    """The tournaments whose pages show a player (registered there) or a club (organising, or with a
    registered player of its own)."""
    if isinstance(obj, Player):
        qs = Tournament.objects.filter(registrations__player=obj)
    else:
        qs = Tournament.objects.filter(Q(club=obj) | Q(registrations__player__club=obj))
    return list(qs.distinct().order_by("pk"))


def require_may_change(user, obj):
    """A player's card or a club is changed by its creator (or an administrator) alone: anyone else is
    refused, with the name as saved (a form may have changed `obj` already)."""
    allowed = may_change_player if isinstance(obj, Player) else may_change_club
    if allowed(user, obj):
        return
    saved = type(obj)._base_manager.get(pk=obj.pk)
    raise ValidationError(_("%(name)s belongs to the organiser who created it: only they (or an administrator) "
                            "can change it.") % {"name": saved})


def _creator(user, tournament=None):
    """Who owns a record made now: the organiser typing it, or, for a public sign-up or an import made
    for a tournament, that tournament's organiser."""
    if user is not None and user.is_authenticated:
        return user
    return tournament.organiser if tournament is not None else None


PRIVATE_PLAYER_FIELDS = ("email", "national_id")


def _without_email(value):
    """An audit entry's before or after with every e-mail and national ID left out (nested snapshots too)."""
    if isinstance(value, dict):
        return {k: _without_email(v) for k, v in value.items() if k not in PRIVATE_PLAYER_FIELDS}
    return value


def audit_everywhere(*, tournaments, owner_id=None, **entry):
    """One audit entry in every tournament showing the object (one without a tournament if none does),
    so each organiser reads in their own log what changed in their pages. A player's e-mail and national
    ID are written only in the entries of the tournaments of their owner (`owner_id`) and in the entry
    without one."""
    for tournament in tournaments or [entry.pop("tournament", None)]:
        entry.pop("tournament", None)
        if tournament is not None and tournament.organiser_id != owner_id:
            audit(tournament=tournament, **{**entry, "before": _without_email(entry.get("before")),
                                            "after": _without_email(entry.get("after"))})
        else:
            audit(tournament=tournament, **entry)


@transaction.atomic
def club_save(*, user, data, club=None):
    before = snapshot(club, CLUB_FIELDS) if club else None
    tournaments = showing_tournaments(club) if club else []
    if club is not None:
        require_may_change(user, club)
    club = club or Club(created_by=_creator(user))
    _apply(club, data, CLUB_FIELDS)
    club.full_clean()
    club.save()
    audit_everywhere(tournaments=tournaments, user=user, action="club.update" if before else "club.create",
                     obj=club, before=before, after=snapshot(club, CLUB_FIELDS))
    return club


# --- players -----------------------------------------------------------------------------------

def player_find_duplicate(*, first_name, last_name, club, exclude_pk=None, viewer=None):
    """Two players are the same person when name, surname and club match, accents and case aside:
    "Pietro Forli" of a club is "Pietro Forlì" of the same club. With `viewer`, among the players they
    may see only (rules.players_visible_to): a record they may not see is never named to them."""
    qs = Player.objects.filter(name_key=fold(f"{first_name} {last_name}"), club=club)
    if exclude_pk:
        qs = qs.exclude(pk=exclude_pk)
    if viewer is not None:
        qs = players_visible_to(viewer, qs)
    return qs.first()


def _national_id_hidden(viewer, player):
    """Whether the player's national ID is held by another record `viewer` may not see: then the
    record is saved without it, as a workbook import does, and nothing names the other record."""
    if viewer is None or not player.national_id:
        return False
    holder = Player.all_players.filter(national_id=player.national_id).exclude(pk=player.pk).first()
    return holder is not None and not may_see_player(viewer, holder)


@transaction.atomic
def player_save(*, user, data, player=None, tournament=None, seen_by=None):
    """Create or change a player (the owner alone changes one). `seen_by`: the person asking through a form
    that must say nothing of records they may not see (the new-player form, the public sign-up, for
    the tournament's organiser): a namesake of the same club they may not see is not named (a record
    of their own is made, for an administrator to merge), and a national ID such a record holds is not
    saved. Without it a namesake anywhere is refused by name (imports, commands)."""
    before = snapshot(player, PLAYER_FIELDS) if player else None
    tournaments = showing_tournaments(player) if player else []
    if player is not None:
        require_may_change(user, player)
    else:
        player = Player(created_by=_creator(user, tournament))
    _apply(player, data, PLAYER_FIELDS)
    if _national_id_hidden(seen_by, player):
        player.national_id = ""
    player.full_clean()
    duplicate = player_find_duplicate(first_name=player.first_name, last_name=player.last_name, club=player.club,
                                      exclude_pk=player.pk, viewer=seen_by)
    if duplicate is not None:
        raise ValidationError({"last_name": _("A player with this name and club already exists: %(player)s.") % {
            "player": duplicate}})
    player.save()
    audit_everywhere(tournaments=tournaments, user=user, action="player.update" if before else "player.create",
                     owner_id=player.created_by_id, obj=player, player=player, tournament=tournament, before=before,
                     after=snapshot(player, PLAYER_FIELDS))
    return player


# --- tournaments -------------------------------------------------------------------------------

def _check_discards(tournament):
    """Seed 004 discards some of the games' results ("4 to 6 games, discarding 1 or 2"): at least one
    result counts, so the discards are fewer than the games, that is the rounds planned or, when
    more rounds have been played than planned, the rounds played."""
    discards = tournament.discard_worst or 0
    games = max(tournament.rounds_planned or 0, tournament.rounds.count() if tournament.pk else 0)
    if discards and discards >= games:
        raise ValidationError({"discard_worst": _("Discards must be fewer than the games: %(n)d planned or "
                                                  "played so far.") % {"n": games}})


def club_rule_refusal(tournament):
    """Why `tournament` may not name the club rule in its `club_preset` ("" when it may): a rule it may
    use (rules.club_rules_usable_in), else refused by its key, as if it did not exist."""
    key = tournament.club_preset
    if not key or club_rules_usable_in(tournament, ClubRule.objects.filter(key=key)).exists():
        return ""
    return _("No club rule “%(key)s” is published or yours.") % {"key": key}


@transaction.atomic
def tournament_save(*, user, data, tournament=None):
    before = snapshot(tournament, TOURNAMENT_FIELDS) if tournament else None
    if tournament is None:
        tournament = Tournament(organiser=user)
    _apply(tournament, data, TOURNAMENT_FIELDS)
    if tournament.club_preset != (before or {}).get("club_preset") and club_rule_refusal(tournament):
        raise ValidationError(club_rule_refusal(tournament))   # a hidden field: said at the form's top
    tournament.full_clean()
    _check_discards(tournament)
    tournament.save()
    after = snapshot(tournament, TOURNAMENT_FIELDS)
    if before is not None:
        # An update logs the settings that changed, and only those; saving unchanged settings logs nothing.
        changed = [name for name in TOURNAMENT_FIELDS if before[name] != after[name]]
        if not changed:
            return tournament
        before, after = {n: before[n] for n in changed}, {n: after[n] for n in changed}
    audit(user=user, action="tournament.update" if before else "tournament.create", obj=tournament,
          tournament=tournament, before=before, after=after)
    return tournament


def arbiters_to_copy(source):
    """The arbiters of `source` a copy of it takes along: active accounts, no administrator."""
    return list(arbiter_accounts(source.arbiters.all()).order_by("username"))


@transaction.atomic
def tournament_copy(*, user, data, source):
    """A new tournament with the settings in `data` (the form, pre-filled from `source`, one of the
    user's own tournaments) and the arbiters of `source`: one transaction, both audited."""
    if not is_own_tournament(user, source):
        raise ValidationError(_("Only one of your own tournaments can be copied."))
    tournament = tournament_save(user=user, data=data)
    arbiters = arbiters_to_copy(source)
    if arbiters:
        tournament_set_arbiters(user=user, tournament=tournament, arbiters=arbiters)
    return tournament


@transaction.atomic
def tournament_set_arbiters(*, user, tournament, arbiters):
    before = sorted(u.username for u in tournament.arbiters.all())
    tournament.arbiters.set(arbiters)
    audit(user=user, action="tournament.arbiters", obj=tournament, tournament=tournament,
          before={"arbiters": before}, after={"arbiters": sorted(u.username for u in arbiters)})


# --- registrations -----------------------------------------------------------------------------

def _next_round_number(tournament):
    last = tournament.rounds.order_by("-number").values_list("number", flat=True).first()
    return (last or 0) + 1


class AlreadyRegistered(ValidationError):
    """The player is already registered in the tournament."""


@transaction.atomic
def registration_add(*, user, tournament, player, fee_paid=False, self_registered=False, existing_player=False):
    """Register a player; after the first round has been seated it is a late entry."""
    Tournament.objects.select_for_update().get(pk=tournament.pk)
    if not may_see_player(user, player):
        raise ValidationError({"player": _("This player cannot be registered here.")})
    if Registration.objects.filter(tournament=tournament, player=player).exists():
        raise AlreadyRegistered({"player": _("%(player)s is already registered.") % {"player": player}})
    next_round = _next_round_number(tournament)
    reg = Registration.objects.create(
        tournament=tournament, player=player, fee_paid=fee_paid,
        status=Registration.Status.PENDING if self_registered else Registration.Status.CONFIRMED,
        self_registered=self_registered, existing_player=existing_player, late_entry=next_round > 1,
        from_round=next_round)
    audit(user=user, action="registration.signup" if self_registered else "registration.add", obj=reg,
          tournament=tournament, player=player,
          after={**snapshot(reg, REGISTRATION_FIELDS), **({"existing_player": True} if existing_player else {})})
    return reg


@transaction.atomic
def registration_update(*, user, registration, action_name, **changes):
    reg = Registration.objects.select_for_update().get(pk=registration.pk)
    before = snapshot(reg, REGISTRATION_FIELDS)
    _apply(reg, changes, REGISTRATION_FIELDS)
    if "status" in changes:
        reg.withdrawn_at = timezone.now() if reg.status == Registration.Status.WITHDRAWN else None
        if reg.status == Registration.Status.WITHDRAWN:
            reg.present = False
    reg.save()
    audit(user=user, action=f"registration.{action_name}", obj=reg, tournament=reg.tournament,
          player=reg.player, before=before, after=snapshot(reg, REGISTRATION_FIELDS))
    return reg


def registration_approve(*, user, registration):
    if registration.status != Registration.Status.PENDING:
        raise ValidationError(_("Only pending sign-ups can be approved."))
    return registration_update(user=user, registration=registration, action_name="approve",
                               status=Registration.Status.CONFIRMED)


def registration_reject(*, user, registration):
    """A public sign-up turned down: it leaves the list of players (withdrawn), logged as a rejection."""
    if registration.status != Registration.Status.PENDING:
        raise ValidationError(_("Only pending sign-ups can be rejected."))
    return registration_update(user=user, registration=registration, action_name="reject",
                               status=Registration.Status.WITHDRAWN)


def registration_withdraw(*, user, registration):
    """Withdrawal keeps the player's past results; they are no longer seated."""
    return registration_update(user=user, registration=registration, action_name="withdraw",
                               status=Registration.Status.WITHDRAWN)


def registration_reinstate(*, user, registration):
    return registration_update(user=user, registration=registration, action_name="reinstate",
                               status=Registration.Status.CONFIRMED)


def registration_set_fee_paid(*, user, registration, paid):
    return registration_update(user=user, registration=registration, action_name="fee", fee_paid=paid)


def registration_check_in(*, user, registration, present):
    if present and registration.status != Registration.Status.CONFIRMED:
        raise ValidationError(_("Only confirmed players can be checked in."))
    return registration_update(user=user, registration=registration, action_name="checkin", present=present)


@transaction.atomic
def registrations_add_players(*, user, tournament, players):
    """Register several players at once ("register selected"); those already registered are skipped."""
    already = set(Registration.objects.filter(tournament=tournament, player__in=players)
                  .values_list("player_id", flat=True))
    return [registration_add(user=user, tournament=tournament, player=p) for p in players if p.pk not in already]


@transaction.atomic
def registrations_check_in_all(*, user, tournament):
    """Everybody confirmed is present ("tutti presenti"): one audit entry per player checked in."""
    regs = (Registration.objects.select_for_update().filter(
        tournament=tournament, status=Registration.Status.CONFIRMED, present=False))
    return [registration_update(user=user, registration=reg, action_name="checkin", present=True) for reg in regs]


# --- the room: big screen and embedded standings (tables.room) --------------------------------------
ROOM_FIELDS = ("screen_panels", "screen_seconds", "embed_origins")
_ORIGIN = re.compile(r"^https?://[a-z0-9]([a-z0-9.-]*[a-z0-9])?(:[0-9]{1,5})?$")


def clean_origins(text):
    """The sites allowed to frame the standings widget, one origin a line (scheme, host, port), as
    a browser names them in frame-ancestors; anything else is refused with the line in the message."""
    origins = []
    for line in str(text).splitlines():
        origin = line.strip().rstrip("/").lower()
        if not origin:
            continue
        if not _ORIGIN.match(origin):
            raise ValidationError({"embed_origins": _("“%(line)s” is not a site address such as "
                                                      "https://www.myclub.it") % {"line": line.strip()[:80]}})
        if origin not in origins:
            origins.append(origin)
    if len(origins) > 10:
        raise ValidationError({"embed_origins": _("At most 10 sites.")})
    return "\n".join(origins)


@transaction.atomic
def tournament_room_save(*, user, tournament, data):
    """The big screen's panels and pace, and the sites allowed to embed the standings: audited as
    any change of the tournament's settings, only the fields that changed."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    before = snapshot(tournament, ROOM_FIELDS)
    panels = [p for p in data.get("screen_panels", tournament.screen_panel_list) if p in SCREEN_PANELS]
    if not panels:
        raise ValidationError({"screen_panels": _("Choose at least one panel.")})
    tournament.screen_panels = ",".join(p for p in SCREEN_PANELS if p in panels)
    if "screen_seconds" in data:
        tournament.screen_seconds = data["screen_seconds"]
    if "embed_origins" in data:
        tournament.embed_origins = clean_origins(data["embed_origins"])
    tournament.full_clean()
    tournament.save(update_fields=list(ROOM_FIELDS))
    after = snapshot(tournament, ROOM_FIELDS)
    changed = [name for name in ROOM_FIELDS if before[name] != after[name]]
    if changed:
        audit(user=user, action="tournament.update", obj=tournament, tournament=tournament,
              before={n: before[n] for n in changed}, after={n: after[n] for n in changed})
    return tournament
