"""Any tournament written back as a workbook (.xlsx, openpyxl): the club's layout (a sheet "Turno N" a
round, a row a player, the headers the import reads, and a sheet of standings for people to read), or
GestioneTorneo's (the sheet "Iscritti" with "ID NAZIONALE", a sheet "N° Turno" a round with a block
"Tavolo N°k" a table). Reading either back with `import_results` gives the same games, so the same
standings under every formula. Only reported tables are written; a points penalty on a game is its
row's "Penalità" (other penalties, such as a disqualification, are kept by the JSON export alone)."""
import io
from collections import defaultdict
from decimal import Decimal

import openpyxl
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


def _gestione_points(seat):
    """A seat's points as GestioneTorneo keeps them: a RisiKo! 100, a player out 0, else the table points."""
    if seat.risiko:
        return 100
    if seat.eliminated:
        return 0
    return _plain(seat.table_points) or 0


def gestione_workbook(tournament):
    """GestioneTorneo's own layout, as its `scriviPartite` writes it and `loadPartite` reads it: bytes of an
    .xlsx file. "TORNEO" (the name in D4, the rounds in D6); "Iscritti" with two title rows, the header
    on row 3 and a member a row from row 4 (A ID, B Nome, C Cognome, D Nickname, E Club, F Partecipa
    Torneo "SI", G Regione, H Data di nascita, I ID NAZIONALE); a sheet "N° Turno" a round, in pairs of
    rows from the first: "Tavolo N°k" merged over the table's columns, then a triplet a seat (the numeric
    ID, "Nome Cognome" and the club on a second line, the points). GestioneTorneo keeps points only: the
    order of elimination, places and penalties stay in Torneo."""
    book = openpyxl.Workbook()
    info = book.active
    info.title = "TORNEO"
    rounds, _penalties = _games(tournament)
    for row, (label, value) in enumerate((("Sede", None),
                                          ("Organizzatore", None), ("Nome torneo", tournament.name),
                                          ("Tipo torneo", None), ("Numero turni", len(rounds))), start=2):
        info.cell(row, 1, label)
        info.cell(row, 4, value or None)
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
        members.append([member_id, player.first_name, player.last_name, player.nickname or None,
                        player.club.name if player.club_id else None, "SI", None, None,
                        _national_id(player, tournament)])
    for number, tables in sorted(rounds.items()):
        sheet = book.create_sheet(f"{number}° Turno")
        row = 1
        for table_number, seats in sorted(tables.items()):
            sheet.cell(row, 1, f"Tavolo N°{table_number}").font = BOLD
            sheet.merge_cells(start_row=row, start_column=1, end_row=row, end_column=3 * len(seats))
            for index, seat in enumerate(seats):
                player = seat.registration.player
                name = player.full_name + (f"\n{player.club.name}" if player.club_id else "")
                sheet.cell(row + 1, 3 * index + 1, ids[seat.registration_id])
                sheet.cell(row + 1, 3 * index + 2, name)
                sheet.cell(row + 1, 3 * index + 3, _gestione_points(seat))
            row += 2
        for index in range(5):
            sheet.column_dimensions[openpyxl.utils.get_column_letter(3 * index + 1)].hidden = True
    return _save(book)
