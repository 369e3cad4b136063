"""A club's own sheets: one sheet a round ("Turno 1", "1° Turno", "T1", "Primo turno", "I Turno", "Turno 2
del 13-03"...), or one sheet with a column "Turno", or a CSV file; one row a player, the columns found by
their Italian headers in any order, case, accents and punctuation aside, with the habits of the people
who write them (a heading row per table, the header again, totals, words in the cells). Columns the
reader does not know (a running total, notes) are left alone, and so are sheets that are not rounds
(the standings, the list of members); a sheet laid out as a round but not named as one, and a final,
are refused by name, and every row left out is listed in `notes`."""
import re

from django.utils.translation import gettext as _

from tournaments.text import fold
from transfer.workbooks import values
from transfer.workbooks.collect import Collector, as_written, new_seat, readings, split_nickname
from transfer.workbooks.model import LAYOUT_CLUB, Cell, PastTournament, column_letter

# Each field and the headers that name it, the likelier first (two columns for one field: the first wins).
COLUMNS = {
    "table": ("tavolo", "tav", "ntavolo", "tavolon", "numerotavolo", "tavolonumero", "table", "ntav", "n", "nr",
              "num"),
    "player": ("giocatore", "nominativo", "nomeecognome", "nomecognome", "concorrente", "partecipante", "player",
               "giocatrice"),
    "player_surname_first": ("cognomeenome", "cognomenome"),
    "first_name": ("nome", "name"),
    "last_name": ("cognome", "surname"),
    "club": ("club", "circolo", "associazione", "clubdiappartenenza", "squadra"),
    "nickname": ("nickname", "nick", "soprannome"),
    "national_id": ("idnazionale", "idnaz", "codicenazionale", "tessera", "ntessera", "numerotessera"),
    # The table points: "PT" or "Punti tavolo" over "Punti" or "Punteggio" (often the tournament's points)
    # when a sheet has both; the preview says which column was read.
    "table_points": ("puntitavolo", "pttavolo", "ptitavolo", "ptavolo", "puntialtavolo", "punteggiotavolo", "pt",
                     "pti", "tp", "punti", "punteggio"),
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
ROUND_WORDS = r"(?:turno|serata|partita|round|giornata|gara|manche)"
ROUND_NAME = re.compile(rf"^(?:(\d{{1,3}})\s*(?:°|º|\^|o|a|\.)?\s*{ROUND_WORDS}|{ROUND_WORDS}\s*(?:n\.?|n°|nr\.?|"
                        rf"numero)?\s*(\d{{1,3}})|t\s*\.?\s*(\d{{1,3}})|(\d{{1,3}})\s*(?:°|º|\^|o|a)?)$")
ORDINAL_WORDS = {"primo": 1, "prima": 1, "secondo": 2, "seconda": 2, "terzo": 3, "terza": 3, "quarto": 4,
                 "quarta": 4, "quinto": 5, "quinta": 5, "sesto": 6, "sesta": 6, "settimo": 7, "settima": 7,
                 "ottavo": 8, "ottava": 8, "nono": 9, "nona": 9, "decimo": 10, "decima": 10}
ROMAN = re.compile(r"^(x{0,2})(ix|iv|v?i{0,3})$")
ROMAN_VALUES = {"i": 1, "ii": 2, "iii": 3, "iv": 4, "v": 5, "vi": 6, "vii": 7, "viii": 8, "ix": 9}
# What may follow a round's name: its date ("Turno 1 - 06.03", "Turno 2 del 13-03", "Turno 3 (20/03/2019)").
DATE_TAIL = re.compile(r"(?:\s+|\s*[-–,:(]\s*)(?:(?:del|il)\s+)?\d{1,2}[./-]\d{1,2}(?:[./-]\d{2,4})?\)?\s*$")
FINAL_NAME = re.compile(r"^(?:semi)?finale?s?(?:\s*(?:n\.?|n°)?\s*\d{1,2})?$|^final\s*table$|^tavolo\s+finale$")
FINAL = "final"
# The header row is among the first rows of a sheet: below a title, or a page of the tournament's rules.
HEADER_SEARCH = 100
TABLE_CELL = re.compile(r"^(?:tavolo|tav|t|table|n)?\s*(?:n\s*[°º.]?|nr\.?|numero|#)?\s*[.°]?\s*(\d{1,4})\s*[°º]?$")
TABLE_HEADING = re.compile(r"^(?:tavolo|tav\.?|table)\s*(?:n\s*[°º.]?|nr\.?|numero|#)?\s*(\d{1,4})$")
TOTAL_WORDS = re.compile(r"^(?:totale|totali|total|tot\.?|somma|subtotale)\b")
# A cell naming a total however it is written ("Totale punti", "Punti totali", "Tot. tavolo 3", "Somma"):
# a word of these, the others words of the total's own.
TOTALS = {"totale", "totali", "total", "totals", "tot", "somma", "subtotale", "subtot", "complessivo",
          "complessivi", "complessiva"}
TOTAL_FILLERS = {"punti", "punteggio", "punteggi", "pt", "pti", "tavolo", "tavoli", "tav", "turno", "generale",
                 "del", "dei", "di", "della", "al", "parziale", "finale"}


def names_a_total(text):
    """Whether a cell's text (folded) names a total row, its words only those of a total."""
    if TOTAL_WORDS.match(text):
        return True
    words = re.findall(r"[a-z]+|\d+", text)
    return any(w in TOTALS for w in words) and all(w in TOTALS or w in TOTAL_FILLERS or w.isdigit() for w in words)


def _roman(word):
    match = ROMAN.match(word)
    if not word or not match:
        return None
    return 10 * len(match.group(1)) + ROMAN_VALUES.get(match.group(2), 0) or None


def round_number(sheet_name):
    """"Turno 1", "1° Turno", "Serata 3", "2a serata", "TURNO N. 4", "T1", "1", "Primo turno", "I Turno",
    "Turno II", "Turno 1 - 06.03", "Turno 2 del 13-03" -> the number; FINAL for "Finale" or "Semifinale";
    None for another sheet."""
    name = fold(sheet_name).strip()
    name = DATE_TAIL.sub("", name).strip(" -–.,:") or name
    if FINAL_NAME.match(name):
        return FINAL
    match = ROUND_NAME.match(name)
    if match:
        number = int(next(g for g in match.groups() if g))
        return number if 1 <= number <= 100 else None
    words = [w.strip("°º^.") for w in name.split()]
    if len(words) == 2:
        for word, other in (words, words[::-1]):
            if re.fullmatch(ROUND_WORDS, other):
                number = ORDINAL_WORDS.get(word) or _roman(word)
                if number:
                    return number
    return None


def table_number(value):
    """A table's number as clubs write it: 3, "3", "Tavolo 3", "T3", "T.3", "N° 3", "3°"; None if empty."""
    if isinstance(value, str) and value.strip():
        match = TABLE_CELL.match(fold(value).strip())
        if match:
            return values.whole(match.group(1))
    return values.whole(value)


def _is_subsequence(short, long):
    letters = iter(long)
    return all(letter in letters for letter in short)


def abbreviated(value):
    """The alias a header written short with a dot stands for ("Pen." penalità, "P.ti tav." punti tavolo,
    "Elimin." eliminato, "Posiz." posizione): its first word begins an alias and its other letters follow
    in order; of several, the shortest (no field is guessed between two of one length). None when it is
    no abbreviation."""
    if "." not in value:
        return None
    key = values.header_key(value)
    first = values.header_key(re.split(r"[.\s]+", value.strip())[0])
    if len(key) < 3 or not first:
        return None
    found = sorted((len(alias), alias) for alias in HEADERS
                   if len(alias) > len(key) and alias.startswith(first) and _is_subsequence(key, alias))
    if not found or len(found) > 1 and found[0][0] == found[1][0] and \
            HEADERS[found[0][1]] != HEADERS[found[1][1]]:
        return None
    return found[0][1]


def header_alias(value):
    """The alias a header cell names (see HEADERS), written whole or short with a dot; "" for none."""
    alias = values.header_key(value)
    if alias in HEADERS:
        return alias
    return abbreviated(value) or ""


def _header_fields(row):
    """{field: (column, preference)} of the headers a row names, and the other columns naming a field
    already found ({field: [column]})."""
    found, passed = {}, {}
    for column, value in enumerate(row):
        if not isinstance(value, str):
            continue
        alias = header_alias(value)
        name = HEADERS.get(alias)
        if name is None:
            continue
        if name not in found:
            found[name] = (column, PREFERENCE[alias])
        elif PREFERENCE[alias] < found[name][1]:
            passed.setdefault(name, []).append(found[name][0])
            found[name] = (column, PREFERENCE[alias])
        else:
            passed.setdefault(name, []).append(column)
    return found, passed


def find_header(sheet, need_table=True):
    """(row index, {field: column index}, {field: [columns passed over]}) of the sheet's header row, or
    None: the first row naming a table column (unless not `need_table`: tables headed "TAVOLO 1") and
    the players' names."""
    for index, row in enumerate(sheet.rows[:HEADER_SEARCH]):
        found, passed = _header_fields(row)
        columns = {name: column for name, (column, _pref) in found.items()}
        if "first_name" in columns and "last_name" not in columns and "player" not in columns:
            columns["player"] = columns.pop("first_name")     # "Nome" alone: the whole name
        named = "player" in columns or "player_surname_first" in columns or \
            ("first_name" in columns and "last_name" in columns)
        if named and ("table" in columns or not need_table and "table_points" in columns):
            return index, columns, passed
    return None


def read_club_layout(sheets):
    """The tournament held by a club's sheets (errors in `errors`, what was left out in `notes`)."""
    past = PastTournament(layout=LAYOUT_CLUB)
    collector = Collector(past)
    rounds = [(round_number(sheet.name), sheet) for sheet in sheets]
    named = [(number, sheet) for number, sheet in rounds if number is not None and number != FINAL]
    if named:
        seen, finals = {}, []
        for number, sheet in rounds:
            if number is None:
                if find_header(sheet) is not None:
                    # A sheet laid out as a round is never dropped without a word.
                    past.refuse(_("the sheet has the columns of a round (Tavolo, Giocatore, Punti) but its name "
                                  "gives no round number: name it “Turno N”, or remove it"), Cell(sheet.name))
                continue
            if number == FINAL:
                if find_header(sheet, need_table=False) is None and not _heads_of_tables(sheet):
                    continue
                if fold(sheet.name).strip().startswith("semi") or finals:
                    past.refuse(_("the sheet holds a semifinal or a second final: a past tournament is imported "
                                  "round by round with at most its final; rename the sheet “Turno N” to count "
                                  "it as a round, or remove it"), Cell(sheet.name))
                else:
                    finals.append(sheet)   # read after the rounds: the tournament's last
                continue
            if number in seen:
                past.refuse(_("round %(round)d is already on the sheet “%(sheet)s”") % {
                    "round": number, "sheet": seen[number]}, Cell(sheet.name))
                continue
            seen[number] = sheet.name
            _read_sheet(past, collector, sheet, number)
        for sheet in finals:
            past.final_round = max(seen, default=0) + 1
            past.note(_("the final, imported as the tournament's final after its %(n)d rounds: its table is checked "
                        "against the standings' top players") % {"n": len(seen)}, Cell(sheet.name))
            _read_sheet(past, collector, sheet, past.final_round, final=True)
        return collector.finish()
    headed = [sheet for sheet in sheets if find_header(sheet) is not None]
    if not headed:
        past.refuse(_("No sheet of rounds: name the sheets “Turno 1”, “Turno 2”... and give each the columns "
                      "Tavolo, Giocatore (or Nome and Cognome) and Punti tavolo."))
        past.not_a_tournament = True
        return past
    # No sheet named as a round: the first sheet with the columns holds every round (a column "Turno"),
    # or the only one; any other sheet laid out the same way is refused by name.
    for sheet in headed[1:]:
        past.refuse(_("the sheet has the columns of a round (Tavolo, Giocatore, Punti) but its name gives no round "
                      "number: name the sheets “Turno 1”, “Turno 2”..."), Cell(sheet.name))
    _read_sheet(past, collector, headed[0], None)
    return collector.finish()


def _heads_of_tables(sheet):
    return any(isinstance(v, str) and TABLE_HEADING.match(fold(v).strip()) for row in sheet.rows for v in row)


def _filled(row):
    return [(c, v) for c, v in enumerate(row) if v not in (None, "") and not (isinstance(v, str) and not v.strip())]


def _read_sheet(past, collector, sheet, number, final=False):
    header = find_header(sheet, need_table=False)
    if header is None:
        past.refuse(_("no header row with the columns Tavolo and Giocatore (or Nome and Cognome) in its first "
                      "%(n)d rows") % {"n": HEADER_SEARCH}, Cell(sheet.name))
        return
    index, columns, passed = header
    if "table_points" not in columns:
        past.refuse(_("the column %(column)s is missing") % {"column": "Punti tavolo"},
                    Cell(sheet.name, index + 1))
        return
    titles = {name: values.text(sheet.rows[index][column]) for name, column in columns.items()}
    for column in passed.get("table_points", ()):
        past.note(_("the table points are read from column %(chosen)s (“%(title)s”), not from column %(other)s "
                    "(“%(other_title)s”)") % {
            "chosen": column_letter(columns["table_points"]), "title": titles["table_points"],
            "other": column_letter(column), "other_title": values.text(sheet.rows[index][column])},
            Cell(sheet.name, index + 1))
    _note_unread(past, sheet, index, columns, passed)
    header_keys = {values.header_key(v) for v in sheet.rows[index] if isinstance(v, str)}
    last_table, last_round, heading = None, number, None
    for r, row in enumerate(sheet.rows[index + 1:], start=index + 2):
        def cell(name):
            return Cell(sheet.name, r, column_letter(columns[name]), titles[name]) if name in columns \
                else Cell(sheet.name, r)

        def value(name):
            column = columns.get(name)
            return row[column] if column is not None and column < len(row) else None

        filled = _filled(row)
        if not filled:
            continue
        texts = [fold(v).strip() for _c, v in filled if isinstance(v, str)]
        if len(filled) == 1 and texts and TABLE_HEADING.match(texts[0]):
            heading = int(TABLE_HEADING.match(texts[0]).group(1))    # "TAVOLO 1" above its table's rows
            last_table = None
            continue
        if sum(1 for _c, v in filled if isinstance(v, str) and values.header_key(v) in header_keys) >= 2:
            continue   # the header written again above a table
        if texts and any(names_a_total(t) for t in texts):
            past.note(_("a total, left out"), Cell(sheet.name, r))
            continue
        name = _names(value, columns)
        if name is None and any((r, column_letter(columns[f])) in sheet.formulas for f in NAME_COLUMNS if f in columns):
            field = next(f for f in NAME_COLUMNS if f in columns and (r, column_letter(columns[f])) in sheet.formulas)
            past.refuse(unread_formula(sheet.formulas[(r, column_letter(columns[field]))]), cell(field))
            continue
        if name is None:
            if any(v not in (None, "") for v in (value("table_points"), value("eliminated"), value("place"))):
                past.note(_("no player's name: the row is left out"), Cell(sheet.name, r))
            continue   # no player on this row: a blank line, a note
        try:
            table = table_number(value("table"))
        except ValueError as exc:
            past.refuse(exc, cell("table"))
            continue
        try:
            rnd = values.whole(value("round")) if number is None and "round" in columns else number
        except ValueError as exc:
            past.refuse(exc, cell("round"))
            continue
        if table is None:
            table = last_table if last_table is not None else heading  # merged cells: the number on the first row
        if table is None and final:
            table = 1   # a final's one table needs no number
        rnd = rnd if rnd is not None else (last_round or 1)
        if table is None:
            past.refuse(_("which table? The row has no table number"), cell("table"))
            continue
        last_table, last_round = table, rnd
        player_cell = cell("player" if "player" in columns else
                           "player_surname_first" if "player_surname_first" in columns else "last_name")
        (first, last), other, nickname = name
        key = collector.person(first_name=first, last_name=last, other_reading=other, cell=player_cell,
                               club=values.text(value("club")),
                               nickname=values.text(value("nickname")) or nickname,
                               national_id=values.national_id(value("national_id")))
        if key is None:
            continue
        seat = new_seat(key, Cell(sheet.name, r))
        seat.cells = {field: cell(field) for field in ("table_points", "eliminated", "risiko", "place", "penalty",
                                                       "table", "player") if field in columns}
        seat.cells.setdefault("player", player_cell)
        seat.cells.setdefault("table", cell("table"))
        read_result(past, seat, {field: value(field) for field in seat.cells})
        collector.seat(round_number=rnd, sheet=sheet.name, table_number=table, table_cell=cell("table"), seat=seat)


def _note_unread(past, sheet, index, columns, passed):
    """Every other column with a heading is named in the preview as left out: a column the reader does not
    know (a running total, notes, a heading it cannot read) is never dropped without a word."""
    read = set(columns.values()) | set(passed.get("table_points", ()))
    others = {column: name for name, found in passed.items() if name != "table_points" for column in found}
    for column, value in enumerate(sheet.rows[index]):
        title = values.text(value)
        if column in read or not title:
            continue
        where = Cell(sheet.name, index + 1, column_letter(column), title)
        if column in others:
            name = others[column]
            past.note(_("the column is not read: column %(chosen)s gives the %(field)s") % {
                "chosen": column_letter(columns[name]), "field": HEADER_NAMES.get(name, name)}, where)
        else:
            past.note(_("the column is not read: Torneo does not know its heading"), where)


NAME_COLUMNS = ("player", "player_surname_first", "first_name", "last_name")


def unread_formula(formula):
    return _("the cell holds the formula “%(formula)s” and not its value: open the file in Excel or LibreOffice and "
             "save it again (only simple arithmetic such as =30+15 is computed here)") % {"formula": formula[:60]}


def _names(value, columns):
    """((first, last), other reading, nickname) of the row, or None when it names nobody: names written
    in capitals are stored as people write them, a nickname in brackets is the nickname."""
    if "first_name" in columns and "last_name" in columns:
        first, last = values.text(value("first_name")), values.text(value("last_name"))
        if not first and not last:
            return None
        (first, nick_a), (last, nick_b) = split_nickname(first), split_nickname(last)
        return (as_written(first), as_written(last)), (), nick_a or nick_b
    column = "player" if "player" in columns else "player_surname_first"
    full = values.text(value(column))
    if not full:
        return None
    full, nickname = split_nickname(full)
    first, other = readings(full, surname_first=column == "player_surname_first")
    return first, other, nickname


def read_result(past, seat, raw):
    """A seat's result from its cells (`raw`: field -> value); a value that is not one is refused at its cell."""
    readers = {"eliminated": _elimination, "risiko": values.yes_no, "place": values.ordinal,
               "penalty": values.number}
    if "table_points" in raw:
        try:
            points, out, risiko = values.table_points_cell(raw["table_points"])
        except ValueError as exc:
            past.refuse(exc, seat.cells["table_points"], seat=seat)
        else:
            seat.table_points = points
            if out and raw.get("eliminated") in (None, ""):
                seat.eliminated = ELIMINATED_MARK
            seat.risiko = seat.risiko or risiko
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
        if field == "risiko":
            result = result or seat.risiko
        if result is not None:
            setattr(seat, field, result)
    if seat.table_points is None and seat.eliminated is not None:
        seat.table_points = 0   # an eliminated player holds nothing: the cell is often left empty


ELIMINATED_MARK = -1


def _elimination(value):
    """The order of elimination (1 first out); "x" or "sì" alone marks an eliminated player whose order the
    table settles when they are the only one (see checks.py)."""
    try:
        return values.ordinal(value)
    except ValueError:
        try:
            return ELIMINATED_MARK if values.yes_no(value) else None
        except ValueError:
            raise ValueError(_("“%(value)s” is not an order of elimination (1 for the first out)")
                             % {"value": values.shown(value)}) from None
