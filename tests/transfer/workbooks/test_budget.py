"""The hard budget behind the bounds (transfer/workbooks/budget.py): a workbook is read in a child process
whose new memory and processor time the kernel limits; past either, or past the clock, the file is refused
by name and the worker keeps its own memory. What the child reads, refuses or raises comes back intact."""
import os

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from tests.html import alerts, tr
from tests.transfer.workbooks import bombs
from tests.transfer.workbooks.books import club_rows, season_rounds, xlsx
from tests.transfer.workbooks.test_import_results import refusal
from transfer.workbooks import book, budget
from transfer.workbooks.book import read_book
from transfer.workbooks.model import WorkbookError

TOO_LONG = "The file could not be read within %d seconds: it holds more than a club's workbook can."
TOO_LARGE = "The file could not be read within %d MB of memory: it holds more than a club's workbook can."


@pytest.fixture(autouse=True)
def english(settings):
    settings.LANGUAGE_CODE = "en"


def _hoard(data, filename):
    return [bytearray(1024 * 1024) for _ in range(10_000)]   # 10 GB of address space, a megabyte at a time


def _fill(data, filename):
    return [b"x" * 1024 * 1024 for _ in range(10_000)]   # 10 GB written, a megabyte at a time


def _spin(data, filename):
    while True:
        pass


def _wait(data, filename):
    os.read(os.pipe()[0], 1)   # never written: the child waits on the clock, not the processor


def _defect(data, filename):
    raise KeyError("a defect, not the file")


@pytest.mark.parametrize("read", [_hoard, _fill], ids=["address space", "resident"])
def test_a_reading_past_the_memory_budget_is_refused_by_name(read):
    with pytest.raises(WorkbookError) as refused:
        budget.within_budget(read, b"", "torneo.xlsx")
    assert str(refused.value) == TOO_LARGE % budget.MEGABYTES


def _fill_then_wait(data, filename):
    kept = [b"x" * 1024 * 1024 for _ in range(200)]   # 200 MB written, then held until the child is stopped
    os.read(os.pipe()[0], 1)
    return kept


def test_the_resident_memory_is_watched_below_the_address_space(monkeypatch):
    """The parent's watch, not the kernel's limit (lifted here), stops a child 30 MB past the worker."""
    monkeypatch.setattr(budget, "MEGABYTES", 30)
    monkeypatch.setattr(budget, "WALL", 20)
    monkeypatch.setattr(budget, "_limit", lambda: None)
    with pytest.raises(WorkbookError) as refused:
        budget.within_budget(_fill_then_wait, b"", "torneo.xlsx")
    assert str(refused.value) == TOO_LARGE % 30


def test_a_reading_past_the_processor_budget_is_refused_by_name(monkeypatch):
    monkeypatch.setattr(budget, "SECONDS", 1)
    with pytest.raises(WorkbookError) as refused:
        budget.within_budget(_spin, b"", "torneo.xlsx")
    assert str(refused.value) == TOO_LONG % 1


def test_a_reading_past_the_clock_is_killed_and_refused_by_name(monkeypatch):
    monkeypatch.setattr(budget, "WALL", 0.5)
    with pytest.raises(WorkbookError) as refused:
        budget.within_budget(_wait, b"", "torneo.xlsx")
    assert str(refused.value) == TOO_LONG % budget.SECONDS
    with pytest.raises(ChildProcessError):
        os.waitpid(-1, os.WNOHANG)   # the child was killed and waited for: none is left behind


def test_a_defect_in_the_reading_is_raised_again_as_it_was():
    with pytest.raises(KeyError, match="a defect, not the file"):
        budget.within_budget(_defect, b"", "torneo.xlsx")


def test_sheets_and_refusals_come_back_from_the_child_as_read_in_the_worker(monkeypatch):
    good = xlsx(club_rows(season_rounds()))
    rounds = season_rounds()
    bad = bombs.one_part_many_sheets(sheets=2, cells=10)
    in_child = [(s.name, s.rows, s.text) for s in read_book(good, "torneo.xlsx")]
    with pytest.raises(WorkbookError) as refused_in_child:
        read_book(bad, "torneo.xlsx")
    monkeypatch.setattr(budget, "ENABLED", False)
    assert in_child == [(s.name, s.rows, s.text) for s in read_book(good, "torneo.xlsx")]
    assert in_child[0][1][1][:2] == [1, rounds[0][0][0]["name"]]
    with pytest.raises(WorkbookError) as refused_here:
        read_book(bad, "torneo.xlsx")
    assert str(refused_in_child.value) == str(refused_here.value)


@pytest.mark.parametrize("make", [lambda: bombs.huge_styles(300_000), lambda: bombs.sheet_outside_worksheets(300_000)],
                         ids=["huge styles", "sheet outside worksheets"])
def test_a_bomb_the_bounds_let_through_is_stopped_by_the_budget(make, monkeypatch):
    """The bounds switched off: the reader spells the bomb out until the kernel stops it."""
    monkeypatch.setattr(book, "check_bounds", lambda data: None)
    monkeypatch.setattr(budget, "SECONDS", 1)
    monkeypatch.setattr(budget, "MEGABYTES", 30)
    with pytest.raises(WorkbookError) as refused:
        read_book(make(), "torneo.xlsx")
    assert str(refused.value) in (TOO_LONG % 1, TOO_LARGE % 30)


def test_the_command_line_refuses_a_file_past_the_budget_with_exit_2_and_one_line(organiser, tmp_path, monkeypatch):
    monkeypatch.setattr(book, "check_bounds", lambda data: None)
    monkeypatch.setattr(budget, "SECONDS", 1)
    monkeypatch.setattr(budget, "MEGABYTES", 30)
    message = refusal(tmp_path, "torneo.xlsx", bombs.huge_styles(300_000))
    assert message in (f"torneo.xlsx: {TOO_LONG % 1}", f"torneo.xlsx: {TOO_LARGE % 30}")


def test_the_page_names_the_refusal_in_italian_past_the_bounds_and_past_the_budget(organiser, client, settings,
                                                                                  monkeypatch):
    settings.LANGUAGE_CODE = "it"
    client.force_login(organiser)
    url = reverse("manage:past_import")
    page = client.post(url, {"file": SimpleUploadedFile("torneo.xlsx", bombs.one_part_many_sheets(sheets=3, cells=10))})
    assert page.status_code == 400
    assert tr("The sheets “%(first)s” and “%(second)s” are the same part of the file (%(part)s): it cannot be "
              "read.", "it", first="Turno 1", second="Turno 2", part="xl/worksheets/sheet1.xml") in alerts(page)
    monkeypatch.setattr(book, "check_bounds", lambda data: None)
    monkeypatch.setattr(budget, "SECONDS", 1)
    monkeypatch.setattr(budget, "MEGABYTES", 30)
    page = client.post(url, {"file": SimpleUploadedFile("torneo.xlsx", bombs.huge_styles(300_000))})
    assert page.status_code == 400
    assert set(alerts(page)) & {tr("The file could not be read within %(n)d seconds: it holds more than a club's "
                                   "workbook can.", "it", n=1),
                                tr("The file could not be read within %(n)d MB of memory: it holds more than a "
                                   "club's workbook can.", "it", n=30)}


def test_without_a_process_to_spare_the_file_is_read_here_within_the_bounds(monkeypatch):
    def no_fork():
        raise BlockingIOError(11, "Resource temporarily unavailable")

    monkeypatch.setattr(budget.os, "fork", no_fork)
    sheets = read_book(xlsx(club_rows(season_rounds())), "torneo.xlsx")
    assert [s.name for s in sheets] == ["Turno 1", "Turno 2"]
    with pytest.raises(WorkbookError) as refused:
        read_book(bombs.one_part_many_sheets(sheets=2, cells=10), "torneo.xlsx")
    assert str(refused.value).startswith("The sheets “Turno 1” and “Turno 2” are the same part of the file")
