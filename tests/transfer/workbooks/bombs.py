"""Small files that declare or unpack to huge sheets (a workbook bomb each): made here in memory."""
import io
import re
import zipfile

import openpyxl
from openpyxl.utils import get_column_letter
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


# --- shapes that passed the bounds by being stored where the bounds did not look (issue 59) -------------

SHEET_TYPE = b"http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet"
STRINGS_TYPE = b"application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"


def _empty_cells(count):
    return b"<row><c/></row>" * count


def sheet_outside_worksheets(count=3_000_000):
    """The sheet's part stored as xl/data/turno.xml (the workbook's relationships point at it), holding
    `count` empty cells, one a row."""
    parts = _xlsx_parts()
    sheet = parts.pop("xl/worksheets/sheet1.xml")
    sheet = re.sub(rb"<dimension ref=\"[^\"]*\" ?/>", b"", sheet)
    parts["xl/data/turno.xml"] = sheet.replace(b"</sheetData>", _empty_cells(count) + b"</sheetData>")
    parts["xl/_rels/workbook.xml.rels"] = parts["xl/_rels/workbook.xml.rels"].replace(
        b"/xl/worksheets/sheet1.xml", b"data/turno.xml")
    parts["[Content_Types].xml"] = parts["[Content_Types].xml"].replace(b"/xl/worksheets/sheet1.xml",
                                                                        b"/xl/data/turno.xml")
    return _zip(parts)


def one_part_many_sheets(sheets=400, cells=50_000):
    """`sheets` sheets, each its own relationship, all pointing at the one part of `cells` cells."""
    parts = _xlsx_parts()
    sheet = parts["xl/worksheets/sheet1.xml"]
    sheet = re.sub(rb"<dimension ref=\"[^\"]*\" ?/>", b"", sheet)
    parts["xl/worksheets/sheet1.xml"] = sheet.replace(b"</sheetData>", _empty_cells(cells) + b"</sheetData>")
    parts["xl/_rels/workbook.xml.rels"] = parts["xl/_rels/workbook.xml.rels"].replace(b"</Relationships>", b"".join(
        b'<Relationship Type="%s" Target="/xl/worksheets/sheet1.xml" Id="rIdS%d"/>' % (SHEET_TYPE, n)
        for n in range(2, sheets + 1)) + b"</Relationships>")
    parts["xl/workbook.xml"] = parts["xl/workbook.xml"].replace(b"</sheets>", b"".join(
        b'<sheet name="Turno %d" sheetId="%d" r:id="rIdS%d"/>' % (n, n, n) for n in range(2, sheets + 1))
        + b"</sheets>")
    return _zip(parts)


def shared_strings_elsewhere(count=4_000_000):
    """A table of `count` texts stored as xl/texts/table.xml (the content types name it the table of texts)."""
    parts = _xlsx_parts()
    parts["xl/texts/table.xml"] = (
        b'<?xml version="1.0" encoding="UTF-8"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"'
        b' count="%d" uniqueCount="%d">' % (count, count) + b"<si><t>x</t></si>" * count + b"</sst>")
    parts["[Content_Types].xml"] = parts["[Content_Types].xml"].replace(
        b"</Types>", b'<Override PartName="/xl/texts/table.xml" ContentType="%s"/></Types>' % STRINGS_TYPE)
    return _zip(parts)


def huge_styles(count=2_000_000):
    """A styles.xml of `count` cell formats."""
    parts = _xlsx_parts()
    parts["xl/styles.xml"] = re.sub(rb'<cellXfs count="\d+">', b'<cellXfs count="%d">' % count
                                    + b'<xf numFmtId="0" fontId="0" fillId="0" borderId="0"/>' * count,
                                    parts["xl/styles.xml"], count=1)
    return _zip(parts)


def _xlsx_sheets(sheet, sheets):
    """An .xlsx of `sheets` sheets "Turno N", each its own part holding `sheet`."""
    parts = _xlsx_parts()
    rels, names = [], []
    for n in range(2, sheets + 1):
        parts[f"xl/worksheets/sheet{n}.xml"] = sheet
        rels.append(b'<Relationship Type="%s" Target="/xl/worksheets/sheet%d.xml" Id="rIdS%d"/>' % (SHEET_TYPE, n, n))
        names.append(b'<sheet name="Turno %d" sheetId="%d" r:id="rIdS%d"/>' % (n, n, n))
    parts["xl/worksheets/sheet1.xml"] = sheet
    parts["xl/_rels/workbook.xml.rels"] = parts["xl/_rels/workbook.xml.rels"].replace(
        b"</Relationships>", b"".join(rels) + b"</Relationships>")
    parts["xl/workbook.xml"] = parts["xl/workbook.xml"].replace(b"</sheets>", b"".join(names) + b"</sheets>")
    return _zip(parts)


def xlsx_many_sheets(sheets=100):
    """`sheets` sheets, each its own part within the limits: 10,000 rows by 100 columns declared."""
    return _xlsx_sheets(re.sub(rb'<dimension ref="[^"]*"', b'<dimension ref="A1:CV10000"',
                               _xlsx_parts()["xl/worksheets/sheet1.xml"]), sheets)


def xlsx_many_written_cells(sheets=10, cells=90_000):
    """`sheets` sheets, each its own part of `cells` empty cells, one a row."""
    sheet = re.sub(rb"<dimension ref=\"[^\"]*\" ?/>", b"", _xlsx_parts()["xl/worksheets/sheet1.xml"])
    return _xlsx_sheets(sheet.replace(b"</sheetData>", _empty_cells(cells) + b"</sheetData>"), sheets)


def xls_far_cells(sheets=60, row=19_999, column=255):
    """An .xls of `sheets` sheets of one number each, at (`row`, `column`): a reader padding rows keeps
    `sheets` grids of row + 1 by column + 1 cells."""
    import xlwt
    book = xlwt.Workbook()
    for n in range(1, sheets + 1):
        book.add_sheet(f"Foglio {n}").write(row, column, 1)
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def xls_many_sheets(sheets=60):
    """Sheets each within a million cells (3,900 rows by 256 columns), too many of them together."""
    return xls_far_cells(sheets, row=3_899)


def _ods_document(tables, extra=None):
    """An .ods of content.xml's `tables` (the table elements, spelled out), with `extra` parts
    {name: bytes} (styles.xml, meta.xml...) in place of odfpy's own."""
    document = OpenDocumentSpreadsheet()
    document.spreadsheet.addElement(Table(name="Turno 1"))
    out = io.BytesIO()
    document.save(out)
    with zipfile.ZipFile(out) as archive:
        parts = {name: archive.read(name) for name in archive.namelist()}
    content = parts["content.xml"]
    parts["content.xml"] = re.sub(rb"<table:table [^>]*/>|<table:table [^>]*>.*?</table:table>", lambda _m: tables,
                                  content, count=1, flags=re.S)
    parts.update(extra or {})
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        archive.writestr(zipfile.ZipInfo("mimetype"), parts.pop("mimetype"))  # stored, first
        for name, data in parts.items():
            archive.writestr(name, data, zipfile.ZIP_DEFLATED, compresslevel=9)
    return out.getvalue()


def _ods_table(name, rows):
    return b'<table:table table:name="%s">%s</table:table>' % (name.encode(), rows)


ODS_ROUND = (b'<table:table-row><table:table-cell office:value-type="string"><text:p>Tavolo</text:p>'
             b'</table:table-cell><table:table-cell office:value-type="string"><text:p>Nome</text:p>'
             b'</table:table-cell></table:table-row><table:table-row><table:table-cell office:value-type="float" '
             b'office:value="1"><text:p>1</text:p></table:table-cell><table:table-cell office:value-type="string">'
             b'<text:p>Mario Rossi</text:p></table:table-cell></table:table-row>')


def ods_many_sheets(sheets=400):
    """`sheets` sheets, each within the limits (5,000 rows of 200 texts: a million cells), 400 million cells
    in all."""
    return _ods_spelled(sheets)


def ods_huge_styles(count=1_500_000):
    """A round's sheet beside a styles.xml of `count` styles."""
    styles = (b'<?xml version="1.0" encoding="UTF-8"?><office:document-styles xmlns:office="urn:oasis:names:tc:'
              b'opendocument:xmlns:office:1.0" xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" '
              b'office:version="1.2"><office:styles>' + b'<style:style style:family="table-cell"/>' * count
              + b"</office:styles></office:document-styles>")
    return _ods_document(_ods_table("Turno 1", ODS_ROUND), {"styles.xml": styles})


def ods_huge_meta(count=1_500_000):
    """A round's sheet beside a meta.xml of `count` elements."""
    meta = (b'<?xml version="1.0" encoding="UTF-8"?><office:document-meta xmlns:office="urn:oasis:names:tc:'
            b'opendocument:xmlns:office:1.0" xmlns:meta="urn:oasis:names:tc:opendocument:xmlns:meta:1.0" '
            b'office:version="1.2"><office:meta>' + b'<meta:keyword>x</meta:keyword>' * count
            + b"</office:meta></office:document-meta>")
    return _ods_document(_ods_table("Turno 1", ODS_ROUND), {"meta.xml": meta})


BOMBS = {"declared huge sheet": declared_huge_sheet, "far away cell": far_away_cell, "many cells": many_cells,
         "huge shared strings": huge_shared_strings, "one huge string": one_huge_string,
         "ods repeated rows": ods_repeated_rows, "ods repeated cells": ods_repeated_cells,
         "sheet outside worksheets": sheet_outside_worksheets, "one part many sheets": one_part_many_sheets,
         "shared strings elsewhere": shared_strings_elsewhere, "huge styles": huge_styles,
         "xlsx many sheets": xlsx_many_sheets, "xlsx many written cells": xlsx_many_written_cells,
         "xls far cells": xls_far_cells, "xls many sheets": xls_many_sheets,
         "ods many sheets": ods_many_sheets}
READ = {"ods huge styles": ods_huge_styles, "ods huge meta": ods_huge_meta}   # read whole: nothing in them is read


# --- the largest files the limits let in, for the benchmark: each must be read within the budget too --------

def _xlsx_numbers(sheets, rows, columns):
    """`sheets` sheets of `rows` rows, each a number in its first and its `columns`-th column (filled in
    between by the reader) or, with `columns` negative, `-columns` numbers a row."""
    head = b'<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>'
    if columns > 0:
        last = get_column_letter(columns).encode()
        body = b"".join(b'<row r="%d"><c r="A%d"><v>1</v></c><c r="%s%d"><v>2</v></c></row>' % (r, r, last, r)
                        for r in range(1, rows + 1))
    else:
        cells = b"".join(b"<c><v>%d</v></c>" % c for c in range(-columns))
        body = b"".join(b'<row r="%d">%s</row>' % (r, cells) for r in range(1, rows + 1))
    return _xlsx_sheets(head + body + b"</sheetData></worksheet>", sheets)


def _ods_spelled(sheets):
    rows = (b'<table:table-row table:number-rows-repeated="5000"><table:table-cell office:value-type="string" '
            b'table:number-columns-repeated="200"><text:p>x</text:p></table:table-cell></table:table-row>')
    return _ods_document(b"".join(_ods_table(f"Turno {n}", rows) for n in range(1, sheets + 1)))


AT_THE_LIMITS = {
    "xlsx 3 sheets of 1,000,000 cells filled in": lambda: _xlsx_numbers(3, 10_000, 100),
    "xlsx 249,000 numbers in 3 sheets": lambda: _xlsx_numbers(3, 830, -100),
    "xlsx 30,000 cell formats": lambda: huge_styles(29_900),
    "ods 3 sheets of 1,000,000 cells spelled out": lambda: _ods_spelled(3),
    "xls 3 sheets of 3,900 by 256": lambda: xls_many_sheets(3),
}
