"""A file read into plain sheets of cell values, whatever made it: Excel (.xlsx with openpyxl, the old .xls
with xlrd), LibreOffice (.ods with odfpy) or a CSV file. The kind is read from the file's first bytes, not
from its name: a workbook renamed by mistake still comes in, and a file that is none of these is named
plainly. Formulas give the value last computed (what the secretary saw on screen)."""
import csv
import datetime
import io
import zipfile
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation

import openpyxl
import xlrd
from django.utils.translation import gettext as _
from odf import opendocument
from odf.namespaces import OFFICENS, STYLENS, TABLENS, TEXTNS

from transfer.workbooks import bounds, formulas
from transfer.workbooks.bounds import check as check_bounds
from transfer.workbooks.budget import within_budget
from transfer.workbooks.model import WorkbookError, column_letter

MAX_BYTES = 10 * 1024 * 1024            # a file as uploaded
MAX_UNPACKED = 200 * 1024 * 1024        # what a zipped workbook may unpack to
MAX_ROWS, MAX_COLUMNS = 20_000, 200     # of one sheet
OLE = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
ODS_MIME = b"application/vnd.oasis.opendocument.spreadsheet"
BOOK_SUFFIXES = (".xlsx", ".xlsm", ".xls", ".ods", ".csv")


@dataclass
class Sheet:
    name: str
    rows: list = field(default_factory=list)   # lists of values: None, str, int, Decimal, bool, date
    text: bool = False                          # read from a text file (CSV)
    hidden: bool = False                        # hidden in the workbook (an old draft, the template's lists)
    # {(row from 1, column letter): formula} of the cells holding a formula whose value the file does not
    # hold and that is no simple arithmetic: their value is None, the reader refuses the ones it needs.
    formulas: dict = field(default_factory=dict)


def read_book(data, filename=""):
    """The sheets of a workbook (or the one sheet of a CSV file), or WorkbookError naming why not."""
    if len(data) > MAX_BYTES:
        raise WorkbookError(_("The file is larger than %(n)d MB.") % {"n": MAX_BYTES // (1024 * 1024)})
    if not data.strip():
        raise WorkbookError(_("The file is empty."))
    if data.startswith(OLE) or data.startswith(b"PK\x03\x04"):
        return within_budget(_workbook, data, filename)  # in a child process, under a hard budget (budget.py)
    return _csv(data, filename)


def _workbook(data, filename):
    if data.startswith(OLE):
        return _xls(data)
    _unpacked_within_limit(data)
    check_bounds(data)  # measured while streaming, before a reader spells it out (bounds.py)
    return _zipped(data)


def not_a_workbook():
    return WorkbookError(_("This file is not a workbook: open it and save it as .xlsx, .xls, .ods or .csv."))


def _unpacked_within_limit(data):
    """The sizes the zip declares (zipfile reads no further than them), before anything is unpacked."""
    try:
        infos = zipfile.ZipFile(io.BytesIO(data)).infolist()
    except (zipfile.BadZipFile, OSError, EOFError, ValueError):
        return  # the reader names it
    if sum(info.file_size for info in infos) > MAX_UNPACKED:
        raise WorkbookError(_("The file unpacks to more than %(n)d MB.") % {"n": MAX_UNPACKED // (1024 * 1024)})


def _zipped(data):
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        names = set(archive.namelist())
        if "mimetype" in names and archive.read("mimetype").strip().startswith(ODS_MIME):
            return _ods(data)
    except (zipfile.BadZipFile, OSError, EOFError, ValueError):
        raise not_a_workbook() from None
    if "xl/workbook.xml" in names:
        return _xlsx(data)
    raise not_a_workbook()


def _number(value):
    """A float from a workbook as the decimal the spreadsheet shows (15 significant digits)."""
    if isinstance(value, bool) or not isinstance(value, float):
        return value
    if value != value or value in (float("inf"), float("-inf")):
        return None
    number = Decimal(format(value, ".15g"))
    return int(number) if number == number.to_integral_value() and abs(number) < 10 ** 15 else number


def _trimmed(rows):
    """Rows without the empty ones at the end, each without its empty cells at the end."""
    out = []
    for row in rows:
        row = list(row[:MAX_COLUMNS])
        while row and (row[-1] is None or row[-1] == ""):
            row.pop()
        out.append(row)
    while out and not out[-1]:
        out.pop()
    return out


def _too_long(name):
    return WorkbookError(_("The sheet “%(sheet)s” has more than %(n)d rows.") % {"sheet": name, "n": MAX_ROWS})


def _xlsx(data):
    try:
        # keep_links=False: the cached copies of other workbooks' cells (external links) are not read.
        book = openpyxl.load_workbook(io.BytesIO(data), read_only=True, data_only=True, keep_links=False)
    except MemoryError:
        raise
    except Exception:  # openpyxl raises many kinds on a damaged file
        raise WorkbookError(_("This Excel file is damaged and cannot be read: open it and save it again.")) from None
    sheets = []
    try:
        for sheet in book.worksheets:
            rows = []
            for row in sheet.iter_rows(values_only=True):
                if len(rows) >= MAX_ROWS:
                    if any(v not in (None, "") for v in row):
                        raise _too_long(sheet.title)
                    continue
                rows.append([_number(v) for v in row])
            sheets.append(Sheet(sheet.title, _trimmed(rows), hidden=sheet.sheet_state != "visible"))
        if _has_formulas(data):
            _formulas_without_values(data, sheets)
    except (WorkbookError, MemoryError):
        raise
    except Exception:
        raise WorkbookError(_("This Excel file is damaged and cannot be read: open it and save it again.")) from None
    finally:
        book.close()
    return sheets


def _has_formulas(data):
    """Whether a worksheet of the .xlsx holds a formula (its <f> element), read part by part."""
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        for name in archive.namelist():
            if name.startswith("xl/worksheets/") and name.endswith(".xml"):
                with archive.open(name) as part:
                    tail = b""
                    while chunk := part.read(1 << 16):
                        if b"<f>" in tail + chunk or b"<f " in tail + chunk:
                            return True
                        tail = chunk[-3:]
    return False


def _formulas_without_values(data, sheets):
    """The formulas of the cells whose value is missing: simple arithmetic computed (formulas.py), any other
    kept in the sheet's `formulas` for the reader to refuse where it needs the cell."""
    book = openpyxl.load_workbook(io.BytesIO(data), read_only=True, data_only=False)
    try:
        for sheet, read in zip(book.worksheets, sheets):
            for r, row in enumerate(sheet.iter_rows(values_only=True, max_row=MAX_ROWS)):
                for c, value in enumerate(row[:MAX_COLUMNS]):
                    if isinstance(value, str) and value.startswith("=") and \
                            (r >= len(read.rows) or c >= len(read.rows[r]) or read.rows[r][c] is None):
                        _formula_cell(read, r, c, value)
    finally:
        book.close()


def _formula_cell(sheet, r, c, formula):
    """A formula without its value at row `r`, column `c` (from 0): computed into the row, or kept."""
    value = formulas.evaluate(formula)
    if value is None:
        sheet.formulas[(r + 1, column_letter(c))] = formulas.written(formula)
        return
    while len(sheet.rows) <= r:
        sheet.rows.append([])
    row = sheet.rows[r]
    row.extend([None] * (c + 1 - len(row)))
    row[c] = int(value) if value == value.to_integral_value() else value


def _xls(data):
    try:
        # ragged_rows: a row holds the cells up to its own last one, not every row up to the sheet's last
        # column (60 sheets of one far cell were 60 grids of 20,000 by 256 cells)
        book = xlrd.open_workbook(file_contents=data, on_demand=True, ragged_rows=True)
    except MemoryError:
        raise
    except Exception:  # xlrd raises XLRDError, struct and index errors on a damaged file
        raise WorkbookError(_("This Excel file is damaged and cannot be read: open it and save it again.")) from None
    sheets, totals = [], {"area": 0, "cells": 0}
    try:
        for index in range(book.nsheets):
            sheet = _xls_sheet(book, index, totals)
            rows = [[_xls_value(sheet.cell(r, c), book.datemode) for c in range(min(sheet.row_len(r), MAX_COLUMNS))]
                    for r in range(sheet.nrows)]
            sheets.append(Sheet(sheet.name, _trimmed(rows), hidden=sheet.visibility != 0))
            book.unload_sheet(index)
    except (WorkbookError, MemoryError):
        raise
    except Exception:
        raise WorkbookError(_("This Excel file is damaged and cannot be read: open it and save it again.")) from None
    finally:
        book.release_resources()
    return sheets


def _xls_sheet(book, index, totals):
    """xlrd's Book.get_sheet, each cell counted as xlrd puts it: a sheet past MAX_ROWS rows or spanning
    more than bounds.AREA cells (rows by columns), or all the sheets together more than bounds.TOTAL_AREA,
    is refused by name as soon as its cell comes, before xlrd makes room for it."""
    book._position = book._sh_abs_posn[index]
    book.getbof(xlrd.biffh.XL_WORKSHEET)
    sheet = xlrd.sheet.Sheet(book, book._position, book._sheet_names[index], index)
    put = sheet.put_cell
    before = totals["area"]

    def counted(rowx, colx, *rest):
        if rowx >= MAX_ROWS:
            raise _too_long(sheet.name)
        if rowx >= sheet.nrows or colx >= sheet.ncols:
            rows, columns = max(rowx + 1, sheet.nrows), max(colx + 1, sheet.ncols)
            if rows * columns > bounds.AREA:
                raise bounds.too_many_cells(sheet.name, rows, columns)
            totals["area"] = before + rows * columns
            if totals["area"] > bounds.TOTAL_AREA:
                raise bounds.too_large_in_all(sheet.name)
        put(rowx, colx, *rest)

    sheet.put_cell = counted
    sheet.read(book)
    return sheet


def _xls_value(cell, datemode):
    if cell.ctype == xlrd.XL_CELL_NUMBER:
        return _number(float(cell.value))
    if cell.ctype == xlrd.XL_CELL_TEXT:
        return cell.value
    if cell.ctype == xlrd.XL_CELL_BOOLEAN:
        return bool(cell.value)
    if cell.ctype == xlrd.XL_CELL_DATE:
        try:
            return xlrd.xldate_as_datetime(cell.value, datemode).date()
        except (ValueError, OverflowError, xlrd.xldate.XLDateError):
            return None
    return None  # empty, blank, or an error such as #N/D


# --- OpenDocument (LibreOffice): content.xml read with odfpy --------------------------------------

ODS_MANIFEST = (b'<?xml version="1.0" encoding="UTF-8"?><manifest:manifest xmlns:manifest="urn:oasis:names:tc:'
                b'opendocument:xmlns:manifest:1.0" manifest:version="1.2"><manifest:file-entry manifest:full-path="/" '
                b'manifest:media-type="application/vnd.oasis.opendocument.spreadsheet"/><manifest:file-entry '
                b'manifest:full-path="content.xml" manifest:media-type="text/xml"/></manifest:manifest>')


def _content_only(data):
    """The .ods file as odfpy is given it: its mimetype and content.xml (the sheets, measured by bounds.py)
    and a manifest naming only them. odfpy would otherwise build a tree of every part the file's own
    manifest names (styles.xml, meta.xml, settings.xml, embedded objects) and hold its pictures; no cell
    value comes from those."""
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        content = archive.read("content.xml")
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_STORED) as slim:
        slim.writestr("mimetype", ODS_MIME)
        slim.writestr("META-INF/manifest.xml", ODS_MANIFEST)
        slim.writestr("content.xml", content)
    return out


def _ods(data):
    try:
        document = opendocument.load(_content_only(data))
        tables = [node for node in document.spreadsheet.childNodes if node.qname == (TABLENS, "table")]
        hidden = _ods_hidden_styles(document)
        sheets = []
        for table in tables:
            sheet = Sheet(table.getAttrNS(TABLENS, "name") or "",
                          hidden=(table.getAttrNS(TABLENS, "style-name") or "") in hidden)
            sheet.rows = _trimmed(_ods_rows(table, sheet))
            sheets.append(sheet)
        return sheets
    except (WorkbookError, MemoryError):
        raise
    except Exception:  # odfpy and the XML parser raise many kinds on a damaged file
        raise WorkbookError(_("This LibreOffice file is damaged and cannot be read: open it and save it again.")) \
            from None


def _ods_children(node, *names):
    for child in node.childNodes:
        if child.qname[0] == TABLENS and child.qname[1] in names:
            yield child
        elif child.qname == (TABLENS, "table-row-group") or child.qname == (TABLENS, "table-header-rows") \
                or child.qname == (TABLENS, "table-rows"):
            yield from _ods_children(child, *names)


def _ods_hidden_styles(document):
    """The names of the table styles that hide a sheet (style:table-properties table:display="false")."""
    hidden = set()
    for style in document.automaticstyles.childNodes:
        for child in getattr(style, "childNodes", ()):
            if child.qname[1] == "table-properties" and child.getAttrNS(TABLENS, "display") == "false":
                hidden.add(style.getAttrNS(STYLENS, "name") or "")
    return hidden


def _ods_rows(table, sheet):
    rows = []
    name = table.getAttrNS(TABLENS, "name") or ""
    for row in _ods_children(table, "table-row"):
        cells = []
        for cell in _ods_children(row, "table-cell", "covered-table-cell"):
            value = _ods_value(cell)
            formula = cell.getAttrNS(TABLENS, "formula") if cell.qname[1] == "table-cell" else None
            if formula and not cell.getAttrNS(OFFICENS, "value-type"):
                computed = formulas.evaluate(formula)     # no value saved with the formula
                if computed is None:
                    sheet.formulas[(len(rows) + 1, column_letter(len(cells)))] = formulas.written(formula)
                else:
                    value = int(computed) if computed == computed.to_integral_value() else computed
            repeat = int(cell.getAttrNS(TABLENS, "number-columns-repeated") or 1)
            # A sheet ends in a run of thousands of empty cells: a run is spelled out up to the limit.
            cells.extend([value] * min(repeat, MAX_COLUMNS))
            if len(cells) >= MAX_COLUMNS:
                break
        repeat = int(row.getAttrNS(TABLENS, "number-rows-repeated") or 1)
        if not any(v is not None for v in cells):
            rows.extend([[]] * min(repeat, MAX_ROWS))
        else:
            rows.extend([list(cells) for _ in range(min(repeat, MAX_ROWS))])
        if len(rows) > MAX_ROWS:
            if any(any(v is not None for v in r) for r in rows[MAX_ROWS:]):
                raise _too_long(name)
            rows = rows[:MAX_ROWS]
    return rows


def _ods_value(cell):
    if cell.qname[1] == "covered-table-cell":
        return None  # the hidden part of merged cells
    kind = cell.getAttrNS(OFFICENS, "value-type")
    if kind in ("float", "percentage", "currency"):
        try:
            number = Decimal(cell.getAttrNS(OFFICENS, "value"))
        except (InvalidOperation, TypeError):
            return None
        return int(number) if number == number.to_integral_value() else number
    if kind == "boolean":
        return cell.getAttrNS(OFFICENS, "boolean-value") == "true"
    if kind == "date":
        try:
            return datetime.date.fromisoformat((cell.getAttrNS(OFFICENS, "date-value") or "")[:10])
        except ValueError:
            return None
    paragraphs = [_ods_text(p) for p in cell.childNodes if p.qname == (TEXTNS, "p")]
    text = "\n".join(paragraphs)
    return text if text.strip() else None


def _ods_text(node):
    parts = []
    for child in node.childNodes:
        if child.nodeType == child.TEXT_NODE:
            parts.append(str(child.data))
        elif child.qname == (TEXTNS, "s"):
            parts.append(" " * int(child.getAttrNS(TEXTNS, "c") or 1))
        elif child.qname == (TEXTNS, "tab"):
            parts.append("\t")
        else:
            parts.append(_ods_text(child))
    return "".join(parts)


# --- CSV: one sheet, the file's own name --------------------------------------------------------------

def _csv(data, filename):
    if b"\x00" in data[:4096]:
        raise not_a_workbook()
    head = data[:512].lstrip().lower()
    if head.startswith((b"<html", b"<!doctype", b"<?xml", b"<table")):
        raise WorkbookError(_("This file is a web page or an XML file saved with a workbook's name: open it "
                              "and save it as .xlsx."))
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = data.decode("cp1252", errors="replace")  # what an Italian Excel writes a CSV in
    try:
        dialect = csv.Sniffer().sniff(text[:4096], delimiters=";,\t")
    except csv.Error:
        class dialect(csv.excel):
            delimiter = ";" if text[:4096].count(";") > text[:4096].count(",") else ","
    name = filename.rsplit("/", 1)[-1].rsplit(".", 1)[0] or "CSV"
    try:
        rows = []
        for row in csv.reader(io.StringIO(text), dialect):
            if len(rows) >= MAX_ROWS:
                raise _too_long(name)
            rows.append([cell if cell.strip() else None for cell in row])
    except csv.Error as exc:
        raise WorkbookError(_("The file is not a valid CSV: %(err)s") % {"err": exc}) from None
    return [Sheet(name, _trimmed(rows), text=True)]
