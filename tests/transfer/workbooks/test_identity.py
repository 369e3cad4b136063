"""Identity across organisers and the file's limits: a national ID held by a player the organiser may not
see is never attached nor shown; two rows that are one known player are refused at the cell; a workbook
refused once its first round was written leaves nothing behind; each size limit refuses by name."""
import io

import openpyxl
import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from tests.factories import ClubFactory, OrganiserFactory, PlayerFactory
from tests.html import attr, tr
from tests.transfer.workbooks.books import club_rows, gestione_sheets, season_rounds, xlsx, zipped
from tables.engine import ResultError
from transfer.workbooks import book, services
from transfer.workbooks.model import WorkbookError
from transfer.workbooks.services import past_tournament_import, past_tournament_read
from tournaments.models import AuditLog, Club, Player, Tournament


def counts():
    return (Tournament.objects.count(), Player.all_players.count(), Club.objects.count(), AuditLog.objects.count())


def test_a_national_id_held_out_of_sight_never_attaches_nor_shows(organiser, client, db):
    stranger = OrganiserFactory(username="sandro")
    hidden = PlayerFactory(first_name="Anna", last_name="Neri", club=None, national_id="IT-77", created_by=stranger)
    data = xlsx(gestione_sheets(season_rounds(), national_ids={"Sara Romano": "IT-77"}))
    client.force_login(organiser)
    page = client.post(reverse("manage:past_import"), {"file": SimpleUploadedFile("x.xlsx", data)})
    assert page.status_code == 200
    # nobody is taken for the holder, nor offered as a choice
    assert attr(page, "[data-person]", "data-state") == ["new"] * 8
    assert str(hidden.pk) not in attr(page, "[data-player]", "data-player") + attr(page, "option", "value")
    past = past_tournament_read(data=data, filename="x.xlsx")
    tournament = past_tournament_import(user=organiser, past=past, name="T", start_date="2019-10-12",
                                        settings={"formula": "standard"}).tournament
    sara = tournament.registrations.get(player__last_name="Romano").player
    assert sara.pk != hidden.pk and sara.national_id == ""
    assert not hidden.registrations.exists()


def test_two_rows_that_are_one_known_player_are_refused_at_the_cell(organiser):
    marco = PlayerFactory(first_name="Marco", last_name="Rossi", club=ClubFactory(name="Club Lariano"),
                          national_id="IT-5", created_by=organiser)
    ids = {"Luca Ferrari": "IT-5"}          # the file gives Marco's ID to Luca Ferrari too
    past = past_tournament_read(data=xlsx(gestione_sheets(season_rounds(), national_ids=ids)), filename="x.xlsx")
    with pytest.raises(WorkbookError) as refused:
        past_tournament_import(user=organiser, past=past, name="T", start_date="2019-10-12",
                               settings={"formula": "standard"})
    assert str(refused.value) == tr("sheet “%(sheet)s”, row %(row)d, column %(column)s", sheet="Iscritti", row=4,
                                    column="C (Cognome)") + ": " + tr(
        "%(name)s and %(other)s are the same known player: %(player)s", name="Luca Ferrari", other="Marco Rossi",
        player=f"{marco.full_name}, Club Lariano")


def test_a_workbook_refused_after_its_first_round_was_written_leaves_nothing_behind(organiser, monkeypatch):
    written = []
    submit = services.table_result_submit

    def second_round_refused(*, table, **kwargs):
        if table.round.number == 2:
            raise ResultError("refused by the test", player=None)
        written.append(table.pk)
        return submit(table=table, **kwargs)
    monkeypatch.setattr(services, "table_result_submit", second_round_refused)
    before = counts()
    past = past_tournament_read(data=xlsx(club_rows(season_rounds())), filename="x.xlsx")
    with pytest.raises(WorkbookError):
        past_tournament_import(user=organiser, past=past, name="T", start_date="2019-10-12",
                               settings={"formula": "standard"})
    assert written                      # the first round was written...
    assert counts() == before           # ...and is gone with the rest


def test_a_file_over_10_mb_is_refused_by_name():
    with pytest.raises(WorkbookError) as refused:
        book.read_book(b"x" * (book.MAX_BYTES + 1), "big.csv")
    assert str(refused.value) == tr("The file is larger than %(n)d MB.", n=10)
    assert book.MAX_BYTES == 10 * 1024 * 1024


def test_a_zip_unpacking_beyond_200_mb_is_refused_by_name(monkeypatch):
    assert book.MAX_UNPACKED == 200 * 1024 * 1024
    data = xlsx(club_rows(season_rounds()))
    monkeypatch.setattr(book, "MAX_UNPACKED", len(data))       # the workbook's parts unpack to more
    with pytest.raises(WorkbookError) as refused:
        book.read_book(data, "x.xlsx")
    assert str(refused.value) == tr("The file unpacks to more than %(n)d MB.", n=0)
    assert zipped({"a.txt": b"a"})      # the helper builds zips the season reader takes


def test_a_sheet_over_20000_rows_is_refused_by_name():
    assert book.MAX_ROWS == 20_000
    workbook = openpyxl.Workbook(write_only=True)
    sheet = workbook.create_sheet("Turno 1")
    sheet.append(["Tavolo", "Giocatore", "Punti"])
    for n in range(book.MAX_ROWS):
        sheet.append([n // 4 + 1, f"Giocatore {n}", 10])
    out = io.BytesIO()
    workbook.save(out)
    with pytest.raises(WorkbookError) as refused:
        book.read_book(out.getvalue(), "x.xlsx")
    assert str(refused.value) == tr("The sheet “%(sheet)s” has more than %(n)d rows.", sheet="Turno 1", n=20000)
