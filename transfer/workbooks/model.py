"""What a workbook holds once read, whatever its layout: the people named, the rounds, their tables and
seats, every value with the cell it came from, so that any refusal names the sheet, row and column."""
from dataclasses import asdict, dataclass, field
from decimal import Decimal

from django.utils.translation import gettext as _

# The settings of a past tournament that the organiser (or a club rule) chooses; the rest are the
# model's defaults.
SETTINGS = ("formula", "bonus", "spartaco_malus", "como_reference", "discard_worst", "best_of", "tiebreak",
            "risiko_total", "spartaco_risiko_losers", "standard_eliminated", "corrective_scope", "club_preset")
LAYOUT_CLUB = "club"
LAYOUT_GESTIONE = "gestionetorneo"


@dataclass(frozen=True)
class Cell:
    """A place in the workbook as the spreadsheet shows it: sheet, row from 1, column letter and header."""
    sheet: str
    row: int = 0
    column: str = ""
    header: str = ""

    def __str__(self):
        if not self.row:
            return _("sheet “%(sheet)s”") % {"sheet": self.sheet}
        if not self.column:
            return _("sheet “%(sheet)s”, row %(row)d") % {"sheet": self.sheet, "row": self.row}
        column = f"{self.column} ({self.header})" if self.header else self.column
        return _("sheet “%(sheet)s”, row %(row)d, column %(column)s") % {
            "sheet": self.sheet, "row": self.row, "column": column}


class WorkbookError(Exception):
    """A file that cannot be imported as it is: the message, and the cell that stops it (None for the
    file as a whole). `str()` is one line, the cell first."""

    def __init__(self, message, cell=None, file=""):
        self.message = " ".join(str(message).split())
        self.cell = cell
        self.file = file
        super().__init__(str(self))

    def __str__(self):
        text = f"{self.cell}: {self.message}" if self.cell is not None else self.message
        return f"{self.file}: {text}" if self.file else text


def column_letter(index):
    """0 -> "A", 26 -> "AA"."""
    letters = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        letters = chr(65 + rest) + letters
    return letters


@dataclass
class Person:
    """Somebody the workbook names: `key` is how its rows refer to them."""
    key: str
    first_name: str
    last_name: str
    cell: Cell
    club: str = ""
    nickname: str = ""
    national_id: str = ""
    # "Rossi Mario" in a single column may be surname first: the other reading, tried when the first
    # finds nobody known.
    other_reading: tuple = ()

    @property
    def full_name(self):
        return f"{self.first_name} {self.last_name}".strip()


@dataclass
class SeatEntry:
    person: str
    row: Cell
    table_points: Decimal | None = None
    eliminated: int | None = None
    risiko: bool = False
    place: int | None = None
    penalty: Decimal = Decimal(0)
    cells: dict = field(default_factory=dict)   # result field -> Cell
    errors: list = field(default_factory=list)  # the messages of the row's refusals


@dataclass
class TableEntry:
    number: int
    cell: Cell
    seats: list = field(default_factory=list)
    errors: list = field(default_factory=list)


@dataclass
class RoundEntry:
    number: int
    sheet: str
    tables: list = field(default_factory=list)


@dataclass
class PastTournament:
    """A whole tournament as read: who played, and every round's tables. `errors` are WorkbookErrors in
    the order of the workbook; a tournament with errors is never imported."""
    layout: str
    people: dict = field(default_factory=dict)
    rounds: list = field(default_factory=list)
    errors: list = field(default_factory=list)
    notes: list = field(default_factory=list)          # what was left out or read by a rule, for the preview
    not_a_tournament: bool = False                      # no sheet of rounds at all (a season's other files)
    # GestioneTorneo's type of tournament, from its sheet TORNEO (cell D5): "open", "raduno", "master",
    # "nazionale", "gufo" (see transfer.workbooks.gestione.KINDS), "" when the file does not say.
    kind: str = ""
    kind_written: str = ""                              # the cell as written, for the preview
    final_round: int = 0                                # the round that is the tournament's final (a "Finale")

    def note(self, message, cell=None):
        text = str(WorkbookError(message, cell))
        if text not in self.notes:
            self.notes.append(text)

    def refuse(self, message, cell=None, seat=None, table=None):
        error = WorkbookError(message, cell)
        self.errors.append(error)
        for entry in (seat, table):
            if entry is not None:
                entry.errors.append(str(error))
        return error

    @property
    def first_error(self):
        return self.errors[0] if self.errors else None

    def seats(self):
        for rnd in self.rounds:
            for table in rnd.tables:
                for seat in table.seats:
                    yield rnd, table, seat


# --- kept between the preview and the confirmation (signed, see transfer.workbooks.forms) ----------

def to_document(past):
    """The tournament read as plain JSON-able values (its errors left out: it is read again if any)."""
    def plain(value):
        if isinstance(value, Decimal):
            return str(value)
        if isinstance(value, dict):
            return {k: plain(v) for k, v in value.items()}
        if isinstance(value, (list, tuple)):
            return [plain(v) for v in value]
        return value
    return plain({"layout": past.layout, "kind": past.kind, "kind_written": past.kind_written,
                  "final_round": past.final_round,
                  "notes": list(past.notes), "people": [asdict(p) for p in past.people.values()],
                  "rounds": [asdict(r) for r in past.rounds]})


def from_document(doc):
    def cell(value):
        return Cell(**value)

    def seat(value):
        return SeatEntry(person=value["person"], row=cell(value["row"]),
                         table_points=None if value["table_points"] is None else Decimal(value["table_points"]),
                         eliminated=value["eliminated"], risiko=value["risiko"], place=value["place"],
                         penalty=Decimal(value["penalty"]),
                         cells={k: cell(v) for k, v in value["cells"].items()})
    people = {}
    for value in doc["people"]:
        people[value["key"]] = Person(**{**value, "cell": cell(value["cell"]),
                                         "other_reading": tuple(value["other_reading"])})
    rounds = [RoundEntry(number=r["number"], sheet=r["sheet"], tables=[
        TableEntry(number=t["number"], cell=cell(t["cell"]), seats=[seat(s) for s in t["seats"]])
        for t in r["tables"]]) for r in doc["rounds"]]
    return PastTournament(layout=doc["layout"], people=people, rounds=rounds, notes=list(doc.get("notes", [])),
                          kind=doc.get("kind", ""), kind_written=doc.get("kind_written", ""),
                          final_round=doc.get("final_round", 0))
