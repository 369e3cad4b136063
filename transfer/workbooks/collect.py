"""What both layouts share once a row is read: one Person per somebody (by national ID, else by name and
club, a row without a club joining the one person of that name with one), one seat per player and round,
tables in the order of their numbers."""
import re

from django.utils.translation import gettext as _

from tournaments.registration.imports import SURNAME_PARTICLES, split_full_name
from tournaments.text import as_written, fold, mixes_look_alike_letters
from transfer.workbooks.model import Person, RoundEntry, SeatEntry, TableEntry

NAME_LIMITS = {"first_name": 80, "last_name": 80, "nickname": 80, "club": 120}


NICKNAME = re.compile(r"^(.*?)\s*[(\[«\"“]\s*([^)\]»\"”]{1,80})\s*[)\]»\"”]\s*(.*)$")


def split_nickname(text):
    """"Mario Rossi (Supermario)" -> ("Mario Rossi", "Supermario"); a name without brackets as it is."""
    match = NICKNAME.match(text or "")
    if not match or not (match.group(1) + match.group(3)).strip():
        return text, ""
    return " ".join(f"{match.group(1)} {match.group(3)}".split()), match.group(2).strip()


def readings(full_name, surname_first=False):
    """A name in one cell read both ways, the likelier first: "Maria Grazia Rossi" is ("Maria Grazia",
    "Rossi"), or else ("Rossi", ...) read surname first; a column "Cognome e nome" the other way round.
    A surname in capitals before a first name ("ROSSI Mario") is read surname first. Names in capitals
    come back as people write them. Returns (reading, other reading or ())."""
    words = full_name.split()
    caps = [w.isupper() and sum(c.isalpha() for c in w) > 1 for w in words]
    if len(words) > 1 and caps[0] and not all(caps):
        cut = caps.index(False)
        return (as_written(" ".join(words[cut:])), as_written(" ".join(words[:cut]))), ()
    natural = split_full_name(full_name)
    cut = 1
    while cut < len(words) - 1 and words[cut - 1].lower() in SURNAME_PARTICLES:
        cut += 1
    surname_led = (" ".join(words[cut:]), " ".join(words[:cut])) if len(words) > 1 else ()
    first, second = (surname_led, natural) if surname_first and surname_led else (natural, surname_led)
    first, second = tuple(map(as_written, first)), tuple(map(as_written, second))
    return first, (second if second and second != first else ())


class Collector:
    def __init__(self, past):
        self.past = past
        self.by_id = {}       # national ID -> person key
        self.by_name = {}     # fold(name) -> {fold(club): key}
        self.rounds = {}      # round number -> RoundEntry
        self.tables = {}      # (round, table) -> TableEntry
        self.seated = {}      # (round, person key) -> SeatEntry

    def person(self, *, first_name, last_name, cell, club="", nickname="", national_id="", other_reading=()):
        """The key of the person of this row (made on first sight), or None after refusing the row."""
        values = {"first_name": first_name, "last_name": last_name, "nickname": nickname, "club": club}
        if not first_name or not last_name:
            self.past.refuse(_("write the player's name and surname"), cell)
            return None
        for name, value in values.items():
            if len(value) > NAME_LIMITS[name]:
                self.past.refuse(_("“%(value)s” is longer than %(n)d characters") % {
                    "value": value[:40], "n": NAME_LIMITS[name]}, cell)
                return None
            if mixes_look_alike_letters(value):
                self.past.refuse(_("“%(value)s” mixes letters of different alphabets that look alike")
                                 % {"value": value}, cell)
                return None
        name, club_key = fold(f"{first_name} {last_name}"), fold(club)
        key = self.by_id.get(national_id) if national_id else None
        clubs = self.by_name.setdefault(name, {})
        if key is None:
            key = clubs.get(club_key)
            if key is None and not club_key and len(clubs) == 1:
                key = next(iter(clubs.values()))          # the same name, its club left out this time
            if key is None and club_key and set(clubs) == {""}:
                key = clubs.pop("")                        # the club given at last
                clubs[club_key] = key
        if key is None:
            key = f"p{len(self.past.people) + 1}"
            self.past.people[key] = Person(key=key, first_name=first_name, last_name=last_name, cell=cell,
                                           other_reading=tuple(other_reading))
        clubs.setdefault(club_key, key)
        known = self.past.people[key]
        for attr, value in (("club", club), ("nickname", nickname), ("national_id", national_id)):
            if value and not getattr(known, attr):
                setattr(known, attr, value)
        if national_id:
            self.by_id.setdefault(national_id, key)
        return key

    def seat(self, *, round_number, sheet, table_number, table_cell, seat):
        """Seat `seat` (a SeatEntry) at its table; a player named twice in one round is refused."""
        rnd = self.rounds.get(round_number)
        if rnd is None:
            rnd = self.rounds[round_number] = RoundEntry(number=round_number, sheet=sheet)
        earlier = self.seated.get((round_number, seat.person))
        if earlier is not None:
            self.past.refuse(_("%(name)s is named twice in round %(round)d (also row %(row)d)") % {
                "name": self.past.people[seat.person].full_name, "round": round_number, "row": earlier.row.row},
                seat.cells.get("player", seat.row), seat=seat)
            return
        self.seated[(round_number, seat.person)] = seat
        table = self.tables.get((round_number, table_number))
        if table is None:
            table = self.tables[(round_number, table_number)] = TableEntry(number=table_number, cell=table_cell)
            rnd.tables.append(table)
        table.seats.append(seat)

    def finish(self):
        """The tournament read: rounds and tables by number; only the people who played one game."""
        self.past.rounds = [self.rounds[n] for n in sorted(self.rounds)]
        playing = {person for _round, person in self.seated}
        self.past.people = {key: p for key, p in self.past.people.items() if key in playing}
        for rnd in self.past.rounds:
            rnd.tables.sort(key=lambda t: t.number)
        return self.past


def new_seat(person, row_cell):
    return SeatEntry(person=person, row=row_cell)
