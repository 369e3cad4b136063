"""Any tournament written back as a workbook (.xlsx, openpyxl): the club's layout (a sheet "Turno N" a
round, a row a player, the headers the import reads, and a sheet of standings for people to read), or
GestioneTorneo's (the sheet "Iscritti" with "ID NAZIONALE", a sheet "N° Turno" a round with a block
"Tavolo N°k" a table). Reading either back with `import_results` gives the same games, so the same
standings under every formula. Only reported tables are written; a points penalty on a game is its
row's "Penalità" (other penalties, such as a disqualification, are kept by the JSON export alone)."""
import io
import re
from collections import defaultdict
from dataclasses import dataclass, field
from decimal import Decimal

import openpyxl
from django.utils import timezone
from openpyxl.styles import Font

from tables.models import Penalty, Seat
from tables.standings.selectors import standings_lead, tournament_standings
from tournaments.rules import may_export_player_email

CLUB_HEADERS = ("Tavolo", "Nome", "Cognome", "Nickname", "Club", "ID nazionale", "Punti tavolo", "Eliminato",
                "RisiKo", "Posto", "Penalità")
BOLD = Font(bold=True)
THOUSANDTHS = "0.000"


def _plain(value):
    """A Decimal as the number a spreadsheet stores: whole numbers as int."""
    if value is None:
        return None
    value = Decimal(value)
    return int(value) if value == value.to_integral_value() else float(value)


def _games(tournament):
    """{round: {table: [seat]}} of the reported tables, seats in their order, and each seat's points penalties."""
    seats = (Seat.objects.filter(table__round__tournament=tournament, table__reported_at__isnull=False)
             .select_related("table__round", "registration__player__club")
             .order_by("table__round__number", "table__number", "position"))
    penalties = defaultdict(Decimal)
    for seat_id, points in Penalty.objects.filter(tournament=tournament, withdrawn=False, kind=Penalty.Kind.POINTS,
                                                  seat__isnull=False).values_list("seat_id", "points"):
        penalties[seat_id] += points
    rounds = defaultdict(lambda: defaultdict(list))
    for seat in seats:
        rounds[seat.table.round.number][seat.table.number].append(seat)
    return rounds, penalties


def _as_text(book):
    """Every cell written as text stays text: a name a stranger typed at the sign-up such as
    `=HYPERLINK(...)` is never a formula in the organiser's workbook (openpyxl takes a text starting
    with "=" for one; this file holds no formula of its own)."""
    for sheet in book.worksheets:
        for row in sheet.iter_rows():
            for cell in row:
                if cell.data_type == "f":
                    cell.data_type = "s"


def _national_id(player, tournament):
    """The player's national ID when the tournament's organiser owns the player, else nothing: another
    organiser's player's stays on their card."""
    return (player.national_id or None) if may_export_player_email(player, tournament) else None


def _save(book):
    _as_text(book)
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def club_workbook(tournament):
    """The club's layout: bytes of an .xlsx file."""
    book = openpyxl.Workbook()
    book.remove(book.active)
    rounds, penalties = _games(tournament)
    for number, tables in sorted(rounds.items()):
        sheet = book.create_sheet(f"Turno {number}")
        sheet.append(CLUB_HEADERS)
        for cell in sheet[1]:
            cell.font = BOLD
        for table_number, seats in sorted(tables.items()):
            for seat in seats:
                player = seat.registration.player
                sheet.append([table_number, player.first_name, player.last_name, player.nickname or None,
                              player.club.name if player.club_id else None, _national_id(player, tournament),
                              _plain(seat.table_points), seat.eliminated, "sì" if seat.risiko else None, seat.place,
                              _plain(penalties.get(seat.pk))])
        sheet.freeze_panes = "A2"
    _standings_sheet(book, tournament)
    return _save(book)


def _standings_sheet(book, tournament):
    """For people: the standings under the tournament's formula (the import reads round sheets only)."""
    sheet = book.create_sheet("Classifica")
    standings = tournament_standings(tournament)
    lead = standings_lead(tournament)
    # SCORING.md section 6: after the final, the final order first (as the standings page and the CSV),
    # its position and the table that decided it before the qualifying rank and total.
    final = {row.registration.pk: row for row in lead.final_rows} if lead is not None else {}
    rows = standings.rows
    if final:
        order = {reg_id: i for i, reg_id in enumerate(final)}
        rows = sorted(rows, key=lambda r: order.get(r.registration_id, len(order)))
    sheet.append((["Pos. finale", "Decisa da"] if final else []) + ["Pos.", "Nome", "Cognome", "Club", "Totale"]
                 + [f"Turno {n}" for n in standings.round_numbers])
    for cell in sheet[1]:
        cell.font = BOLD
    for row in rows:
        decided = final.get(row.registration_id)
        lead_cells = ([decided.position, decided.decided_words or "qualificazioni"] if decided
                      else [None, None] if final else [])
        sheet.append(lead_cells + [row.rank, row.player.first_name, row.player.last_name, row.club or None,
                                   _plain(row.total)] + [_plain(points) for points in row.rounds])
    if standings.decimals == 3:  # millesimi (SCORING.md 13.4): "1,100" as the clubs write it, not 1,1
        for cells in sheet.iter_rows(min_row=2, min_col=7 if final else 5):
            for cell in cells:
                if cell.value is not None:
                    cell.number_format = THOUSANDTHS


GESTIONE_MEMBERS = ("ID", "Nome", "Cognome", "Nickname", "Club", "Partecipa Torneo", "Regione", "Data di nascita",
                    "ID NAZIONALE")


GESTIONE_SEATS = 5          # its round sheets hold five triplets a table (`loadPartite`)
GESTIONE_TYPE = "Torneo Open"   # a label of its form's "Tipologia di Torneo" (`SchedaTorneo.TipoTorneo`)
GESTIONE_ID = re.compile(r"^[1-9]\d{0,8}$")   # what its `(int) getNumericCellValue()` holds as written
TIE_STEP = Decimal("0.01")


def _gestione_points(seat):
    """A seat's points as GestioneTorneo keeps them: a RisiKo! 100, a player out 0, else the table points."""
    if seat.risiko:
        return Decimal(100)
    if seat.eliminated:
        return Decimal(0)
    return Decimal(seat.table_points or 0)


def _gestione_table_points(seats):
    """{seat id: points} of a table as GestioneTorneo writes it: players level on points told apart by
    decimals added to their points (`Partita` orders a table by its points: the first is its winner, two
    level at the top are "più di un vincitore"), the better placed (`place`) the more;
    its scoring keeps the whole points (`setScale(0, ROUND_DOWN)`). Levels Torneo did not settle stay level."""
    points = {seat.pk: _gestione_points(seat) for seat in seats}
    levels = defaultdict(list)
    for seat in seats:
        levels[points[seat.pk]].append(seat)
    for level in levels.values():
        if len(level) < 2:
            continue
        if not all(seat.place for seat in level) or len({seat.place for seat in level}) < len(level) or \
                any(seat.eliminated or seat.risiko for seat in level):
            continue   # players out stay at 0: GestioneTorneo's 0 is a player out
        order = sorted(level, key=lambda seat: seat.place)
        for index, seat in enumerate(order):
            points[seat.pk] += TIE_STEP * (len(order) - 1 - index)
    return points


def gestione_id(value):
    """A national ID as GestioneTorneo reads it (a number): the number, or None when it cannot hold it
    (letters, leading zeros, more than nine digits)."""
    return int(value) if value and GESTIONE_ID.match(value) else None


@dataclass
class GestioneCheck:
    """What the download in GestioneTorneo's layout holds that GestioneTorneo cannot read as Torneo keeps it:
    national IDs it cannot hold (written as text, which it leaves out), and tables of six (its sheets hold five
    seats: the download is refused unless the organiser splits them)."""
    ids: list = field(default_factory=list)      # [(player, national ID)]
    six: list = field(default_factory=list)      # [(round, table, players)]

    @property
    def clean(self):
        return not self.ids and not self.six


def gestione_check(tournament):
    rounds, _penalties = _games(tournament)
    check = GestioneCheck()
    for registration in tournament.registrations.select_related("player").order_by("pk"):
        national_id = _national_id(registration.player, tournament)
        if national_id and gestione_id(national_id) is None:
            check.ids.append((registration.player, national_id))
    for number, tables in sorted(rounds.items()):
        for table_number, seats in sorted(tables.items()):
            if len(seats) > GESTIONE_SEATS:
                check.six.append((number, table_number, [seat.registration.player for seat in seats]))
    return check


class TooManySeats(Exception):
    """A table with more seats than GestioneTorneo's sheet holds, and no split chosen."""


def _split(tables):
    """{table: seats} with each table of more than five seats split in two halves, the second half at a
    table numbered after the round's last: (the tables, [(table, new table)])."""
    out, moved = dict(tables), []
    last = max(tables)
    for table_number, seats in sorted(tables.items()):
        if len(seats) > GESTIONE_SEATS:
            last += 1
            half = (len(seats) + 1) // 2
            out[table_number], out[last] = seats[:half], seats[half:]
            moved.append((table_number, last))
    return out, moved


def _round_date(rnd, tournament):
    """The day a round was played: its publication when that falls within the tournament's days, else the
    first day (an imported tournament's rounds were published on the day of the import)."""
    last = tournament.end_date or tournament.start_date
    day = timezone.localdate(rnd.published_at) if rnd is not None and rnd.published_at else None
    return day if day is not None and tournament.start_date <= day <= last else tournament.start_date


def _torneo_sheet(book, tournament, rounds):
    """The sheet TORNEO as its template lays it out (`leggiSchedaTorneo`): the labels in C, the values in D
    (D2 venue, D3 organiser, D4 name, D5 type, D6 rounds, D7 notes), a round's date from D8 (B its number),
    all that its checks before "Pubblica online" ask for."""
    info = book.active
    info.title = "TORNEO"
    info.cell(1, 3, "SCHEDA DATI TORNEO").font = BOLD
    organiser = tournament.club.name if tournament.club_id else \
        (tournament.organiser.get_full_name() or tournament.organiser.get_username())
    for row, (label, value) in enumerate((("Sede Torneo", tournament.venue or None), ("Organizzatore", organiser),
                                          ("Nome Torneo", tournament.name), ("Tipologia di Torneo", GESTIONE_TYPE),
                                          ("Numero Turni Previsti", len(rounds)), ("Note", None)), start=2):
        info.cell(row, 3, label)
        info.cell(row, 4, value)
    played = {rnd.number: rnd for rnd in tournament.rounds.filter(number__in=list(rounds))}
    for index, number in enumerate(sorted(rounds)):
        info.cell(8 + index, 2, number)
        day = info.cell(8 + index, 4, _round_date(played.get(number), tournament))
        day.number_format = "DD/MM/YYYY"


def _reduced_standings(book, tournament, ids):
    """"Classifica Ridotta" as its `scriviClassificaRidotta` writes it: Pos., Nome, Cognome, pt_tot, id."""
    sheet = book.create_sheet("Classifica Ridotta")
    sheet.append(["Pos.", "Nome", "Cognome", "pt_tot", "id"])
    for cell in sheet[1]:
        cell.font = BOLD
    for row in tournament_standings(tournament).rows:
        member = ids.get(row.registration_id)
        sheet.append([row.rank, row.player.first_name, row.player.last_name, _plain(row.total),
                      str(member) if member is not None else None])


def gestione_workbook(tournament, split=False):
    """GestioneTorneo's own layout, as its `scriviPartite` writes it and `loadPartite` reads it: bytes of an
    .xlsx file. "TORNEO" (see `_torneo_sheet`); "Iscritti" with two title rows, the header on row 3 and a
    member a row from row 4 (A ID, B Nome, C Cognome, D Nickname, E Club, F Partecipa Torneo "SI", G
    Regione, H Data di nascita, I ID NAZIONALE, a number as it reads it; an ID it cannot hold is written as
    text and named by `gestione_check`); a sheet "N° Turno" a round, in pairs of rows from the first:
    "Tavolo N°k" merged over the table's columns, then a triplet a seat (the numeric ID, "Nome Cognome"
    and the club on a second line, the points, levels told apart by decimals); "Classifica Ridotta".
    GestioneTorneo keeps points only: the order of elimination, places and penalties stay in Torneo. A
    table of six raises TooManySeats unless `split` (two tables of three)."""
    book = openpyxl.Workbook()
    rounds, _penalties = _games(tournament)
    _torneo_sheet(book, tournament, rounds)
    members = book.create_sheet("Iscritti")
    members.append([tournament.name])
    members.append([])
    members.append(list(GESTIONE_MEMBERS))
    for cell in members[3]:
        cell.font = BOLD
    ids = {}
    registrations = tournament.registrations.select_related("player__club").order_by("pk")
    for member_id, registration in enumerate(registrations, start=1):
        player = registration.player
        ids[registration.pk] = member_id
        national_id = _national_id(player, tournament)
        members.append([member_id, player.first_name, player.last_name, player.nickname or None,
                        player.club.name if player.club_id else None, "SI", None, None,
                        gestione_id(national_id) or national_id])
    for number, tables in sorted(rounds.items()):
        if any(len(seats) > GESTIONE_SEATS for seats in tables.values()):
            if not split:
                raise TooManySeats(number)
            tables, _moved = _split(tables)
        sheet = book.create_sheet(f"{number}° Turno")
        row = 1
        for table_number, seats in sorted(tables.items()):
            sheet.cell(row, 1, f"Tavolo N°{table_number}").font = BOLD
            sheet.merge_cells(start_row=row, start_column=1, end_row=row, end_column=3 * len(seats))
            points = _gestione_table_points(seats)
            for index, seat in enumerate(seats):
                player = seat.registration.player
                name = player.full_name + (f"\n{player.club.name}" if player.club_id else "")
                sheet.cell(row + 1, 3 * index + 1, ids[seat.registration_id])
                sheet.cell(row + 1, 3 * index + 2, name)
                sheet.cell(row + 1, 3 * index + 3, _plain(points[seat.pk]))
            row += 2
        for index in range(GESTIONE_SEATS):
            sheet.column_dimensions[openpyxl.utils.get_column_letter(3 * index + 1)].hidden = True
    _reduced_standings(book, tournament, ids)
    return _save(book)
