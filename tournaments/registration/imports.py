"""Lists of players: a CSV file or a pasted list of names, checked row by row before anything is saved.

Into the players' list (`players_import_csv`: every row is a new player) or straight into a tournament
(`registrations_import`: players already known are registered, new ones are created and registered)."""
import csv
import io
import re
from dataclasses import dataclass, field

from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournaments.models import Registration, Tournament
from tournaments.registration.selectors import PersonMatcher, known_label
from tournaments.rules import may_change_player
from tournaments.services import club_find_duplicate, club_save, player_save, registration_add
from tournaments.text import as_written, clean_name, fold, mixes_look_alike_letters

CSV_COLUMNS = ("name", "surname", "nickname", "club", "city", "email")
CSV_ALIASES = {"nome": "name", "cognome": "surname", "soprannome": "nickname", "nick": "nickname",
               "citta": "city", "città": "city", "e-mail": "email"}
# Words that belong to the surname when a pasted line is split: "Luca De Santis", "Anna Della Valle".
SURNAME_PARTICLES = {"de", "di", "da", "del", "della", "dei", "degli", "delle", "dal", "dalla", "dello",
                     "lo", "la", "li", "van", "von", "d'", "dall'", "dell'"}


@dataclass
class CsvRow:
    line: int
    values: dict
    errors: list = field(default_factory=list)
    new_club: bool = False
    player: object = None          # the player already in the database (tournament import)
    registered: bool = False       # already registered in the tournament: skipped
    candidates: list = field(default_factory=list)  # the known players asked about: which one?
    question: str = ""             # "choose" (several by this name), "elsewhere" (another club), "near"
    moved: bool = False            # the known player, now at the club the row names


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

    @property
    def to_register(self):
        return [r for r in self.rows if not r.registered]

    @property
    def valid_to_register(self):
        """The rows without an error that are not registered yet: what "register the valid rows" adds."""
        return [r for r in self.rows if not r.errors and not r.registered]

    @property
    def error_lines(self):
        return [r.line for r in self.rows if r.errors]

    @property
    def to_choose(self):
        """Rows naming several known players, waiting for the organiser to say which."""
        return [r for r in self.rows if r.candidates and not r.errors]


MAX_CSV_ROWS = 2000


def split_full_name(text):
    """'Maria Grazia Rossi' -> ('Maria Grazia', 'Rossi'); 'Luca De Santis' -> ('Luca', 'De Santis');
    the surname starts at its first particle, as typed: 'Giovanni Della Torre di Montebello' ->
    ('Giovanni', 'Della Torre di Montebello'). The player's card corrects a split that guessed wrong."""
    words = text.split()
    if len(words) < 2:
        return (text.strip(), "")
    cut = next((i for i in range(1, len(words) - 1) if words[i].lower() in SURNAME_PARTICLES), len(words) - 1)
    return (" ".join(words[:cut]), " ".join(words[cut:]))


def pasted_list_to_csv(text):
    """A pasted list, one player a line: 'Name Surname' or 'Name Surname; Club' (also tab or comma).

    A blank line stays a blank row (skipped by the preview), so that row n of the CSV is line n - 1
    of the pasted list: the preview numbers the pasted lines from the first name, counted as 1."""
    out = io.StringIO()
    writer = csv.writer(out, delimiter=";")
    writer.writerow(["name", "surname", "club"])
    for line in text.splitlines():
        if not line.strip():
            writer.writerow(["", "", ""])
            continue
        parts = [p.strip() for p in re.split(r"[;\t,]", line, maxsplit=1)]
        first, last = split_full_name(parts[0])
        writer.writerow([first, last, parts[1] if len(parts) > 1 else ""])
    return out.getvalue()


def players_csv_preview(text, *, user=None, tournament=None, pasted=False, picks=None):
    """Parse a players CSV (name, surname, nickname, club, city, email) and check every row.

    Nothing is written: the organiser sees the rows and their errors, then confirms. Each name is
    matched against the players `user` may see, case, accents and spacing aside: with a tournament,
    the one known player by that name (and club, when the row names one) is the one registered;
    several are the row's `candidates`, and `picks` ({line: player id, or "new"}) says which one the
    organiser chose; given `picks` (the confirmation), a row still undecided is an error. Into the
    players' list (no tournament), a known name is an error: that player is already there.
    Rows are numbered as the file's lines (the header is line 1), or, for a `pasted` list (made by
    `pasted_list_to_csv`), as the pasted lines, the first name being line 1."""
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
    matcher = PersonMatcher(user)
    try:
        for line_no, raw in enumerate(reader, start=1 if pasted else 2):
            if not any(cell.strip() for cell in raw):
                continue
            if len(rows) >= MAX_CSV_ROWS:
                return CsvPreview(rows, [_("Too many rows: at most %(n)d players per file.") % {"n": MAX_CSV_ROWS}])
            row = CsvRow(line_no, {c: "" for c in CSV_COLUMNS})
            if len(raw) != len(header):
                row.errors.append(_("expected %(a)d columns, found %(b)d") % {"a": len(header), "b": len(raw)})
            for col, cell in zip(header, raw):
                # Names as the player form stores them: NFKC, no invisible or direction characters.
                row.values[col] = cell.strip() if col == "email" else clean_name(cell)
                if col in ("name", "surname"):
                    row.values[col] = as_written(row.values[col])   # "ROSSI" is stored "Rossi"
            _check_csv_row(row, seen, matcher, tournament, picks)
            rows.append(row)
    except csv.Error as exc:
        return CsvPreview(rows, [_("The file is not a valid CSV: %(err)s") % {"err": exc}])
    if not rows:
        return CsvPreview([], [_("The file has no players.")])
    return CsvPreview(rows, [])


def _check_csv_row(row, seen, matcher, tournament, picks):
    v = row.values
    limits = {"name": 80, "surname": 80, "nickname": 80, "club": 120, "city": 120}
    if not v["name"]:
        row.errors.append(_("name is empty"))
    if not v["surname"]:
        row.errors.append(_("surname is empty"))
    for col, limit in limits.items():
        if len(v[col]) > limit:
            row.errors.append(_("%(col)s is longer than %(n)d characters") % {"col": col, "n": limit})
        elif mixes_look_alike_letters(v[col]):
            row.errors.append(_("%(col)s mixes letters of different alphabets that look alike") % {"col": col})
    if v["email"]:
        try:
            validate_email(v["email"])
        except ValidationError:
            row.errors.append(_("email %(e)s is not valid") % {"e": v["email"]})
    if row.errors:
        return
    found = matcher.match(first_name=v["name"], last_name=v["surname"], club_name=v["club"])
    row.new_club = bool(v["club"]) and found.club is None
    if tournament is None:
        # Into the players' list: a name already there (in the club named) is an error.
        known = [found.player] if found.player is not None else found.candidates
        if known:
            row.errors.append(ngettext("already in the list: %(players)s", "already in the list: %(players)s",
                                       len(known)) % {"players": "; ".join(known_label(p) for p in known)})
        key = (fold_key(v),)
        if key in seen and not row.errors:
            row.errors.append(_("same player as line %(n)d") % {"n": seen[key]})
        seen.setdefault(key, row.line)
        return
    question, pick = found.question, (picks or {}).get(row.line, "")
    if question and pick:
        found = found.answer(pick)
    if found.question:
        row.candidates, row.question = list(found.asked), found.question
        if picks is not None:
            row.errors.append(_("%(name)s: answer the question (which known player, or someone new)") % {
                "name": f"{v['name']} {v['surname']}"})
        return
    match = found.player
    row.moved = match is not None and question == "elsewhere"
    key = (match.pk,) if match else (fold_key(v),)
    if key in seen:
        row.errors.append(_("same player as line %(n)d") % {"n": seen[key]})
    elif match:
        row.player = match
        row.registered = Registration.objects.filter(tournament=tournament, player=match).exists()
    seen.setdefault(key, row.line)


def fold_key(values):
    """A new player's row as compared with the list's other rows: name and club, case, accents and spacing aside."""
    return fold(f"{values['name']} {values['surname']}|{values['club']}")


def _club_for(user, values):
    if not values["club"]:
        return None
    return club_find_duplicate(name=values["club"]) or club_save(
        user=user, data={"name": values["club"], "city": values["city"]})


def _new_player(user, values, tournament=None):
    return player_save(user=user, tournament=tournament, data={
        "first_name": values["name"], "last_name": values["surname"], "nickname": values["nickname"],
        "club": _club_for(user, values), "city": values["city"], "email": values["email"]})


@transaction.atomic
def players_import_csv(*, user, text):
    """Create every player of the CSV, or none if any row has an error."""
    preview = players_csv_preview(text, user=user)
    if not preview.ok:
        raise ValidationError(_("The file has errors: nothing was imported."))
    return [_new_player(user, row.values) for row in preview.rows]


@transaction.atomic
def registrations_import(*, user, tournament, text, valid_only=False, pasted=False, picks=None):
    """Register every player of the list in the tournament, creating those not yet known; all or nothing.

    With `valid_only` the rows with an error are left out and the others registered (a name twice in
    the list is registered once: its second line is the row in error). The list is checked again
    here, in the transaction: a player registered meanwhile is skipped, never registered twice.
    `picks` says which known player a row naming several is (`players_csv_preview`).
    Returns (registered, created): how many registrations were added, how many of them are new players."""
    Tournament.objects.select_for_update().get(pk=tournament.pk)
    preview = players_csv_preview(text, user=user, tournament=tournament, pasted=pasted, picks=picks or {})
    if preview.file_errors or not preview.rows:
        raise ValidationError(preview.file_errors or _("The list has no players."))
    if not preview.ok and not valid_only:
        raise ValidationError(_("The list has errors: nothing was registered."))
    registered = created = 0
    for row in preview.valid_to_register:
        player = row.player
        if player is None:
            player = _new_player(user, row.values, tournament)
            created += 1
        elif row.moved and may_change_player(user, player):
            # "The same person, now at this club": one record, at the club the list names.
            player = player_save(user=user, player=player, tournament=tournament,
                                 data={"club": _club_for(user, row.values)})
        registration_add(user=user, tournament=tournament, player=player)
        registered += 1
    return registered, created


def lines_of(text, numbers):
    """The pasted lines `numbers` (the first line being 1) of `text`, to put back in the box."""
    wanted = set(numbers)
    return "\n".join(line for n, line in enumerate(text.splitlines(), start=1) if n in wanted)


def still_wrong_lines(text, *, user, tournament, numbers):
    """The pasted lines `numbers` of `text` that are still wrong once the others are registered (a
    line that only repeated a name now registered is done, not left in the box), as the box's text:
    the message counting them and the preview marking them then agree."""
    lines = lines_of(text, numbers)
    again = players_csv_preview(pasted_list_to_csv(lines), user=user, tournament=tournament, pasted=True)
    return lines_of(lines, [row.line for row in again.rows if row.errors])


def import_summary(registered, created):
    return ngettext("%(n)d player registered", "%(n)d players registered", registered) % {"n": registered} + \
        " (" + ngettext("%(n)d new", "%(n)d new", created) % {"n": created} + ")."
