"""GestioneTorneo's workbooks (ModuloTorneo.xls, ../shared/GESTIONETORNEO.md): the sheet "Iscritti" lists
the players from row 4 (A ID, B Nome, C Cognome, D Nickname, E Club, I "ID NAZIONALE"; the template's
pre-written IDs without a name are unused slots); each round is a sheet "1° Turno", "2° Turno"... in
pairs of rows as the program writes them: "Tavolo N°k", then a triplet a seat (ID, "Nome Cognome" and
the club, points). Older layouts are read too: a block per
table, headed "Tavolo N°k": a row of players (their IDs, or the names the sheet
looks up) and, under it, their results, each row named in the block's first column ("Punti",
"Eliminato", "RisiKo", "Posto", "Penalità"); a block without names has its points on the first row of
numbers under the players. A block laid out the other way (a header row, then one row a player) is
read too."""
import re
from decimal import Decimal

from django.utils.translation import gettext as _

from tournaments.text import as_written, fold
from transfer.workbooks import values
from transfer.workbooks.club import FINAL, HEADER_NAMES, HEADERS, read_result, round_number
from transfer.workbooks.collect import Collector, new_seat
from transfer.workbooks.model import LAYOUT_GESTIONE, Cell, PastTournament, column_letter

TABLE_HEAD = re.compile(r"^tavolo\s*(?:n\s*[°º.]?|nr\.?|numero|#)?\s*(\d{1,3})$")
ENROLLED = ("iscritti", "iscrizioni", "giocatori", "anagrafica")
ID_HEADERS = ("id", "idgiocatore", "codice", "n", "num", "numero")
# The rows of a horizontal block, by the label in its first column.
ROW_LABELS = {**HEADERS, **{alias: "id" for alias in ID_HEADERS}}
RESULT_FIELDS = ("table_points", "eliminated", "risiko", "place", "penalty")
# GestioneTorneo's type of tournament as its sheet TORNEO writes it in D5: the labels of its form
# (`SchedaTorneo.TipoTorneo`) and the names of the types it scores by (`utils.TipoTorneo`), compared as
# header keys. A Torneo a Squadre is scored as a Torneo Gufo (`scriviClassifica`).
KINDS = {"torneoopen": "open", "open": "open", "santeufemia": "open",
         "radunonazionale": "raduno", "raduno": "raduno", "radunonazionaleconquarti": "raduno",
         "torneomaster": "master", "master": "master", "masterrisiko": "master", "masterrisiko2015": "master",
         "campionatonazionale": "nazionale", "nazionalerisiko": "nazionale",
         "torneogufo": "gufo", "gufo": "gufo", "torneoasquadre": "gufo"}
KIND_NAMES = {"open": "Open", "raduno": "Raduno", "master": "Master", "nazionale": "NazionaleRisiKo",
              "gufo": "Torneo Gufo"}
# The published rule (scoring/data/club_rules.json) a type is imported under, changeable in the preview:
# GestioneTorneo's own scoring of it. Its Open (ScorePlayerOpen) counts a 5-player table's winner above 80
# table points as 100 before the bonus, which no rule says yet: the closest rule, and those tables named.
KIND_RULES = {"raduno": "gt_raduno", "master": "gt_master", "gufo": "gt_gufo", "nazionale": "gt_nazionale",
              "open": "raduno_open"}
OPEN_CAP = 80        # ScorePlayerOpen: a winner above 80 at a table of five counts 100
TYPE_CELL = (4, 3)   # TORNEO!D5 (`leggiSchedaTorneo`)
GUFO_OUT = 4         # -1 to -4: the order of the players out at a table of five


def is_gestione(sheets):
    """GestioneTorneo's layout: a sheet of members and a round sheet with a "Tavolo N°k" block."""
    return _enrolled_sheet(sheets) is not None and any(
        round_number(sheet.name) not in (None, FINAL) and _heads(sheet) for sheet in sheets)


def _enrolled_sheet(sheets):
    """"Iscritti" first: the template also has "GIOCATORI", a reference list of every known player."""
    found = [s for s in sheets if values.header_key(s.name) in ENROLLED]
    return min(found, key=lambda s: ENROLLED.index(values.header_key(s.name)), default=None)


def _heads(sheet):
    """[(row, column, table number)] of the block heads "Tavolo N°k", top to bottom, left to right."""
    heads = []
    for r, row in enumerate(sheet.rows):
        for c, value in enumerate(row):
            if isinstance(value, str):
                match = TABLE_HEAD.match(fold(value).strip())
                if match:
                    heads.append((r, c, int(match.group(1))))
    return heads


class Members:
    """The sheet "Iscritti": a member by ID, nickname or name."""

    def __init__(self, past, collector, sheet):
        self.past, self.collector, self.sheet = past, collector, sheet
        self.by_id, self.by_name = {}, {}
        self.read()

    def read(self):
        header = self._header()
        if header is None and values.header_key(self.sheet.name) == "iscritti":
            # GestioneTorneo reads its sheet by position, from row 4, whatever the titles above say.
            header = 2, {"id": 0, "first_name": 1, "last_name": 2, "nickname": 3, "club": 4, "national_id": 8}
        if header is None:
            self.past.refuse(_("no header row with the columns ID, Nome and Cognome"), Cell(self.sheet.name))
            return
        index, columns = header
        for r, row in enumerate(self.sheet.rows[index + 1:], start=index + 2):
            def value(name):
                column = columns.get(name)
                return row[column] if column is not None and column < len(row) else None
            member_id = _id(value("id"))
            first, last = as_written(values.text(value("first_name"))), as_written(values.text(value("last_name")))
            if not first and not last:
                continue   # the template's IDs 1 to 300 are written before any name: an unused slot
            cell = Cell(self.sheet.name, r, column_letter(columns["last_name"]), "Cognome")
            if not member_id:
                self.past.refuse(_("the player has no ID"), Cell(self.sheet.name, r, column_letter(columns["id"]), "ID"))
                continue
            if member_id in self.by_id:
                self.past.refuse(_("ID %(id)s is given twice") % {"id": member_id},
                                 Cell(self.sheet.name, r, column_letter(columns["id"]), "ID"))
                continue
            key = self.collector.person(first_name=first, last_name=last, cell=cell,
                                        club=values.text(value("club")), nickname=values.text(value("nickname")),
                                        national_id=values.national_id(value("national_id")))
            if key is None:
                continue
            self.by_id[member_id] = key
            person = self.past.people[key]
            for name in (person.nickname, person.full_name, f"{person.last_name} {person.first_name}"):
                if name:
                    self.by_name.setdefault(fold(name), set()).add(key)

    def _header(self):
        for index, row in enumerate(self.sheet.rows[:15]):
            columns = {}
            for c, value in enumerate(row):
                key = values.header_key(value) if isinstance(value, str) else ""
                name = "id" if key in ID_HEADERS else HEADERS.get(key)
                if name and name not in columns:
                    columns[name] = c
            if "id" in columns and "first_name" in columns and "last_name" in columns:
                return index, columns
        return None

    def find(self, value):
        """The person key a block's cell names: an ID (12, "12", "12 - Mario Rossi"), a nickname or a
        name; raises ValueError naming the value."""
        member_id = _id(value)
        if member_id in self.by_id:
            return self.by_id[member_id]
        text = values.text(value)
        lead = re.match(r"^(\d+)\s*[-–.:)]\s*\S", text)
        if lead and lead.group(1) in self.by_id:
            return self.by_id[lead.group(1)]
        keys = self.by_name.get(fold(text), set())
        if len(keys) == 1:
            return next(iter(keys))
        if len(keys) > 1:
            raise ValueError(_("“%(value)s” names several players of the sheet Iscritti: write their ID")
                             % {"value": values.shown(value)})
        raise ValueError(_("“%(value)s” is not in the sheet Iscritti") % {"value": values.shown(value)})


def _id(value):
    if value is None or isinstance(value, bool):
        return ""
    text = values.identifier(value)
    return text if re.fullmatch(r"\d{1,9}", text) else ""


def _kind(past, sheets):
    """The type written in TORNEO!D5, kept in `past.kind` (and as written, for the preview)."""
    sheet = next((s for s in sheets if values.header_key(s.name) == "torneo"), None)
    if sheet is None:
        return
    row, column = TYPE_CELL
    cells = sheet.rows[row] if row < len(sheet.rows) else []
    written = values.text(cells[column]) if column < len(cells) else ""
    past.kind_written = written
    past.kind = KINDS.get(values.header_key(written), "")
    if written and not past.kind:
        past.note(_("the type “%(type)s” is not one whose scoring Torneo knows: choose the rule") % {"type": written},
                  Cell(sheet.name, row + 1, column_letter(column), "Tipo torneo"))


def note_open_cap(past):
    """A GestioneTorneo Open's tables the rule offered scores otherwise than GestioneTorneo did: a table of
    five won with more than 80 table points (its Open counts 100, ×1.25 makes more)."""
    if past.kind != "open":
        return
    for rnd in past.rounds:
        for table in rnd.tables:
            if len(table.seats) == 5 and any(not seat.risiko and seat.table_points is not None and
                                             seat.table_points > OPEN_CAP for seat in table.seats):
                past.note(_("table %(table)d: GestioneTorneo's Open counts a winner above 80 table points at a "
                            "table of five as 100, not ×1.25: the rule chosen scores this table otherwise")
                          % {"table": table.number}, table.cell)


def read_gestione_layout(sheets):
    past = PastTournament(layout=LAYOUT_GESTIONE)
    _kind(past, sheets)
    collector = Collector(past)
    members = Members(past, collector, _enrolled_sheet(sheets))
    seen = {}
    for sheet in sheets:
        number = round_number(sheet.name)
        if number is None:
            continue
        if number == FINAL:
            if _heads(sheet):
                past.refuse(_("the sheet holds a final: a past tournament is imported round by round; rename "
                              "the sheet “N° Turno” to count it as a round, or remove it"), Cell(sheet.name))
            continue
        if number in seen:
            past.refuse(_("round %(round)d is already on the sheet “%(sheet)s”") % {
                "round": number, "sheet": seen[number]}, Cell(sheet.name))
            continue
        seen[number] = sheet.name
        heads = _heads(sheet)
        if not heads:
            past.refuse(_("no table: each table is a block headed “Tavolo N°1”, “Tavolo N°2”..."), Cell(sheet.name))
        for head in heads:
            Block(past, collector, members, sheet, number, head, heads).read()
    collector.finish()
    note_open_cap(past)
    if past.kind == "master":
        for rnd, phase in zip(past.rounds[2:4], (_("the semifinals"), _("the final"))):
            past.note(_("a Master's round %(round)d is %(phase)s: imported as that phase, its tables checked against "
                        "the format's plan") % {"round": rnd.number, "phase": phase}, Cell(rnd.sheet))
    return past


class Block:
    """One "Tavolo N°k" block of a round sheet."""

    def __init__(self, past, collector, members, sheet, number, head, heads):
        self.past, self.collector, self.members, self.sheet, self.number = past, collector, members, sheet, number
        self.row, self.column, self.table = head
        # The block reaches right to the next head on its row, down to its first empty row or next head.
        right = [c for r, c, _t in heads if r == self.row and c > self.column]
        self.end = min(right) if right else None
        below = {r for r, c, _t in heads if r > self.row and (self.end is None or c < self.end) and c >= self.column}
        self.rows = []
        for r in range(self.row + 1, len(sheet.rows)):
            cells = sheet.rows[r][self.column:self.end]
            if r in below or not any(v not in (None, "") for v in cells):
                break
            self.rows.append((r, list(cells)))

    def cell(self, r, c, header=""):
        return Cell(self.sheet.name, r + 1, column_letter(self.column + c), header)

    def read(self):
        head_cell = Cell(self.sheet.name, self.row + 1, column_letter(self.column), f"Tavolo N°{self.table}")
        if not self.rows:
            self.past.refuse(_("the table has no players under its heading"), head_cell)
            return
        if _triplets(self.rows[0][1]):
            self.read_triplets(head_cell)
            return
        first = [values.header_key(v) if isinstance(v, str) else "" for v in self.rows[0][1]]
        if sum(1 for key in first if key in HEADERS or key in ID_HEADERS) >= 2 and \
                any(HEADERS.get(key) == "table_points" for key in first):
            self.read_vertical(head_cell, first)
        else:
            self.read_horizontal(head_cell)

    def seat(self, key, row_cell, cells, raw, head_cell):
        seat = new_seat(key, row_cell)
        seat.cells = cells
        read_result(self.past, seat, raw)
        self.collector.seat(round_number=self.number, sheet=self.sheet.name, table_number=self.table,
                            table_cell=head_cell, seat=seat)

    def read_triplets(self, head_cell):
        """GestioneTorneo's own round (`scriviPartite`): under the head, one row of triplets side by side,
        a seat each: the member's ID, "Nome Cognome" and the club on a second line, the seat's points. An
        ID of 0 or an empty triplet is an empty seat. Only points are kept there: 100 is the RisiKo!, 0 a
        player out, whose order the file does not hold (asked only when the formula needs it)."""
        r, cells = self.rows[0]
        seats = []
        for c in range(0, len(cells), 3):
            member, name, points = (list(cells[c:c + 3]) + [None, None, None])[:3]
            if member in (None, "", 0) and name in (None, ""):
                continue
            where = self.cell(r, c + 1 if name not in (None, "") else c, "")
            try:
                key = self.members.find(member) if _id(member) and _id(member) != "0" else \
                    self.members.find(values.text(str(name).split("\n")[0]))
            except ValueError as exc:
                self.past.refuse(exc, where)
                continue
            seats.append((c, key, where, points))
        hundreds = [c for c, _key, _where, points in seats if _is(points, 100)]
        outs = {c: self.gufo_out(points, self.cell(r, c + 2, "Punti")) for c, _key, _where, points in seats}
        if any(out is False for out in outs.values()):
            return
        written = sorted(out for out in outs.values() if out)
        if written != list(range(1, len(written) + 1)):
            self.past.refuse(_("the players out of a Torneo Gufo are written -1, -2... one each: this table has "
                               "%(values)s") % {"values": ", ".join(f"-{n}" for n in written)}, head_cell)
            return
        levels = self.levels(seats, head_cell)
        for c, key, where, points in seats:
            cells = {"player": where, "table_points": self.cell(r, c + 2, "Punti")}
            raw = {"table_points": points}
            if c in levels:
                raw["table_points"], raw["place"] = levels[c]
                cells["place"] = cells["table_points"]
            out = outs[c]
            if out:
                # Torneo Gufo: GestioneTorneo places a table by its points, -1 above -2 (Partita.getPosizione,
                # ScorePlayerTorneoGufo): -1 is the best placed of the players out, the last one out. They
                # hold nothing.
                raw = {"table_points": 0, "eliminated": len(written) + 1 - out}
                cells["eliminated"] = cells["table_points"]
                self.seat(key, where, cells, raw, head_cell)
                continue
            if hundreds == [c]:
                raw["risiko"] = True
                cells["risiko"] = cells["table_points"]
            if _is(points, 0) and self.past.kind != "gufo":
                raw["eliminated"] = "x"
                cells["eliminated"] = cells["table_points"]
            self.seat(key, where, cells, raw, head_cell)
        if hundreds and len(hundreds) == 1:
            self.past.note(_("table %(table)d: 100 points read as a RisiKo!") % {"table": self.table}, head_cell)

    def levels(self, seats, head_cell):
        """{column: (points, place)} of the players GestioneTorneo wrote level on points told apart by
        decimals (55.01 before 55: its `Partita` orders a table by its points, its scoring keeps the whole
        points): read as level on the whole points, placed by the decimals. Other points stay as written."""
        value = {}
        for c, _key, _where, points in seats:
            try:
                number = values.number(points)
            except ValueError:
                continue
            if number is not None and 0 < number < 100:
                value[c] = number
        groups = {}
        for c, number in value.items():
            groups.setdefault(int(number), []).append(c)
        found = {}
        for whole, columns in groups.items():
            told = sorted(value[c] for c in columns)
            if len(columns) < 2 or all(v == whole for v in told) or len(set(told)) < len(told):
                continue
            for c in columns:
                found[c] = (Decimal(whole), 1 + sum(1 for other in value.values() if other > value[c]))
            self.past.note(_("table %(table)d: %(points)s are level on %(whole)d, told apart by their decimals "
                             "(GestioneTorneo's way): read as %(whole)d each, placed in that order") % {
                "table": self.table, "points": ", ".join(str(v) for v in sorted(told, reverse=True)),
                "whole": whole}, head_cell)
        return found

    def gufo_out(self, points, cell):
        """The number k of a player out written -k in a Torneo Gufo, None for other points, False after
        refusing the cell (negative points in a file of another type, or not a whole number)."""
        try:
            number = values.number(points)
        except ValueError:
            return None
        if number is None or number >= 0:
            return None
        if self.past.kind != "gufo":
            self.past.refuse(_("negative points: GestioneTorneo writes the players out so (-1, -2...) only in a "
                               "Torneo Gufo, and the sheet TORNEO (D5) says “%(type)s”") % {
                "type": self.past.kind_written or "—"}, cell)
            return False
        if number != number.to_integral_value() or -number > GUFO_OUT:
            self.past.refuse(_("“%(value)s” is not a player out of a Torneo Gufo (-1, -2...)") % {
                "value": values.shown(points)}, cell)
            return False
        return int(-number)

    def read_horizontal(self, head_cell):
        labels = {}
        for index, (r, cells) in enumerate(self.rows):
            key = values.header_key(cells[0]) if cells and isinstance(cells[0], str) else ""
            if key in ROW_LABELS:
                labels.setdefault("player" if ROW_LABELS[key] in ("player", "nickname", "first_name") else
                                  ROW_LABELS[key], index)
        start = 1 if labels else 0
        players = labels.get("id", labels.get("player"))
        if players is None:
            players = next((i for i, (_r, cells) in enumerate(self.rows) if self._names_members(cells[start:])), None)
        if players is None:
            self.past.refuse(_("no row of players found under the heading (their IDs from the sheet Iscritti)"),
                             head_cell)
            return
        if "table_points" not in labels:
            numbers = next((i for i, (_r, cells) in enumerate(self.rows) if i > players and
                            i not in labels.values() and _all_numbers(cells[start:])), None)
            if numbers is None:
                self.past.refuse(_("the column %(column)s is missing") % {"column": "Punti"}, head_cell)
                return
            labels["table_points"] = numbers
        player_row, player_cells = self.rows[players]
        for c, value in enumerate(player_cells):
            if c < start or value in (None, ""):
                continue
            where = self.cell(player_row, c, values.text(player_cells[0]) if start else "")
            try:
                key = self.members.find(value)
            except ValueError as exc:
                self.past.refuse(exc, where)
                continue
            cells, raw = {"player": where}, {}
            for field in RESULT_FIELDS:
                if field in labels:
                    r, row = self.rows[labels[field]]
                    cells[field] = self.cell(r, c, values.text(row[0]) if start else HEADER_NAMES[field])
                    raw[field] = row[c] if c < len(row) else None
            self.seat(key, Cell(self.sheet.name, player_row + 1, column_letter(self.column + c)), cells, raw,
                      head_cell)

    def _names_members(self, cells):
        found = [v for v in cells if v not in (None, "")]
        if not found:
            return False
        for value in found:
            try:
                self.members.find(value)
            except ValueError:
                return False
        return True

    def read_vertical(self, head_cell, first):
        columns = {}
        for c, key in enumerate(first):
            name = "id" if key in ID_HEADERS else HEADERS.get(key)
            if name and name not in columns:
                columns[name] = c
        who = next((name for name in ("id", "player", "nickname") if name in columns), None)
        if who is None:
            self.past.refuse(_("the column %(column)s is missing") % {"column": "ID"}, head_cell)
            return
        titles = {name: values.text(self.rows[0][1][c]) for name, c in columns.items()}
        for r, cells in self.rows[1:]:
            value = cells[columns[who]] if columns[who] < len(cells) else None
            if value in (None, ""):
                continue
            where = self.cell(r, columns[who], titles[who])
            try:
                key = self.members.find(value)
            except ValueError as exc:
                self.past.refuse(exc, where)
                continue
            cells_of = {"player": where, **{f: self.cell(r, columns[f], titles[f]) for f in RESULT_FIELDS
                                            if f in columns}}
            raw = {f: cells[columns[f]] if columns[f] < len(cells) else None for f in RESULT_FIELDS if f in columns}
            self.seat(key, Cell(self.sheet.name, r + 1), cells_of, raw, head_cell)


def _is(value, target):
    try:
        return values.number(value) == target
    except ValueError:
        return False


def _triplets(cells):
    """A row of GestioneTorneo's seats: (ID, name, points) side by side, the ID a number, the points one."""
    seats = 0
    for c in range(0, len(cells), 3):
        member, name, points = (list(cells[c:c + 3]) + [None, None, None])[:3]
        if member in (None, "", 0) and name in (None, ""):
            continue
        if isinstance(member, bool) or not isinstance(member, (int,)) and not _id(member):
            return False
        if not isinstance(name, str) or not name.strip():
            return False
        if points not in (None, "") and not _is_number(points):
            return False
        seats += 1
    return seats > 0


def _is_number(value):
    try:
        return values.number(value) is not None
    except ValueError:
        return False


def _all_numbers(cells):
    found = [v for v in cells if v not in (None, "")]
    if not found:
        return False
    try:
        return all(values.number(v) is not None for v in found)
    except ValueError:
        return False

