"""More habits of club sheets: headings written short with a dot, columns the reader does not know named
in the preview, totals however they are written, a long preamble of rules, formulas saved without their
values, hidden drafts. Each case is read as written, or refused at its cell."""
import io

import openpyxl
import pytest

from tests.html import tr
from tests.transfer.workbooks.books import scoring_standings, season_rounds, xlsx
from tests.transfer.workbooks.test_habits import games_read, games_written
from tests.transfer.workbooks.test_import_results import app_standings, import_file
from transfer.workbooks.club import header_alias
from transfer.workbooks.model import Cell, WorkbookError
from transfer.workbooks.services import past_tournament_read

SHORT = ["Tav.", "Giocatore", "Club", "P.ti tav.", "Elim.", "RisiKo", "Pos.", "Pen."]
FIELDS = ["table", "name", "club", "points", "eliminated", "risiko", "place", "penalty"]


def rows_of(tables, headers=SHORT, fields=FIELDS):
    rows = [list(headers)]
    for t, table in enumerate(tables, start=1):
        for s in table:
            values = {**s, "table": t}
            rows.append([values.get(f) for f in fields])
    return rows


def sheets_of(rounds, **kwargs):
    return {f"Turno {n}": rows_of(tables, **kwargs) for n, tables in enumerate(rounds, start=1)}


@pytest.mark.parametrize("written, alias", [("Pen.", "penalty"), ("P.ti tav.", "ptitavolo"), ("Elim.", "elim"),
                                            ("Pos.", "pos"), ("Penaliz.", "penalizzazione"),
                                            ("Posiz.", "posizione"), ("Punt. tav.", "puntitavolo"),
                                            ("Pt. tot.", ""), ("Tot.", ""), ("Pen", ""), ("Note", "")])
def test_a_heading_written_short_with_a_dot(written, alias):
    assert header_alias(written) == alias


def test_headings_written_short_keep_the_penalties_in_the_totals(organiser, tmp_path):
    tournament = import_file(tmp_path, "a.xlsx", xlsx(sheets_of(season_rounds())))
    assert tournament.penalties.count() == 1
    assert app_standings(tournament, "conversione150") == scoring_standings(season_rounds(), "conversione150")


def test_a_column_with_a_heading_not_read_is_named_in_the_preview():
    sheets = sheets_of(season_rounds(), headers=SHORT + ["Note", "Pen"], fields=FIELDS + ["note", "penalty"])
    past = past_tournament_read(data=xlsx(sheets), filename="a.xlsx")
    assert past.errors == []
    for column, title in (("I", "Note"), ("J", "Pen")):
        cell = Cell("Turno 1", 1, column, title)
        assert f"{cell}: {tr('the column is not read: Torneo does not know its heading')}" in past.notes


def test_a_second_column_of_penalties_is_named_as_not_read():
    sheets = sheets_of(season_rounds(), headers=SHORT + ["Penalità"], fields=FIELDS + ["penalty"])
    past = past_tournament_read(data=xlsx(sheets), filename="a.xlsx")
    assert past.errors == []
    cell = Cell("Turno 1", 1, "H", "Pen.")     # the heading written whole is preferred
    message = tr("the column is not read: column %(chosen)s gives the %(field)s", chosen="I", field="Penalità")
    assert f"{cell}: {message}" in past.notes


def plain_rounds():
    """The games without a place column: no level to settle."""
    return [[[{k: v for k, v in s.items() if k != "place"} for s in table] for table in tables]
            for tables in season_rounds()]


@pytest.mark.parametrize("label", ["Totale punti", "Punti totali", "TOTALE PUNTI TAVOLO", "Tot. punti", "Somma",
                                   "Punteggio complessivo"])
@pytest.mark.parametrize("column", [0, 1])
def test_a_total_below_the_tables_in_a_sheet_without_a_place_column(label, column):
    rounds = plain_rounds()
    rounds[0][1][1]["points"] = 54      # no level at the table: no place needed
    headers, fields = ["Tavolo", "Giocatore", "Club", "Punti tavolo"], ["table", "name", "club", "points"]
    sheets = sheets_of(rounds, headers=headers, fields=fields)
    for rows in sheets.values():
        total = [None, None, None, 400]
        total[column] = label
        rows.append(total)
    past = past_tournament_read(data=xlsx(sheets), filename="a.xlsx")
    assert past.errors == []
    expected = [[[{**s, "eliminated": None, "risiko": None, "penalty": None} for s in table] for table in tables]
                for tables in rounds]
    assert [[[row[:2] for row in table] for table in rnd] for rnd in games_read(past)] == \
        [[[row[:2] for row in table] for table in rnd] for rnd in games_written(expected)]


def test_a_preamble_of_rules_longer_than_15_rows_above_the_header(organiser, tmp_path):
    sheets = sheets_of(season_rounds())
    for rows in sheets.values():
        rows[:0] = [[f"Regola {n}: ogni tavolo gioca due ore."] for n in range(1, 41)]
    tournament = import_file(tmp_path, "a.xlsx", xlsx(sheets))
    assert app_standings(tournament, "conversione150") == scoring_standings(season_rounds(), "conversione150")


def test_simple_formulas_saved_without_their_values_are_computed(organiser, tmp_path):
    """openpyxl, like some programs, saves a formula without its value: =30+15 is 45."""
    sheets = sheets_of(season_rounds())
    sheets["Turno 1"][3][3] = "=20+10"      # Luca Ferrari's 30
    sheets["Turno 2"][8][3] = "=(51/2)"     # Elena Gallo's 25.5
    tournament = import_file(tmp_path, "a.xlsx", xlsx(sheets))
    assert app_standings(tournament, "conversione150") == scoring_standings(season_rounds(), "conversione150")


def test_another_formula_saved_without_its_value_is_refused_at_its_cell():
    sheets = sheets_of(season_rounds())
    sheets["Turno 2"][3][3] = "=SUM(D1:D2)"
    past = past_tournament_read(data=xlsx(sheets), filename="a.xlsx")
    assert [str(e) for e in past.errors] == [str(WorkbookError(tr(
        "the cell holds the formula “%(formula)s” and not its value: open the file in Excel or LibreOffice and save "
        "it again (only simple arithmetic such as =30+15 is computed here)", formula="=SUM(D1:D2)"),
        Cell("Turno 2", 4, "D", "P.ti tav.")))]


def test_a_formula_in_a_name_saved_without_its_value_is_refused_at_its_cell():
    sheets = sheets_of(season_rounds())
    sheets["Turno 1"][2][1] = "=Iscritti!B2"
    past = past_tournament_read(data=xlsx(sheets), filename="a.xlsx")
    assert [e.cell for e in past.errors] == [Cell("Turno 1", 3, "B", "Giocatore")]


def hidden_xlsx(sheets, hidden):
    data = xlsx(sheets)
    book = openpyxl.load_workbook(io.BytesIO(data))
    for name in hidden:
        book[name].sheet_state = "hidden"
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


@pytest.mark.parametrize("draft", ["Turno 1 vecchio", "Turno 3"])
def test_a_hidden_draft_beside_the_real_round_is_left_out_and_named(draft):
    sheets = sheets_of(season_rounds())
    sheets[draft] = rows_of(season_rounds()[1][::-1])
    past = past_tournament_read(data=hidden_xlsx(sheets, [draft]), filename="a.xlsx")
    assert past.errors == []
    assert games_read(past) == games_written(season_rounds())
    assert f"{Cell(draft)}: {tr('the sheet is hidden: left out (show it in the workbook to import it)')}" in past.notes


# --- a "Finale" sheet: the tournament's final ---------------------------------------------------------

def top_four():
    standings = scoring_standings(season_rounds(), "conversione150")
    ranked = sorted(standings, key=lambda name: standings[name][0])
    assert len({standings[name][0] for name in ranked[:5]}) == 5     # no level around the cut
    return ranked[:4], ranked[4]


def final_sheet(names):
    return [["Giocatore", "Punti tavolo"]] + [[name, points] for name, points in zip(names, (60, 40, 25, 10))]


def test_a_finale_sheet_is_imported_as_the_final(organiser, tmp_path):
    from tables.standings.selectors import final_standings

    finalists, _fifth = top_four()
    finalists = finalists[::-1]          # the last qualified wins the final
    sheets = {**sheets_of(season_rounds()), "Finale": final_sheet(finalists)}
    tournament = import_file(tmp_path, "a.xlsx", xlsx(sheets))
    assert [(r.number, r.phase.kind) for r in tournament.rounds.order_by("number")] == [
        (1, "qualifying"), (2, "qualifying"), (3, "final")]
    assert [row.registration.player.full_name for row in final_standings(tournament).rows[:4]] == finalists


def test_a_finale_that_is_not_the_top_of_the_standings_is_refused_at_its_sheet(organiser, tmp_path):
    from tests.transfer.workbooks.test_import_results import refusal

    finalists, fifth = top_four()
    sheets = {**sheets_of(season_rounds()), "Finale": final_sheet(finalists[:3] + [fifth])}
    message = refusal(tmp_path, "a.xlsx", xlsx(sheets))
    assert message.startswith(f"a.xlsx: {Cell('Finale')}: ")


def test_a_semifinale_sheet_is_still_refused_by_name():
    finalists, _fifth = top_four()
    sheets = {**sheets_of(season_rounds()), "Semifinale": final_sheet(finalists)}
    past = past_tournament_read(data=xlsx(sheets), filename="a.xlsx")
    assert [e.cell for e in past.errors] == [Cell("Semifinale")]
