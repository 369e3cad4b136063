"""A club's past seasons in and out as workbooks: a club's sheets (one sheet a round, one row a player) and
GestioneTorneo's layout (the "Iscritti" sheet and "Tavolo N°k" blocks), read from .xlsx, .xls, .ods or a
CSV file and imported through the services; any tournament written back as a workbook of either layout.

- `book.py` reads a file into plain sheets of cell values (openpyxl, xlrd, odfpy, csv);
- `model.py` is what a workbook holds once read, each value with the cell it came from;
- `club.py` and `gestione.py` read the two layouts, `checks.py` checks every table with the scoring
  engine and matches every name with the known players;
- `services.py` imports one tournament or a season in one transaction; `export.py` writes them back.
"""
