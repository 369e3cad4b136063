"""The download for GestioneTorneo as its own reader and its checks before "Pubblica online" take it: national
IDs as numbers (an ID it cannot hold named on the page before the download), a table of six split only by
the organiser's choice and never a player dropped, a tie settled by place written with its decimals, and the
sheet TORNEO and "Classifica Ridotta" filled."""
import datetime
import io

import openpyxl
import pytest
from django.urls import reverse

from tables.results.services import ResultLine, table_result_submit
from tables.rounds.services import round_close
from tests.factories import ClubFactory, PlayerFactory, RegistrationFactory, report, seat_round
from tests.html import attr, select
from tests.transfer.workbooks.test_written_back import gestionetorneo_reads
from tournaments.models import Player
from transfer.workbooks.export import gestione_id


def submit(table, results):
    """results: [(table points, eliminated, place)] in seat order."""
    seats = list(table.seats.order_by("position"))
    lines = [ResultLine(seat_id=seat.pk, table_points=tp, eliminated=out, risiko=False, place=place)
             for seat, (tp, out, place) in zip(seats, results)]
    table_result_submit(user=table.round.tournament.organiser, table=table, lines=lines, version=table.version)


@pytest.fixture
def tied(tournament, organiser):
    """One round: a table of four with a tie for first settled by place, one of four with a plain game; the
    players' national IDs as numbers, one with letters."""
    club = ClubFactory(name="Club Lariano")
    ids = ["123", "456", "IT-7", "", "00012", "789", "", "9"]
    regs = [RegistrationFactory(tournament=tournament, player=PlayerFactory(
        club=club, national_id=ids[i], created_by=organiser)) for i in range(8)]
    rnd = seat_round(tournament, [regs[:4], regs[4:]])
    first, second = rnd.tables.order_by("number")
    submit(first, [(55, None, 2), (55, None, 1), (20, None, None), (0, 1, None)])
    report(second, [(70,), (44,), (21,), (9,)])
    round_close(user=organiser, rnd=rnd)
    return tournament


def download(client, tournament, query=""):
    return client.get(reverse("manage:tournament_workbook_gestione", args=[tournament.pk]) + query)


def test_national_ids_are_written_as_numbers_and_the_others_named_before_the_download(tied, organiser, client):
    client.force_login(organiser)
    page = download(client, tied)
    assert page.status_code == 200 and page["Content-Type"].startswith("text/html")
    named = [int(pk) for pk in attr(page, "[data-id-player]", "data-id-player")]
    assert sorted(Player.all_players.filter(pk__in=named).values_list("national_id", flat=True)) == ["00012", "IT-7"]
    book = openpyxl.load_workbook(io.BytesIO(download(client, tied, "?ok=1").content))
    written = [row[8] for row in book["Iscritti"].iter_rows(min_row=4, values_only=True)]
    assert written == [123, 456, "IT-7", None, "00012", 789, None, 9]


@pytest.mark.parametrize("value, number", [("123", 123), ("9", 9), ("00012", None), ("IT-7", None), ("", None),
                                           ("1234567890", None)])
def test_what_gestionetorneo_holds_as_a_national_id(value, number):
    assert gestione_id(value) == number


def test_a_tie_settled_by_place_is_written_with_decimals_and_has_one_winner(tied, organiser, client):
    client.force_login(organiser)
    _members, rounds = gestionetorneo_reads(download(client, tied, "?ok=1").content)
    first = sorted((points for _id, points in rounds[1][0]), reverse=True)
    assert first == [55.01, 55, 20, 0]
    assert first[0] != first[1]      # "C'è più di un vincitore" otherwise
    assert sorted(points for _id, points in rounds[1][1]) == [9, 21, 44, 70]


def test_the_sheet_torneo_and_the_reduced_standings_answer_its_checks(tied, organiser, client):
    """What `ExcelValidator.validaSchedaTorneo` and `validaSchedaClassifica` read: D3 organiser, D4 name, D5 a
    type of its form, D6 the rounds, a date a round from D8, "Classifica Ridotta" with Pos., pt_tot and id."""
    client.force_login(organiser)
    book = openpyxl.load_workbook(io.BytesIO(download(client, tied, "?ok=1").content))
    info = book["TORNEO"]
    assert info["D3"].value and info["D4"].value == tied.name
    assert info["D5"].value in ("Campionato Nazionale", "Raduno Nazionale", "Torneo Master", "Torneo Open")
    assert info["D6"].value == 1
    assert info["D8"].value.date() == tied.start_date and isinstance(info["D8"].value, datetime.datetime)
    assert info["D9"].value is None
    reduced = list(book["Classifica Ridotta"].iter_rows(values_only=True))
    assert reduced[0] == ("Pos.", "Nome", "Cognome", "pt_tot", "id")
    members = {str(row[0]) for row in book["Iscritti"].iter_rows(min_row=4, values_only=True)}
    assert len(reduced) == 9 and {row[4] for row in reduced[1:]} == members
    assert [row[0] for row in reduced[1:]] == sorted(row[0] for row in reduced[1:])


@pytest.fixture
def six(tournament, organiser):
    regs = [RegistrationFactory(tournament=tournament) for _ in range(10)]
    rnd = seat_round(tournament, [regs[:6], regs[6:]])
    first, second = rnd.tables.order_by("number")
    report(first, [(60,), (30,), (25,), (20,), (10,), (5,)])
    report(second, [(70,), (44,), (21,), (9,)])
    round_close(user=organiser, rnd=rnd)
    return tournament


def test_a_table_of_six_is_named_before_the_download_and_never_loses_a_player(six, organiser, client):
    client.force_login(organiser)
    page = download(client, six)
    assert page.status_code == 200
    assert attr(page, "[data-six-table]", "data-six-table") == ["1-1"]
    assert attr(page, "[data-download]", "data-download") == ["gestionetorneo-split"]
    refused = download(client, six, "?ok=1")       # no split chosen: no file
    assert refused.status_code == 409 and select(refused, "#gestione-six")
    members, rounds = gestionetorneo_reads(download(client, six, "?ok=1&six=split").content)
    assert [len(table) for table in rounds[1]] == [3, 4, 3]
    assert sorted(member for table in rounds[1] for member, _points in table) == sorted(members)


def test_a_download_gestionetorneo_reads_whole_comes_at_once(tournament, organiser, client):
    regs = [RegistrationFactory(tournament=tournament, player=PlayerFactory(national_id=str(100 + i),
                                                                            created_by=organiser))
            for i in range(4)]
    rnd = seat_round(tournament, [regs])
    report(rnd.tables.get(), [(70,), (44,), (21,), (9,)])
    round_close(user=organiser, rnd=rnd)
    client.force_login(organiser)
    assert download(client, tournament)["Content-Type"].startswith("application/vnd.openxmlformats")


def test_a_tie_settled_by_place_comes_back_from_the_download_as_it_was(tied, organiser, client):
    """55.01 and 55 in the download are read back as level on 55, placed 1 and 2: the same game."""
    from transfer.workbooks.services import past_tournament_read

    client.force_login(organiser)
    past = past_tournament_read(data=download(client, tied, "?ok=1").content, filename="back.xlsx")
    assert past.errors == []
    first = sorted((float(s.table_points), s.place) for s in past.rounds[0].tables[0].seats)
    assert first == [(0.0, None), (20.0, None), (55.0, 1), (55.0, 2)]
