"""A workbook bomb (a few kilobytes of zip declaring, holding or repeating millions of cells or texts) is
refused by name before any reader spells it out: within 2 seconds of the processor and 100 MB of memory,
the message naming the sheet or the file's table of texts. A club's real sheets still come in."""
import time
import tracemalloc

import pytest

from tests.transfer.workbooks import bombs
from transfer.workbooks.book import read_book
from transfer.workbooks.model import WorkbookError

SECONDS, MEGABYTES = 2, 100

NAMED = {
    "declared huge sheet": "The sheet “Turno 1” spans 1048576 rows by 16384 columns, more than 1000000 cells: "
                           "delete the empty rows and columns past the table and save it again.",
    "far away cell": "The sheet “Turno 1” spans 1048576 rows by 4 columns, more than 1000000 cells: delete the "
                     "empty rows and columns past the table and save it again.",
    "many cells": "The sheet “Turno 1” holds more than 100000 cells: it cannot be read.",
    "huge shared strings": "The file's table of texts holds more than 100000 texts: it cannot be read.",
    "one huge string": "The file's table of texts holds more than 20000000 characters: it cannot be read.",
    "ods repeated rows": "The sheet “Turno 1” has more than 20000 rows.",
    "ods repeated cells": "The file holds more than a club's workbook can (sheet “Turno 1”): it cannot be read.",
}


@pytest.fixture(scope="module")
def made():
    return {name: make() for name, make in bombs.BOMBS.items()}


def _refusal(data, name):
    with pytest.raises(WorkbookError) as refused:
        read_book(data, "bomb.ods" if name.startswith("ods") else "bomb.xlsx")
    return str(refused.value)


@pytest.mark.parametrize("name", list(NAMED))
def test_a_workbook_bomb_is_refused_by_name_within_two_seconds(made, name, settings):
    settings.LANGUAGE_CODE = "en"
    data = made[name]
    assert len(data) < 200 * 1024   # small as uploaded
    start = time.process_time()
    message = _refusal(data, name)
    assert time.process_time() - start < SECONDS
    assert message == NAMED[name]


@pytest.mark.parametrize("name", list(NAMED))
def test_a_workbook_bomb_is_refused_within_a_hundred_megabytes(made, name):
    tracemalloc.start()
    try:
        _refusal(made[name], name)
        _current, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < MEGABYTES * 1024 * 1024


def test_a_clubs_sheet_of_a_thousand_rows_still_comes_in():
    row = (b'<table:table-row>' + b'<table:table-cell office:value-type="string"><text:p>Rossi</text:p>'
           b'</table:table-cell>' * 10 + b'</table:table-row>')
    sheets = read_book(bombs._ods(row * 1000 + b'<table:table-row table:number-rows-repeated="1048000">'
                                  b'<table:table-cell table:number-columns-repeated="1024"/></table:table-row>'),
                       "stagione.ods")
    assert [(s.name, len(s.rows)) for s in sheets] == [("Turno 1", 1001)]
