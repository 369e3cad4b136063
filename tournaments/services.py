"""Services that write clubs, players, tournaments and registrations, each with its audit entry."""
import csv
import io
from dataclasses import dataclass, field

from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.db.models.functions import Lower
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments.audit import audit, snapshot
from tournaments.models import Club, Player, Registration, Tournament

CLUB_FIELDS = ("name", "city")
PLAYER_FIELDS = ("first_name", "last_name", "nickname", "club", "city", "email")
TOURNAMENT_FIELDS = (
    "name", "start_date", "end_date", "venue", "club", "formula", "bonus", "spartaco_malus",
    "como_reference", "discard_worst", "best_of", "tiebreak", "table_size", "rounds_planned",
    "entry_fee", "published", "signup_open", "dispute_window_minutes",
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


@transaction.atomic
def club_save(*, user, data, club=None):
    before = snapshot(club, CLUB_FIELDS) if club else None
    club = club or Club()
    _apply(club, data, CLUB_FIELDS)
    club.full_clean()
    club.save()
    audit(user=user, action="club.update" if before else "club.create", obj=club,
          before=before, after=snapshot(club, CLUB_FIELDS))
    return club


# --- players -----------------------------------------------------------------------------------

def player_find_duplicate(*, first_name, last_name, club, exclude_pk=None):
    """Two players are the same person when name, surname and club match (case-insensitive)."""
    qs = Player.objects.annotate(lf=Lower("first_name"), ll=Lower("last_name")).filter(
        lf=first_name.strip().lower(), ll=last_name.strip().lower(), club=club)
    if exclude_pk:
        qs = qs.exclude(pk=exclude_pk)
    return qs.first()


@transaction.atomic
def player_save(*, user, data, player=None, tournament=None):
    before = snapshot(player, PLAYER_FIELDS) if player else None
    player = player or Player()
    _apply(player, data, PLAYER_FIELDS)
    player.full_clean()
    if player_find_duplicate(first_name=player.first_name, last_name=player.last_name, club=player.club,
                             exclude_pk=player.pk):
        raise ValidationError({"last_name": _("A player with this name and club already exists.")})
    player.save()
    audit(user=user, action="player.update" if before else "player.create", obj=player, player=player,
          tournament=tournament, before=before, after=snapshot(player, PLAYER_FIELDS))
    return player


CSV_COLUMNS = ("name", "surname", "nickname", "club", "city", "email")
CSV_ALIASES = {"nome": "name", "cognome": "surname", "soprannome": "nickname", "nick": "nickname",
               "citta": "city", "città": "city", "e-mail": "email"}


@dataclass
class CsvRow:
    line: int
    values: dict
    errors: list = field(default_factory=list)
    new_club: bool = False


@dataclass
class CsvPreview:
    rows: list
    file_errors: list

    @property
    def ok(self):
        return not self.file_errors and self.rows and all(not r.errors for r in self.rows)

    @property
    def error_count(self):
        return len(self.file_errors) + sum(1 for r in self.rows if r.errors)


MAX_CSV_ROWS = 2000


def players_csv_preview(text):
    """Parse a players CSV (name, surname, nickname, club, city, email) and check every row.

    Nothing is written: the organiser sees the rows and their errors, then confirms."""
    if not text.strip():
        return CsvPreview([], [_("The file is empty.")])
    sample = text[:4096]
    try:
        dialect = csv.Sniffer().sniff(sample, delimiters=",;\t")
    except csv.Error:
        dialect = csv.excel
    reader = csv.reader(io.StringIO(text), dialect)
    try:
        header = [h.strip().lower() for h in next(reader)]
    except (StopIteration, csv.Error):
        return CsvPreview([], [_("The file has no header row.")])
    header = [CSV_ALIASES.get(h, h) for h in header]
    missing = [c for c in ("name", "surname") if c not in header]
    if missing:
        return CsvPreview([], [_("Missing columns: %(cols)s. Expected: %(all)s.") % {
            "cols": ", ".join(missing), "all": ", ".join(CSV_COLUMNS)}])
    unknown = [h for h in header if h not in CSV_COLUMNS]
    if unknown:
        return CsvPreview([], [_("Unknown columns: %(cols)s. Expected: %(all)s.") % {
            "cols": ", ".join(unknown), "all": ", ".join(CSV_COLUMNS)}])
    rows, seen = [], {}
    try:
        for line_no, raw in enumerate(reader, start=2):
            if not any(cell.strip() for cell in raw):
                continue
            if len(rows) >= MAX_CSV_ROWS:
                return CsvPreview(rows, [_("Too many rows: at most %(n)d players per file.") % {"n": MAX_CSV_ROWS}])
            row = CsvRow(line_no, {c: "" for c in CSV_COLUMNS})
            if len(raw) != len(header):
                row.errors.append(_("expected %(a)d columns, found %(b)d") % {"a": len(header), "b": len(raw)})
            for col, cell in zip(header, raw):
                row.values[col] = cell.strip()
            _check_csv_row(row, seen)
            rows.append(row)
    except csv.Error as exc:
        return CsvPreview(rows, [_("The file is not a valid CSV: %(err)s") % {"err": exc}])
    if not rows:
        return CsvPreview([], [_("The file has no players.")])
    return CsvPreview(rows, [])


def _check_csv_row(row, seen):
    v = row.values
    limits = {"name": 80, "surname": 80, "nickname": 80, "club": 120, "city": 120}
    if not v["name"]:
        row.errors.append(_("name is empty"))
    if not v["surname"]:
        row.errors.append(_("surname is empty"))
    for col, limit in limits.items():
        if len(v[col]) > limit:
            row.errors.append(_("%(col)s is longer than %(n)d characters") % {"col": col, "n": limit})
    if v["email"]:
        try:
            validate_email(v["email"])
        except ValidationError:
            row.errors.append(_("email %(e)s is not valid") % {"e": v["email"]})
    if row.errors:
        return
    club = club_find_duplicate(name=v["club"]) if v["club"] else None
    row.new_club = bool(v["club"]) and club is None
    key = (v["name"].lower(), v["surname"].lower(), v["club"].lower())
    if key in seen:
        row.errors.append(_("same player as line %(n)d") % {"n": seen[key]})
    elif (club or not v["club"]) and player_find_duplicate(first_name=v["name"], last_name=v["surname"], club=club):
        row.errors.append(_("already registered: %(name)s %(surname)s") % v)
    seen.setdefault(key, row.line)


@transaction.atomic
def players_import_csv(*, user, text):
    """Create every player of the CSV, or none if any row has an error."""
    preview = players_csv_preview(text)
    if not preview.ok:
        raise ValidationError(_("The file has errors: nothing was imported."))
    created = []
    for row in preview.rows:
        v = row.values
        club = None
        if v["club"]:
            club = club_find_duplicate(name=v["club"]) or club_save(user=user, data={"name": v["club"], "city": v["city"]})
        created.append(player_save(user=user, data={
            "first_name": v["name"], "last_name": v["surname"], "nickname": v["nickname"],
            "club": club, "city": v["city"], "email": v["email"]}))
    return created


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


@transaction.atomic
def tournament_save(*, user, data, tournament=None):
    before = snapshot(tournament, TOURNAMENT_FIELDS) if tournament else None
    if tournament is None:
        tournament = Tournament(organiser=user)
    _apply(tournament, data, TOURNAMENT_FIELDS)
    tournament.full_clean()
    _check_discards(tournament)
    tournament.save()
    audit(user=user, action="tournament.update" if before else "tournament.create", obj=tournament,
          tournament=tournament, before=before, after=snapshot(tournament, TOURNAMENT_FIELDS))
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


@transaction.atomic
def registration_add(*, user, tournament, player, fee_paid=False, self_registered=False):
    """Register a player; after the first round has been seated it is a late entry."""
    Tournament.objects.select_for_update().get(pk=tournament.pk)
    if Registration.objects.filter(tournament=tournament, player=player).exists():
        raise ValidationError({"player": _("%(player)s is already registered.") % {"player": player}})
    next_round = _next_round_number(tournament)
    reg = Registration.objects.create(
        tournament=tournament, player=player, fee_paid=fee_paid,
        status=Registration.Status.PENDING if self_registered else Registration.Status.CONFIRMED,
        self_registered=self_registered, late_entry=next_round > 1, from_round=next_round)
    audit(user=user, action="registration.signup" if self_registered else "registration.add", obj=reg,
          tournament=tournament, player=player, after=snapshot(reg, REGISTRATION_FIELDS))
    return reg


@transaction.atomic
def registration_signup(*, tournament, data):
    """Public sign-up: finds or creates the player and adds a registration pending approval."""
    if not (tournament.published and tournament.signup_open):
        raise ValidationError(_("Sign-up for this tournament is closed."))
    club = data.get("club")
    player = player_find_duplicate(first_name=data["first_name"], last_name=data["last_name"], club=club)
    if player is None:
        player = player_save(user=None, tournament=tournament, data=data)
    return registration_add(user=None, tournament=tournament, player=player, self_registered=True)


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
