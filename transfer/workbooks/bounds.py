"""A zipped workbook (.xlsx, .ods) measured before any reader opens it: its XML streamed once through
expat, nothing kept but counters, each with a limit past which the file is refused by name at once.

A few kilobytes of zip can declare a sheet of a million rows by sixteen thousand columns, hold millions of
cells or shared strings, or repeat one cell sixteen thousand times a row and one row a million times; the
readers (openpyxl, odfpy) would spell all of it out in memory. Here the streaming stops at the first
limit passed, so any file is measured in a fraction of a second and a few megabytes. What passes is
what a club's sheets are many times over: AREA cells a sheet (rows by columns, as declared and as
addressed), CELLS cells written a sheet, SHARED_STRINGS strings and TEXT characters a file; an .ods
file's sheets ODS_ELEMENTS elements (some 25,000 cells with text) and ODS_ROWS rows a sheet."""
import io
import posixpath
import re
import zipfile
from xml.parsers import expat

from django.utils.translation import gettext as _
from openpyxl.packaging.relationship import get_rels_path
from openpyxl.xml.constants import ARC_CONTENT_TYPES, ARC_CORE, ARC_CUSTOM, ARC_STYLE, ARC_WORKBOOK, XLSM, XLSX, XLTM, XLTX
from openpyxl.xml.constants import SHARED_STRINGS as STRINGS_TYPE

from transfer.workbooks.model import WorkbookError

AREA = 1_000_000              # of one sheet: rows by columns (20,000 by 50, 2,000 by 500...)
CELLS = 100_000               # cells written in one .xlsx sheet (a season of 500 players: some 60,000)
SHARED_STRINGS = 100_000      # an .xlsx file's table of texts
TEXT = 20_000_000             # characters of text in one part of the file
ELEMENTS = 400_000            # XML elements of one part of an .xlsx file
ODS_ELEMENTS = 80_000         # XML elements of an .ods file's sheets (odfpy holds each: ~0.7 KB, 35 us)
ODS_ROWS = 20_000             # an .ods sheet's rows (repeats counted), once its last empty run is past
TOTAL_AREA = 3_000_000        # all the sheets together, rows by columns (.ods: the cells the reader spells out)
TOTAL_CELLS = 250_000         # cells written in all the sheets of an .xlsx file (openpyxl: ~20 us each)
WHOLE = 30_000                # XML elements of an .xlsx part that openpyxl parses whole (styles, workbook...)
CHUNK = 64 * 1024

SPREADSHEET_NS = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
RELATIONSHIPS_NS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
TABLE_NS = "urn:oasis:names:tc:opendocument:xmlns:table:1.0"
OFFICE_NS = "urn:oasis:names:tc:opendocument:xmlns:office:1.0"
CELL_REFERENCE = re.compile(r"\$?([A-Za-z]{1,3})?\$?([0-9]{1,7})?")


class _Stop(Exception):
    """Raised inside an expat handler: the limit passed (a WorkbookError) travels out through it."""

    def __init__(self, error):
        super().__init__(str(error))
        self.error = error


def _stream(archive, name, start, text=None, damaged=None, end=None, elements=ELEMENTS, part=None):
    """Stream member `name` of `archive` through expat, calling start(name, attrs) for each element and
    text(data) for character data; a DTD (no workbook has one: an XML bomb's door) is refused as damaged."""
    parser = expat.ParserCreate(namespace_separator="}")
    parser.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)
    parser.buffer_text = True  # one call for each run of text, not one for each line or entity
    parser.buffer_size = CHUNK
    counted = [0]

    def on_start(tag, attrs):
        counted[0] += 1
        if counted[0] > elements:
            raise _Stop(_too_big(part() if part else name))
        start(tag, attrs)

    def on_doctype(*args):
        raise _Stop(damaged)

    parser.StartElementHandler = on_start
    if end is not None:
        parser.EndElementHandler = end
    parser.StartDoctypeDeclHandler = on_doctype
    parser.EntityDeclHandler = on_doctype
    if text is not None:
        parser.CharacterDataHandler = text
    try:
        with archive.open(name) as member:
            while True:
                chunk = member.read(CHUNK)
                parser.Parse(chunk, not chunk)
                if not chunk:
                    break
    except _Stop as stop:
        raise stop.error from None
    except (expat.ExpatError, zipfile.BadZipFile, OSError, EOFError, ValueError, RuntimeError):
        raise damaged from None


def _too_big(part):
    return WorkbookError(_("The file holds more than a club's workbook can (%(part)s): it cannot be read.")
                         % {"part": part})


def too_many_cells(sheet, rows, columns):
    return WorkbookError(_("The sheet “%(sheet)s” spans %(rows)d rows by %(columns)d columns, more than "
                           "%(n)d cells: delete the empty rows and columns past the table and save it again.")
                         % {"sheet": sheet, "rows": rows, "columns": columns, "n": AREA})


def _local(tag):
    return tag.rsplit("}", 1)[-1]


def _column_number(letters):
    number = 0
    for letter in letters.upper():
        number = number * 26 + ord(letter) - 64
    return number


def _reference(text):
    """(column, row) of "B12" or "B12:XFD1048576"'s last cell; 0 for a part absent."""
    match = CELL_REFERENCE.fullmatch((text or "").split(":")[-1].strip())
    if not match:
        return 0, 0
    letters, digits = match.groups()
    return (_column_number(letters) if letters else 0), (int(digits) if digits else 0)


# --- .xlsx -----------------------------------------------------------------------------------------------
# The parts are found as openpyxl finds them (openpyxl/reader/excel.py, read-only): the workbook and the
# table of texts by [Content_Types].xml, whatever their names; the sheets by the workbook's relationships,
# wherever they are stored; each sheet as often as the workbook names it. Every part openpyxl parses whole
# (into objects of some 100 us and a kilobyte each: 50,000 cell formats took it 5 s and 45 MB) holds at
# most WHOLE elements; the sheets, which it streams, are measured one by one and all together.

def _content_types(archive, damaged):
    """(path of the workbook part, path of the table of texts or None), as openpyxl's manifest gives them."""
    overrides = []

    def start(tag, attrs):
        if _local(tag) == "Override" and attrs.get("PartName") and attrs.get("ContentType"):
            overrides.append((attrs["ContentType"], attrs["PartName"][1:]))

    if ARC_CONTENT_TYPES not in archive.namelist():
        return ARC_WORKBOOK, None
    _stream(archive, ARC_CONTENT_TYPES, start, _whole_text(ARC_CONTENT_TYPES), damaged, elements=WHOLE)
    workbook = next((path for kind in (XLTM, XLTX, XLSM, XLSX) for ct, path in overrides if ct == kind), ARC_WORKBOOK)
    strings = next((path for ct, path in overrides if ct == STRINGS_TYPE), None)
    return workbook, strings


def _relationships(archive, part, damaged):
    """[(type, target)] of a part's relationships, the targets as paths in the archive (openpyxl's
    get_dependents); [] for a part without any."""
    path = get_rels_path(part)
    if path not in archive.namelist():
        return []
    found = []

    def start(tag, attrs):
        if _local(tag) == "Relationship" and attrs.get("Target") is not None:
            target = attrs["Target"]
            if attrs.get("TargetMode") != "External":
                target = target[1:] if target.startswith("/") else posixpath.normpath(
                    posixpath.join(posixpath.dirname(part), target))
            found.append((attrs.get("Id"), attrs.get("Type") or "", target))

    _stream(archive, path, start, _whole_text(path), damaged, elements=WHOLE)
    return found


def _xlsx_sheet_names(archive, workbook, damaged):
    """[(the sheet's name, its part, its type)] in the workbook's order, as openpyxl reads them (a sheet
    whose part is absent is skipped, as openpyxl skips it)."""
    targets = {rid: (kind, target) for rid, kind, target in _relationships(archive, workbook, damaged)}
    names = []

    def sheet(tag, attrs):
        if _local(tag) == "sheet":
            names.append((attrs.get(f"{RELATIONSHIPS_NS}}}id"), attrs.get("name") or ""))

    if workbook not in archive.namelist():
        raise damaged
    _stream(archive, workbook, sheet, _whole_text(workbook), damaged, elements=WHOLE)
    present = set(archive.namelist())
    return [(name, targets[rid][1], targets[rid][0]) for rid, name in names
            if rid in targets and targets[rid][1] in present]


def _xlsx_sheet(archive, path, sheet, damaged, totals):
    """A worksheet's size as declared (<dimension>), as addressed (the last row and column a cell names,
    which the reader fills in up to) and as counted, each within CELLS; and its text within TEXT. Its
    area and cells are added to `totals`, all the sheets' within TOTAL_AREA and TOTAL_CELLS."""
    state = {"rows": 0, "row": 0, "columns": 0, "column": 0, "cells": 0, "declared": (0, 0), "text": 0}

    def check():
        rows = max(state["rows"], state["declared"][1])
        columns = max(state["columns"], state["declared"][0], 1)
        if rows * columns > AREA:
            raise _Stop(too_many_cells(sheet, rows, columns))
        if state["cells"] > CELLS:
            raise _Stop(WorkbookError(_("The sheet “%(sheet)s” holds more than %(n)d cells: it cannot be read.")
                                      % {"sheet": sheet, "n": CELLS}))

    def start(tag, attrs):
        name = _local(tag)
        if name == "c":
            state["cells"] += 1
            column = _reference(attrs.get("r"))[0] or state["column"] + 1
            state["column"] = column
            if column > state["columns"] or state["cells"] % 4096 == 0:
                state["columns"] = max(state["columns"], column)
                check()
        elif name == "row":
            number = attrs.get("r")
            state["row"] = int(number) if number and number.isdigit() else state["row"] + 1
            state["rows"] = max(state["rows"], state["row"])
            state["column"] = 0
            check()
        elif name == "dimension":
            state["declared"] = _reference(attrs.get("ref"))
            check()

    def text(data):
        state["text"] += len(data)
        if state["text"] > TEXT:
            raise _Stop(_too_big(_("sheet “%(sheet)s”") % {"sheet": sheet}))

    _stream(archive, path, start, text, damaged, part=lambda: _("sheet “%(sheet)s”") % {"sheet": sheet})
    check()
    area = max(state["rows"], state["declared"][1]) * max(state["columns"], state["declared"][0], 1)
    _add_to_totals(totals, sheet, area, state["cells"])


def _add_to_totals(totals, sheet, area, cells):
    totals["area"] += area
    totals["cells"] += cells
    if totals["area"] > TOTAL_AREA:
        raise too_large_in_all(sheet)
    if totals["cells"] > TOTAL_CELLS:
        raise WorkbookError(_("The sheets up to “%(sheet)s” hold more than %(n)d cells in all: the file cannot be "
                              "read.") % {"sheet": sheet, "n": TOTAL_CELLS})


def too_large_in_all(sheet):
    """Every sheet within AREA, too many of them: the sheets up to `sheet` span more than TOTAL_AREA."""
    return WorkbookError(_("The sheets up to “%(sheet)s” span more than %(n)d cells in all (rows by columns): "
                           "the file cannot be read.") % {"sheet": sheet, "n": TOTAL_AREA})


def _whole_text(part):
    """A text handler holding a part parsed whole within TEXT characters."""
    count = [0]

    def text(data):
        count[0] += len(data)
        if count[0] > TEXT:
            raise _Stop(_too_big(part))
    return text


def _measure_whole(archive, path, damaged):
    if path in archive.namelist():
        _stream(archive, path, lambda tag, attrs: None, _whole_text(path), damaged, elements=WHOLE)


def _shared_strings(archive, path, damaged):
    state = {"strings": 0, "text": 0}

    def start(tag, attrs):
        if _local(tag) == "si":
            state["strings"] += 1
            if state["strings"] > SHARED_STRINGS:
                raise _Stop(WorkbookError(_("The file's table of texts holds more than %(n)d texts: it cannot be "
                                            "read.") % {"n": SHARED_STRINGS}))

    def text(data):
        state["text"] += len(data)
        if state["text"] > TEXT:
            raise _Stop(WorkbookError(_("The file's table of texts holds more than %(n)d characters: it cannot be "
                                        "read.") % {"n": TEXT}))

    _stream(archive, path, start, text, damaged)


def _check_xlsx(archive, damaged):
    workbook, strings = _content_types(archive, damaged)
    sheets = _xlsx_sheet_names(archive, workbook, damaged)
    for path in (ARC_CORE, ARC_CUSTOM, ARC_STYLE):
        _measure_whole(archive, path, damaged)
    tables = {path for path in archive.namelist() if path.lower() == "xl/sharedstrings.xml"}
    for path in sorted(tables | ({strings} if strings in archive.namelist() else set())):
        _shared_strings(archive, path, damaged)
    read, totals = {}, {"area": 0, "cells": 0}
    for name, path, kind in sheets:
        if path in read:
            raise WorkbookError(_("The sheets “%(first)s” and “%(second)s” are the same part of the file "
                                  "(%(part)s): it cannot be read.") % {"first": read[path], "second": name,
                                                                       "part": path})
        read[path] = name
        _measure_whole(archive, get_rels_path(path), damaged)
        if "chartsheet" in kind:   # read whole, with its drawings and their charts
            _measure_whole(archive, path, damaged)
            for _id, _kind, drawing in _relationships(archive, path, damaged):
                _measure_whole(archive, drawing, damaged)
                for _id, _kind, chart in _relationships(archive, drawing, damaged):
                    _measure_whole(archive, chart, damaged)
        else:
            _xlsx_sheet(archive, path, name, damaged, totals)


# --- .ods ------------------------------------------------------------------------------------------------

def _check_ods(archive, damaged):
    """content.xml: each sheet's rows and cells, repeats counted, as the reader spells them out (a run of
    empty cells or rows is what LibreOffice ends a sheet with: the reader caps those, and a sheet may end
    in one run of any length)."""
    state = {"sheet": "", "rows": 0, "row_repeat": 1, "row_cells": 0, "row_filled": False, "runs_past": 0,
             "cells": 0, "total": 0, "text": 0}
    repeated_rows = f"{TABLE_NS}}}number-rows-repeated"
    repeated_columns = f"{TABLE_NS}}}number-columns-repeated"

    def count(value):
        try:
            return max(int(value or 1), 1)
        except ValueError:
            raise _Stop(damaged) from None

    def end_row():
        repeat = state["row_repeat"]
        if state["rows"] >= ODS_ROWS:
            # Past the last row a sheet can hold only its closing runs of empty rows, a few of them.
            state["runs_past"] += 1
            if state["row_filled"] or state["runs_past"] > 16:
                raise _Stop(WorkbookError(_("The sheet “%(sheet)s” has more than %(n)d rows.")
                                          % {"sheet": state["sheet"], "n": ODS_ROWS}))
        state["rows"] += repeat if state["row_filled"] else min(repeat, ODS_ROWS)
        if state["row_filled"] and state["rows"] > ODS_ROWS:
            raise _Stop(WorkbookError(_("The sheet “%(sheet)s” has more than %(n)d rows.")
                                      % {"sheet": state["sheet"], "n": ODS_ROWS}))
        if state["row_filled"]:  # spelled out by the reader, up to 200 cells a row (a run of empty rows is not)
            spelled = min(state["row_cells"], 200) * min(repeat, ODS_ROWS)
            state["cells"] += spelled
            state["total"] += spelled
        else:  # an empty row is one place in the reader's list
            state["total"] += min(repeat, ODS_ROWS)
        if state["cells"] > AREA:
            raise _Stop(_too_big(_("sheet “%(sheet)s”") % {"sheet": state["sheet"]}))
        if state["total"] > TOTAL_AREA:   # every sheet within the limits, too many of them
            raise _Stop(too_large_in_all(state["sheet"]))

    def start(tag, attrs):
        name = _local(tag)
        if tag == f"{TABLE_NS}}}table":
            state.update(sheet=attrs.get(f"{TABLE_NS}}}name") or "", rows=0, runs_past=0, cells=0)
        elif tag == f"{TABLE_NS}}}table-row":
            state.update(row_repeat=count(attrs.get(repeated_rows)), row_cells=0, row_filled=False)
            state["open_row"] = True
        elif tag in (f"{TABLE_NS}}}table-cell", f"{TABLE_NS}}}covered-table-cell"):
            state["row_cells"] += count(attrs.get(repeated_columns))
            if attrs.get(f"{OFFICE_NS}}}value-type"):
                state["row_filled"] = True
        elif name == "p" and state.get("open_row"):
            state["row_filled"] = True

    def end(tag):
        if tag == f"{TABLE_NS}}}table-row":
            state["open_row"] = False
            end_row()

    def text(data):
        state["text"] += len(data)
        if state["text"] > TEXT:
            raise _Stop(_too_big(_("sheet “%(sheet)s”") % {"sheet": state["sheet"]}))

    _stream(archive, "content.xml", start, text, damaged, end=end, elements=ODS_ELEMENTS,
            part=lambda: _("sheet “%(sheet)s”") % {"sheet": state["sheet"]} if state["sheet"] else "content.xml")


def check(data):
    """Raise WorkbookError, naming the sheet or the part, for a zipped workbook past the limits; the
    file's kind (xlsx or ods) is the reader's to tell, a damaged zip the reader's to name."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        names = set(archive.namelist())
        ods = "mimetype" in names and archive.read("mimetype")[:100].strip().startswith(
            b"application/vnd.oasis.opendocument.spreadsheet")
    except (zipfile.BadZipFile, OSError, EOFError, ValueError, KeyError):
        return  # not a zip the reader can open: it says so
    if ods and "content.xml" in names:
        _check_ods(archive, WorkbookError(_("This LibreOffice file is damaged and cannot be read: open it and save "
                                            "it again.")))
    elif "xl/workbook.xml" in names:
        _check_xlsx(archive, WorkbookError(_("This Excel file is damaged and cannot be read: open it and save it "
                                             "again.")))
