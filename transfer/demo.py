"""The demo's past season from workbooks: two small workbooks made here in memory, one in a club's layout
and one in GestioneTorneo's, imported as finished tournaments and ranked by a circuit of their own
(connected to `load_demo` through tournaments.management.demo.add_part)."""
import datetime
import io
from decimal import Decimal

import openpyxl

from circuits import services as circuit_services
from circuits.models import Circuit
from transfer.workbooks.services import past_tournament_import, past_tournament_read

CIRCUIT_NAME = "Stagione passata da Excel (demo)"
POINTS = (68, 47, 35, 19)


def _tables(players, number):
    """Tables of four, turned round from round to round; points turned round too, a little apart."""
    turned = players[number:] + players[:number]
    tables = [turned[i:i + 4] for i in range(0, len(turned), 4)]
    return [[(p, POINTS[(i + t + number) % 4] + (3 * t + i + number) % 5) for i, p in enumerate(table)]
            for t, table in enumerate(tables)]


def club_sheets(players):
    """A club's layout: "Turno 1" and "Turno 2", a row a player."""
    book = openpyxl.Workbook()
    book.remove(book.active)
    for number in (1, 2):
        sheet = book.create_sheet(f"Turno {number}")
        sheet.append(["Tavolo", "Nome", "Cognome", "Club", "Punti tavolo", "Eliminato", "RisiKo"])
        for t, table in enumerate(_tables(players, number), start=1):
            for p, points in table:
                sheet.append([t, p.first_name, p.last_name, p.club.name if p.club_id else None, points, None, None])
    return _bytes(book)


def gestione_sheets(players):
    """GestioneTorneo's layout: "Iscritti" with "ID NAZIONALE", "1° Turno" and "2° Turno" of blocks."""
    book = openpyxl.Workbook()
    members = book.active
    members.title = "Iscritti"
    members.append(["ID", "Nome", "Cognome", "Nickname", "Club", "ID NAZIONALE"])
    ids = {}
    for i, p in enumerate(players, start=1):
        ids[p.pk] = i
        members.append([i, p.first_name, p.last_name, p.nickname or None, p.club.name if p.club_id else None,
                        p.national_id or f"DEMO-{p.pk:05d}"])
    for number in (1, 2):
        sheet = book.create_sheet(f"{number}° Turno")
        for t, table in enumerate(_tables(players, number), start=1):
            sheet.append([f"Tavolo N°{t}"])
            sheet.append(["ID"] + [ids[p.pk] for p, _points in table])
            sheet.append(["Punti"] + [points for _p, points in table])
            sheet.append([])
    return _bytes(book)


def _bytes(book):
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def _import(organiser, data, filename, name, day):
    past = past_tournament_read(data=data, filename=filename)
    if past.errors:
        raise past.first_error
    return past_tournament_import(user=organiser, past=past, name=name, start_date=day, published=True,
                                  settings={"formula": "conversione150", "tiebreak": "best_results,wins"},
                                  source=filename).tournament


def load_demo_imports(*, organiser, arbiter, tournament):
    """Idempotent: the circuit and its two imported tournaments are made once."""
    if Circuit.objects.filter(name=CIRCUIT_NAME).exists():
        return None
    players = [r.player for r in tournament.registrations.select_related("player__club").order_by("pk")]
    today = tournament.start_date
    spring = _import(organiser, club_sheets(players[:12]), "primavera.xlsx", "Primavera, dal foglio del club (demo)",
                     today - datetime.timedelta(days=84))
    summer = _import(organiser, gestione_sheets(players[8:]), "ModuloTorneo-estate.xlsx",
                     "Estate, da GestioneTorneo (demo)", today - datetime.timedelta(days=56))
    circuit = circuit_services.circuit_create(user=organiser, data={
        "name": CIRCUIT_NAME, "season": f"{today.year - 1}/{today.year}", "rule": Circuit.Rule.TABLE,
        "points_table": "25, 20, 16, 13, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1", "participation": Decimal("1"),
        "best_of": None, "min_tournaments": 1})
    for t in (spring, summer):
        circuit_services.circuit_tournament_add(user=organiser, circuit=circuit, tournament=t, weight=Decimal("1"))
    return f"  circuit:   {CIRCUIT_NAME} (2 tournaments imported from workbooks, /circuiti/{circuit.pk}/)"
