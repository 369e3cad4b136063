"""Small workbooks made in memory for the tests, in a club's layout and in GestioneTorneo's, never a real
club's file. A round is a list of tables, a table a list of seats: dicts with the player's "name" (and
"club", "id"...) and the result ("points", "eliminated", "risiko", "place", "penalty")."""
import csv
import io
import json
import zipfile
from decimal import Decimal

import openpyxl
import xlwt
from odf.opendocument import OpenDocumentSpreadsheet
from odf.table import Table, TableCell, TableRow
from odf.text import P

from scoring.__main__ import run

CLUB_HEADERS = ["Tavolo", "Giocatore", "Club", "Punti tavolo", "Eliminato", "RisiKo", "Posto", "Penalità"]
FIELDS = {"Tavolo": "table", "Giocatore": "name", "Club": "club", "Punti tavolo": "points", "Eliminato": "eliminated",
          "RisiKo": "risiko", "Posto": "place", "Penalità": "penalty", "ID nazionale": "national_id"}

# Two rounds of eight players, tables of four: a RisiKo!, an elimination, a tie settled by place, a penalty.
PLAYERS = [("Marco Rossi", "Club Lariano"), ("Giulia Bianchi", "Carri Milano"), ("Luca Ferrari", "Club Lariano"),
           ("Sara Romano", "I Maialini"), ("Andrea Colombo", "Carri Milano"), ("Chiara Ricci", ""),
           ("Matteo Marino", "I Maialini"), ("Elena Gallo", "Club Lariano")]


def seat(name, points, club=None, **result):
    clubs = dict(PLAYERS)
    return {"name": name, "club": clubs.get(name, "") if club is None else club, "points": points, **result}


def season_rounds():
    p = [name for name, _club in PLAYERS]
    return [
        [[seat(p[0], 80, risiko="sì"), seat(p[1], 40), seat(p[2], 30), seat(p[3], 0, eliminated=1)],
         [seat(p[4], 55), seat(p[5], 55, place=2), seat(p[6], 55, place=1), seat(p[7], 12, penalty=5)]],
        [[seat(p[0], 33), seat(p[4], 61), seat(p[6], 20), seat(p[3], 44)],
         [seat(p[1], 70), seat(p[5], 0, eliminated=2), seat(p[2], 0, eliminated=1), seat(p[7], 25.5)]],
    ]


def club_rows(rounds_tables, headers=CLUB_HEADERS):
    """{sheet name: rows} of the club's layout, one sheet "Turno N" a round."""
    sheets = {}
    for number, tables in enumerate(rounds_tables, start=1):
        rows = [list(headers)]
        for t, table in enumerate(tables, start=1):
            for s in table:
                values = {**s, "table": t}
                rows.append([values.get(FIELDS.get(h, h)) for h in headers])
        sheets[f"Turno {number}"] = rows
    return sheets


def xlsx(sheets):
    """An .xlsx file of {sheet name: rows}."""
    book = openpyxl.Workbook()
    book.remove(book.active)
    for name, rows in sheets.items():
        sheet = book.create_sheet(name)
        for row in rows:
            sheet.append([float(v) if isinstance(v, Decimal) else v for v in row])
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def xls(sheets):
    """An .xls file (Excel 97-2003) of {sheet name: rows}, written with xlwt."""
    book = xlwt.Workbook()
    for name, rows in sheets.items():
        sheet = book.add_sheet(name)
        for r, row in enumerate(rows):
            for c, value in enumerate(row):
                if value is not None:
                    sheet.write(r, c, float(value) if isinstance(value, Decimal) else value)
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def ods(sheets):
    """An .ods file (LibreOffice) of {sheet name: rows}, written with odfpy."""
    document = OpenDocumentSpreadsheet()
    for name, rows in sheets.items():
        table = Table(name=name)
        for row in rows:
            tr = TableRow()
            for value in row:
                if value is None:
                    cell = TableCell()
                elif isinstance(value, (int, float, Decimal)) and not isinstance(value, bool):
                    cell = TableCell(valuetype="float", value=str(value))
                    cell.addElement(P(text=str(value)))
                else:
                    cell = TableCell(valuetype="string")
                    cell.addElement(P(text=str(value)))
                tr.addElement(cell)
            table.addElement(tr)
        document.spreadsheet.addElement(table)
    out = io.BytesIO()
    document.write(out)
    return out.getvalue()


def csv_bytes(rows, delimiter=";", encoding="utf-8"):
    out = io.StringIO()
    writer = csv.writer(out, delimiter=delimiter)
    for row in rows:
        writer.writerow(["" if v is None else str(v).replace(".", ",") if isinstance(v, float) else v for v in row])
    return out.getvalue().encode(encoding)


def zipped(files):
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        for name, data in files.items():
            archive.writestr(name, data)
    return out.getvalue()


def gestione_sheets(rounds_tables, national_ids=None):
    """GestioneTorneo's layout: "Iscritti" (ID, Nome, Cognome, Nickname, Club, ID NAZIONALE) and a sheet
    "N° Turno" a round, a block "Tavolo N°k" a table: a row of IDs, then Punti, Eliminato, RisiKo, Posto."""
    names = []
    for tables in rounds_tables:
        for table in tables:
            for s in table:
                if s["name"] not in [n for n, _c in names]:
                    names.append((s["name"], s["club"]))
    ids = {name: i for i, (name, _club) in enumerate(names, start=1)}
    members = [["ID", "Nome", "Cognome", "Nickname", "Club", "ID NAZIONALE"]]
    for name, club in names:
        first, last = name.split(" ", 1)
        members.append([ids[name], first, last, None, club or None, (national_ids or {}).get(name)])
    sheets = {"Iscritti": members}
    for number, tables in enumerate(rounds_tables, start=1):
        rows = []
        for t, table in enumerate(tables, start=1):
            rows.append([f"Tavolo N°{t}"])
            rows.append(["ID"] + [ids[s["name"]] for s in table])
            rows.append(["Punti"] + [s["points"] for s in table])
            rows.append(["Eliminato"] + [s.get("eliminated") for s in table])
            rows.append(["RisiKo"] + [s.get("risiko") for s in table])
            rows.append(["Posto"] + [s.get("place") for s in table])
            rows.append(["Penalità"] + [s.get("penalty") for s in table])
            rows.append([])
        sheets[f"{number}° Turno"] = rows
    return sheets


def scoring_standings(rounds_tables, formula, tiebreak=("best_results",)):
    """{player name: (rank, total)} that `python -m scoring` gives for these games."""
    games = []
    for number, tables in enumerate(rounds_tables, start=1):
        for t, table in enumerate(tables, start=1):
            players = []
            for s in table:
                entry = {"id": s["name"], "table_points": float(s["points"] or 0)}
                if s.get("eliminated"):
                    entry["eliminated"] = s["eliminated"]
                if s.get("risiko"):
                    entry["risiko"] = True
                if s.get("place"):
                    entry["place"] = s["place"]
                if s.get("penalty"):
                    entry["penalty"] = s["penalty"]
                players.append(entry)
            games.append({"round": number, "table": t, "players": players})
    doc = {"formula": formula, "params": {"tiebreak": list(tiebreak)}, "games": games}
    code, out, err = run(json.dumps(doc).encode())
    assert code == 0, err
    return {row["player"]: (row["rank"], row["total"]) for row in json.loads(out)["standings"]}


# --- GestioneTorneo's own workbook, written as its `scriviPartite` writes it -----------------------------

def gestione_rounds():
    """Games GestioneTorneo can hold: points only (a RisiKo! 100, one player out a table at 0, levels told
    apart by decimals), no place, no penalty."""
    p = [name for name, _club in PLAYERS]
    return [
        [[seat(p[0], 100, risiko=True), seat(p[1], 40), seat(p[2], 30), seat(p[3], 0, eliminated=1)],
         [seat(p[4], 55.01), seat(p[5], 55), seat(p[6], 54), seat(p[7], 12)]],
        [[seat(p[0], 33), seat(p[4], 61), seat(p[6], 20), seat(p[3], 44)],
         [seat(p[1], 70), seat(p[5], 0, eliminated=1), seat(p[2], 21), seat(p[7], 25.5)]],
    ]


def gestione_as_read(rounds_tables):
    """The games as Torneo reads GestioneTorneo's points: players level on the whole points told apart by
    decimals (55.01 before 55) are level on them, placed in that order."""
    out = []
    for tables in rounds_tables:
        read_tables = []
        for table in tables:
            values = {i: float(s["points"]) for i, s in enumerate(table) if 0 < float(s["points"] or 0) < 100}
            read = [dict(s) for s in table]
            for whole in {int(v) for v in values.values()}:
                group = [i for i, v in values.items() if int(v) == whole]
                if len(group) > 1 and any(values[i] != whole for i in group):
                    for i in group:
                        read[i]["points"] = whole
                        read[i]["place"] = 1 + sum(1 for v in values.values() if v > values[i])
            read_tables.append(read)
        out.append(read_tables)
    return out


def gestione_written(rounds_tables, national_ids=None, slots=300, kind=None):
    """{sheet: rows} of ModuloTorneo as GestioneTorneo fills it: TORNEO, Iscritti (two title rows, the
    header on row 3, the template's IDs 1 to `slots` already written, the members' names beside the first
    ones, F "SI", I the national ID), Dati, GIOCATORI, and a sheet "N° Turno" a round in pairs of rows:
    "Tavolo N°k", then a triplet a seat (the ID, "Nome Cognome" newline club, the points)."""
    names = []
    for tables in rounds_tables:
        for table in tables:
            for s in table:
                if s["name"] not in [n for n, _c in names]:
                    names.append((s["name"], s["club"]))
    ids = {name: i for i, (name, _club) in enumerate(names, start=1)}
    members = [["MODULO ISCRIZIONE TORNEO"], [],
               ["ID", "Nome", "Cognome", "Nickname", "Club", "Partecipa Torneo", "Regione", "Data di nascita",
                "ID NAZIONALE"]]
    for member_id in range(1, slots + 1):
        if member_id <= len(names):
            name, club = names[member_id - 1]
            first, last = name.split(" ", 1)
            members.append([member_id, first, last, None, club or None, "SI", "Lombardia", None,
                            (national_ids or {}).get(name)])
        else:
            members.append([member_id])
    sheets = {"TORNEO": [[], [None, None, "Sede", "Como"], [None, None, "Organizzatore", "Club Lariano"],
                         [None, None, "Nome Torneo", "Torneo di prova"], [None, None, "Tipo Torneo", kind]],
              "Iscritti": members, "Dati": [["Regioni"], ["Lombardia"]],
              "GIOCATORI": [["ID", "Nome", "Cognome"], [1, "Ada", "Lovelace"]]}
    for number, tables in enumerate(rounds_tables, start=1):
        rows = []
        for t, table in enumerate(tables, start=1):
            rows.append([f"Tavolo N°{t}"] + [None] * (3 * len(table) - 1))
            seats = []
            for s in table:
                name = s["name"] + (f"\n{s['club']}" if s["club"] else "")
                seats += [ids[s["name"]], name, float(s["points"])]
            rows.append(seats)
        sheets[f"{number}° Turno"] = rows
    return sheets


def gestione_xls(sheets):
    """The .xls GestioneTorneo writes: each head "Tavolo N°k" merged across its table's columns."""
    book = xlwt.Workbook()
    for name, rows in sheets.items():
        sheet = book.add_sheet(name)
        for r, row in enumerate(rows):
            if row and isinstance(row[0], str) and row[0].startswith("Tavolo N°"):
                sheet.write_merge(r, r, 0, len(row) - 1, row[0])
                continue
            for c, value in enumerate(row):
                if value is not None:
                    sheet.write(r, c, value)
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def gestione_xlsx(sheets):
    book = openpyxl.Workbook()
    book.remove(book.active)
    for name, rows in sheets.items():
        sheet = book.create_sheet(name)
        for r, row in enumerate(rows, start=1):
            if row and isinstance(row[0], str) and row[0].startswith("Tavolo N°"):
                sheet.cell(r, 1, row[0])
                sheet.merge_cells(start_row=r, start_column=1, end_row=r, end_column=len(row))
                continue
            for c, value in enumerate(row, start=1):
                if value is not None:
                    sheet.cell(r, c, value)
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


# --- a club's habits -------------------------------------------------------------------------------

def club_habits(rounds_tables, *, sheet_names, headers=("N°", "Giocatore", "Club", "P.ti tavolo", "Eliminato",
                                                        "RisiKo", "Posto", "Penalità"),
                heading_rows=False, repeated_header=False, totals=False, table_cells="Tavolo {n}",
                words_in_cells=True):
    """{sheet: rows} of a club's sheets written the ways secretaries write them: the round sheets named
    `sheet_names`, table numbers as `table_cells`, a "TAVOLO n" heading row above each table, the header
    again above each table, a total under each table and at the bottom, and words in the cells (RISIKO,
    ELIM, "15 pt", "2°")."""
    sheets = {}
    for (number, tables), name in zip(enumerate(rounds_tables, start=1), sheet_names):
        rows = [["Torneo sociale"], list(headers)]
        grand = 0
        for t, table in enumerate(tables, start=1):
            if heading_rows:
                rows.append([f"TAVOLO {t}"])
            if repeated_header and t > 1:
                rows.append(list(headers))
            sum_points = 0
            for s in table:
                points, eliminated, risiko, place = s["points"], s.get("eliminated"), s.get("risiko"), s.get("place")
                if words_in_cells:
                    if risiko:
                        points, risiko = "RISIKO", None
                    elif eliminated == 1 and sum(1 for o in table if o.get("eliminated")) == 1:
                        points, eliminated = "ELIM", None
                    elif isinstance(points, (int, float)) and points:
                        points = f"{points} pt".replace(".", ",")
                    place = f"{place}°" if place else None
                sum_points += float(s["points"] or 0)
                table_cell = None if heading_rows else table_cells.format(n=t)
                rows.append([table_cell, s["name"], s["club"] or None, points, eliminated, risiko, place,
                             s.get("penalty")][:len(headers)])
            if totals:
                rows.append([None, "Totale tavolo", None, sum_points])
            grand += sum_points
        if totals:
            rows.append([None, "Totale punti", None, grand])
        sheets[name] = rows
    sheets["Classifica"] = [["Pos.", "Giocatore", "Punti"], [1, "Marco Rossi", 300]]
    return sheets
