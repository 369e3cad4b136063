"""Small files that declare or unpack to huge sheets (a workbook bomb each): made here in memory."""
import io
import re
import zipfile

import openpyxl
from odf.opendocument import OpenDocumentSpreadsheet
from odf.table import Table, TableCell, TableRow
from odf.text import P


def _xlsx_parts(sheet_name="Turno 1"):
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = sheet_name
    sheet.append(["Tavolo", "Nome", "Cognome", "Punti tavolo"])
    sheet.append([1, "Mario", "Rossi", 50])
    out = io.BytesIO()
    book.save(out)
    with zipfile.ZipFile(out) as archive:
        return {name: archive.read(name) for name in archive.namelist()}


def _zip(parts):
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        for name, content in parts.items():
            archive.writestr(name, content)
    return out.getvalue()


def declared_huge_sheet():
    """A sheet of two rows and an empty last one that declares itself A1:XFD1048576 (every row and column
    Excel has): a reader fills in every row and column declared."""
    parts = _xlsx_parts()
    sheet = parts["xl/worksheets/sheet1.xml"]
    sheet = re.sub(rb'<dimension ref="[^"]*"', b'<dimension ref="A1:XFD1048576"', sheet)
    parts["xl/worksheets/sheet1.xml"] = sheet.replace(b"</sheetData>", b'<row r="1048576"/></sheetData>')
    return _zip(parts)


def far_away_cell():
    """A sheet without a declared size whose one cell is the last of Excel's rows and columns."""
    parts = _xlsx_parts()
    sheet = parts["xl/worksheets/sheet1.xml"]
    sheet = re.sub(rb"<dimension ref=\"[^\"]*\" ?/>", b"", sheet)
    sheet = sheet.replace(b"</sheetData>", b'<row r="1048576"><c r="XFD1048576" t="n"><v>1</v></c></row></sheetData>')
    parts["xl/worksheets/sheet1.xml"] = sheet
    return _zip(parts)


def many_cells(count=3_000_000):
    """A sheet of `count` empty cells, one a row."""
    parts = _xlsx_parts()
    sheet = parts["xl/worksheets/sheet1.xml"]
    sheet = re.sub(rb"<dimension ref=\"[^\"]*\" ?/>", b"", sheet)
    parts["xl/worksheets/sheet1.xml"] = sheet.replace(b"</sheetData>", b"<row><c/></row>" * count + b"</sheetData>")
    return _zip(parts)


def huge_shared_strings(count=3_000_000):
    """A shared-strings table of `count` strings that no cell uses."""
    parts = _xlsx_parts()
    table = b"<si><t>x</t></si>" * count
    parts["xl/sharedStrings.xml"] = (
        b'<?xml version="1.0" encoding="UTF-8"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"'
        b' count="%d" uniqueCount="%d">' % (count, count) + table + b"</sst>")
    types = parts["[Content_Types].xml"]
    if b"sharedStrings" not in types:
        parts["[Content_Types].xml"] = types.replace(b"</Types>", b'<Override PartName="/xl/sharedStrings.xml" '
            b'ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/></Types>')
        rels = parts["xl/_rels/workbook.xml.rels"]
        parts["xl/_rels/workbook.xml.rels"] = rels.replace(b"</Relationships>", b'<Relationship Id="rIdSST" '
            b'Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" '
            b'Target="sharedStrings.xml"/></Relationships>')
    return _zip(parts)


def one_huge_string(size=150_000_000):
    """A shared string of `size` characters."""
    parts = _xlsx_parts()
    parts["xl/sharedStrings.xml"] = (
        b'<?xml version="1.0" encoding="UTF-8"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"'
        b' count="1" uniqueCount="1"><si><t>' + b"x" * size + b"</t></si></sst>")
    return _zip(parts)


def _ods(rows_xml):
    """An .ods whose one sheet "Turno 1" holds `rows_xml` (the rows, as content.xml spells them)."""
    document = OpenDocumentSpreadsheet()
    table = Table(name="Turno 1")
    row = TableRow()
    cell = TableCell(valuetype="string")
    cell.addElement(P(text="Tavolo"))
    row.addElement(cell)
    table.addElement(row)
    document.spreadsheet.addElement(table)
    out = io.BytesIO()
    document.save(out)
    with zipfile.ZipFile(out) as archive:
        parts = {name: archive.read(name) for name in archive.namelist()}
    content = parts["content.xml"]
    parts["content.xml"] = content.replace(b"</table:table-row>", b"</table:table-row>" + rows_xml, 1)
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        archive.writestr(zipfile.ZipInfo("mimetype"), parts.pop("mimetype"))  # stored, first
        for name, data in parts.items():
            archive.writestr(name, data, zipfile.ZIP_DEFLATED, compresslevel=9)
    return out.getvalue()


def ods_repeated_rows(count=400_000):
    """`count` empty rows each repeated a million times."""
    return _ods(b'<table:table-row table:number-rows-repeated="1000000"><table:table-cell/></table:table-row>' * count)


def ods_repeated_cells(count=1_000_000):
    """One row of `count` cells, each repeated sixteen thousand times, then a row with text repeated a million."""
    return _ods(b'<table:table-row>' + b'<table:table-cell table:number-columns-repeated="16384"/>' * count
                + b'</table:table-row><table:table-row table:number-rows-repeated="1000000"><table:table-cell '
                  b'office:value-type="string" table:number-columns-repeated="16384"><text:p>x</text:p>'
                  b'</table:table-cell></table:table-row>')


BOMBS = {"declared huge sheet": declared_huge_sheet, "far away cell": far_away_cell, "many cells": many_cells,
         "huge shared strings": huge_shared_strings, "one huge string": one_huge_string,
         "ods repeated rows": ods_repeated_rows, "ods repeated cells": ods_repeated_cells}
