"""A club's own sheets: one sheet a round ("Turno 1", "1° Turno", "Serata 3"...), or one sheet with a
column "Turno", or a CSV file; one row a player, the columns found by their Italian headers in any order,
case, accents and punctuation aside. Columns the reader does not know (a running total, notes) are left
alone, and so are sheets that are not rounds (the standings, the list of members)."""
import re

from django.utils.translation import gettext as _

from tournaments.text import fold
from transfer.workbooks import values
from transfer.workbooks.collect import Collector, new_seat, readings
from transfer.workbooks.model import LAYOUT_CLUB, Cell, PastTournament, column_letter

# Each field and the headers that name it, the likelier first (two columns for one field: the first wins).
COLUMNS = {
    "table": ("tavolo", "tav", "ntavolo", "tavolon", "numerotavolo", "tavolonumero", "table"),
    "player": ("giocatore", "nominativo", "nomeecognome", "nomecognome", "concorrente", "partecipante", "player",
               "giocatrice"),
    "player_surname_first": ("cognomeenome", "cognomenome"),
    "first_name": ("nome", "name"),
    "last_name": ("cognome", "surname"),
    "club": ("club", "circolo", "associazione", "clubdiappartenenza", "squadra"),
    "nickname": ("nickname", "nick", "soprannome"),
    "national_id": ("idnazionale", "idnaz", "codicenazionale", "tessera", "ntessera", "numerotessera"),
    "table_points": ("puntitavolo", "pttavolo", "ptavolo", "puntialtavolo", "punteggiotavolo", "punti", "pt",
                     "punteggio", "tp"),
    "eliminated": ("eliminato", "eliminata", "eliminazione", "ordineeliminazione", "ordinedieliminazione", "elim"),
    "risiko": ("risiko", "vittoriarisiko"),
    "place": ("posto", "piazzamento", "posizione", "pos"),
    "penalty": ("penalita", "penalizzazione", "penalizzazioni", "penalty", "malus"),
    "round": ("turno", "serata", "round", "partita", "giornata"),
}
HEADERS = {alias: name for name, aliases in COLUMNS.items() for alias in aliases}
PREFERENCE = {alias: i for aliases in COLUMNS.values() for i, alias in enumerate(aliases)}
# The Italian header each field is asked for by, in messages.
HEADER_NAMES = {"table": "Tavolo", "player": "Giocatore", "first_name": "Nome", "last_name": "Cognome",
                "club": "Club", "table_points": "Punti tavolo", "eliminated": "Eliminato", "risiko": "RisiKo",
                "place": "Posto", "penalty": "Penalità", "round": "Turno", "nickname": "Nickname",
                "national_id": "ID nazionale", "player_surname_first": "Cognome e nome"}
ROUND_WORDS = r"(?:turno|serata|partita|round|giornata|gara)"
ROUND_NAME = re.compile(rf"^(?:(\d{{1,3}})\s*(?:°|º|\^|o|a|\.)?\s*{ROUND_WORDS}|{ROUND_WORDS}\s*(?:n\.?|n°|nr\.?|"
                        rf"numero)?\s*(\d{{1,3}}))$")
HEADER_SEARCH = 15   # the header row is among the first rows of a sheet


def round_number(sheet_name):
    """"Turno 1", "1° Turno", "Serata 3", "2a serata", "TURNO N. 4" -> the number; None for another sheet."""
    match = ROUND_NAME.match(fold(sheet_name).strip())
    if not match:
        return None
    number = int(match.group(1) or match.group(2))
    return number if 1 <= number <= 100 else None


def find_header(sheet):
    """(row index, {field: column index}) of the sheet's header row, or None: the first row naming a
    table column and the players' names."""
    for index, row in enumerate(sheet.rows[:HEADER_SEARCH]):
        found = {}
        for column, value in enumerate(row):
            if not isinstance(value, str):
                continue
            alias = values.header_key(value)
            name = HEADERS.get(alias)
            if name is None:
                continue
            if name not in found or PREFERENCE[alias] < found[name][1]:
                found[name] = (column, PREFERENCE[alias])
        columns = {name: column for name, (column, _pref) in found.items()}
        if "first_name" in columns and "last_name" not in columns and "player" not in columns:
            columns["player"] = columns.pop("first_name")     # "Nome" alone: the whole name
        named = "player" in columns or "player_surname_first" in columns or \
            ("first_name" in columns and "last_name" in columns)
        if "table" in columns and named:
            return index, columns
    return None


def read_club_layout(sheets):
    """The tournament held by a club's sheets (errors in `errors`)."""
    past = PastTournament(layout=LAYOUT_CLUB)
    collector = Collector(past)
    rounds = [(round_number(sheet.name), sheet) for sheet in sheets]
    named = [(number, sheet) for number, sheet in rounds if number is not None]
    if named:
        seen = {}
        for number, sheet in named:
            if number in seen:
                past.refuse(_("round %(round)d is already on the sheet “%(sheet)s”") % {
                    "round": number, "sheet": seen[number]}, Cell(sheet.name))
                continue
            seen[number] = sheet.name
            _read_sheet(past, collector, sheet, number)
        return collector.finish()
    headed = [sheet for sheet in sheets if find_header(sheet) is not None]
    if not headed:
        past.refuse(_("No sheet of rounds: name the sheets “Turno 1”, “Turno 2”... and give each the columns "
                      "Tavolo, Giocatore (or Nome and Cognome) and Punti tavolo."))
        return past
    # No sheet named as a round: the first sheet with the columns holds every round (a column "Turno"),
    # or the only one.
    _read_sheet(past, collector, headed[0], None)
    return collector.finish()


def _read_sheet(past, collector, sheet, number):
    header = find_header(sheet)
    if header is None:
        past.refuse(_("no header row with the columns Tavolo and Giocatore (or Nome and Cognome) in its first "
                      "%(n)d rows") % {"n": HEADER_SEARCH}, Cell(sheet.name))
        return
    index, columns = header
    if "table_points" not in columns:
        past.refuse(_("the column %(column)s is missing") % {"column": "Punti tavolo"},
                    Cell(sheet.name, index + 1))
        return
    titles = {name: values.text(sheet.rows[index][column]) for name, column in columns.items()}
    last_table, last_round = None, number
    for r, row in enumerate(sheet.rows[index + 1:], start=index + 2):
        def cell(name):
            return Cell(sheet.name, r, column_letter(columns[name]), titles[name])

        def value(name):
            column = columns.get(name)
            return row[column] if column is not None and column < len(row) else None

        name = _names(value, columns)
        if name is None:
            continue   # no player on this row: a blank line, a total, a note
        try:
            table = values.whole(value("table"))
        except ValueError as exc:
            past.refuse(exc, cell("table"))
            continue
        try:
            rnd = values.whole(value("round")) if number is None and "round" in columns else number
        except ValueError as exc:
            past.refuse(exc, cell("round"))
            continue
        table = table if table is not None else last_table       # merged cells: the number on the first row
        rnd = rnd if rnd is not None else (last_round or 1)
        if table is None:
            past.refuse(_("which table? The row has no table number"), cell("table"))
            continue
        last_table, last_round = table, rnd
        player_cell = cell("player" if "player" in columns else
                           "player_surname_first" if "player_surname_first" in columns else "last_name")
        (first, last), other = name
        key = collector.person(first_name=first, last_name=last, other_reading=other, cell=player_cell,
                               club=values.text(value("club")), nickname=values.text(value("nickname")),
                               national_id=values.identifier(value("national_id")))
        if key is None:
            continue
        seat = new_seat(key, Cell(sheet.name, r))
        seat.cells = {field: cell(field) for field in ("table_points", "eliminated", "risiko", "place", "penalty",
                                                       "table", "player") if field in columns}
        seat.cells.setdefault("player", player_cell)
        read_result(past, seat, {field: value(field) for field in seat.cells})
        collector.seat(round_number=rnd, sheet=sheet.name, table_number=table, table_cell=cell("table"), seat=seat)


def _names(value, columns):
    """((first, last), other reading) of the row, or None when it names nobody."""
    if "first_name" in columns and "last_name" in columns:
        first, last = values.text(value("first_name")), values.text(value("last_name"))
        return ((first, last), ()) if first or last else None
    column = "player" if "player" in columns else "player_surname_first"
    full = values.text(value(column))
    if not full:
        return None
    return readings(full, surname_first=column == "player_surname_first")


def read_result(past, seat, raw):
    """A seat's result from its cells (`raw`: field -> value); a value that is not one is refused at its cell."""
    readers = {"table_points": values.number, "eliminated": _elimination, "risiko": values.yes_no,
               "place": values.whole, "penalty": values.number}
    for field, reader in readers.items():
        if field not in raw:
            continue
        try:
            result = reader(raw[field])
        except ValueError as exc:
            past.refuse(exc, seat.cells[field], seat=seat)
            continue
        if field == "penalty":
            result = result or 0
            if result < 0:
                result = -result   # "-5" in a column of penalties takes 5 points
        if result is not None:
            setattr(seat, field, result)
    if seat.table_points is None and seat.eliminated is not None:
        seat.table_points = 0   # an eliminated player holds nothing: the cell is often left empty


ELIMINATED_MARK = -1


def _elimination(value):
    """The order of elimination (1 first out); "x" or "sì" alone marks an eliminated player whose order the
    table settles when they are the only one (see checks.py)."""
    try:
        return values.whole(value)
    except ValueError:
        try:
            return ELIMINATED_MARK if values.yes_no(value) else None
        except ValueError:
            raise ValueError(_("“%(value)s” is not an order of elimination (1 for the first out)")
                             % {"value": values.shown(value)}) from None
