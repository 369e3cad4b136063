"""The readers take the sheets as people write them: titles above the header, the table number on a
table's first row only (merged cells), names in one column or two, surname first, a cross for the one
player out, GestioneTorneo's blocks side by side or one row a player."""
from decimal import Decimal

from tests.html import tr
from tests.transfer.workbooks.books import xlsx
from transfer.workbooks.club import round_number
from transfer.workbooks.services import past_tournament_check, past_tournament_read


def read(sheets):
    return past_tournament_read(data=xlsx(sheets), filename="x.xlsx")


def table_of(past, round_index=0, table_index=0):
    table = past.rounds[round_index].tables[table_index]
    return [(past.people[s.person].full_name, s.table_points, s.eliminated, s.risiko, s.place) for s in table.seats]


def test_round_sheets_are_found_by_their_names():
    assert [round_number(n) for n in ("Turno 1", "1° Turno", "2^ turno", "Serata 3", "TURNO N. 4", "3a serata",
                                      "Classifica", "Iscritti", "Turno")] == [1, 1, 2, 3, 4, 3, None, None, None]


def test_a_title_above_the_header_merged_table_numbers_and_a_cross_for_the_one_out():
    past = read({"Turno 1": [
        ["Torneo sociale — serata del 12 marzo"], [],
        ["Tav.", "Nome", "Cognome", "Club", "PT", "Elim.", "RisiKo"],
        [1, "Marco", "Rossi", "Lariano", 62, None, None],
        [None, "Giulia", "Bianchi", None, 48, None, None],
        [None, "Luca", "Ferrari", None, None, "x", None],
        [None, "Sara", "Romano", None, "30,5", None, None],
        [None, None, None, None, "=SOMMA", None, None],
    ]})
    assert past.errors == []
    assert table_of(past) == [("Marco Rossi", 62, None, False, None), ("Giulia Bianchi", 48, None, False, None),
                              ("Luca Ferrari", 0, 1, False, None), ("Sara Romano", Decimal("30.5"), None, False, None)]


def test_two_crosses_at_a_table_ask_for_the_order_when_the_formula_scores_it(organiser):
    past = read({"Turno 1": [["Tavolo", "Giocatore", "Punti", "Eliminato"], [1, "Marco Rossi", 62, None],
                             [1, "Giulia Bianchi", 0, "sì"], [1, "Luca Ferrari", 0, "x"], [1, "Sara Romano", 20, None]]})
    assert past.errors == []
    past_tournament_check(past, user=organiser, formula="standard")
    assert [str(e) for e in past.errors] == [
        tr("sheet “%(sheet)s”, row %(row)d, column %(column)s", sheet="Turno 1", row=row, column="D (Eliminato)")
        + ": " + tr("write the order of elimination (1 for the first out, then 2...), not a cross: this formula "
                    "scores the players out by their order") for row in (3, 4)]


def test_a_column_surname_first_reads_the_names_that_way():
    past = read({"Turno 1": [["Tavolo", "Cognome e nome", "Punti"], [1, "De Luca Valentina", 50],
                             [1, "Rossi Marco", 40], [1, "Bianchi Giulia", 30]]})
    assert [(p.first_name, p.last_name) for p in past.people.values()] == [
        ("Valentina", "De Luca"), ("Marco", "Rossi"), ("Giulia", "Bianchi")]


def test_a_table_without_a_number_is_refused_at_its_cell():
    past = read({"Turno 1": [["Tavolo", "Giocatore", "Punti"], [None, "Marco Rossi", 50]]})
    assert [str(e) for e in past.errors] == [
        tr("sheet “%(sheet)s”, row %(row)d, column %(column)s", sheet="Turno 1", row=2, column="A (Tavolo)") + ": "
        + tr("which table? The row has no table number")]


def test_a_table_of_two_breaks_the_rules_of_scoring():
    past = read({"Turno 1": [["Tavolo", "Giocatore", "Punti"], [1, "Marco Rossi", 50], [1, "Giulia Bianchi", 40]]})
    assert len(past.errors) == 1 and str(past.errors[0]).startswith(
        tr("sheet “%(sheet)s”, row %(row)d, column %(column)s", sheet="Turno 1", row=2, column="A (Tavolo)"))


def test_gestionetorneo_blocks_side_by_side_names_looked_up_in_iscritti():
    past = read({
        "Iscritti": [["ID", "Nome", "Cognome", "Nickname", "Club", "ID NAZIONALE"], [1, "Marco", "Rossi", "Generale", "A", 101],
                     [2, "Giulia", "Bianchi", None, "B", None], [3, "Luca", "Ferrari", None, "A", None],
                     [4, "Sara", "Romano", None, None, None], [5, "Elena", "Gallo", None, None, None],
                     [6, "Mai", "Giocato", None, None, None]],
        "1° Turno": [["Tavolo N°1", None, None, None, None, "Tavolo N°2"],
                     ["1 - Marco Rossi", "Bianchi Giulia", 3, None, None, "Generale"],
                     [62, 40, 0, None, None, 70]],
    })
    # Marco Rossi at two tables of one round: refused at the second block's cell.
    assert [str(e) for e in past.errors] == [
        tr("sheet “%(sheet)s”, row %(row)d, column %(column)s", sheet="1° Turno", row=2, column="F") + ": " + tr(
            "%(name)s is named twice in round %(round)d (also row %(row)d)", name="Marco Rossi", round=1, row=2)]
    assert "Mai Giocato" not in [p.full_name for p in past.people.values()]
    assert past.people[past.rounds[0].tables[0].seats[0].person].national_id == "101"


def test_a_gestionetorneo_block_of_one_row_a_player():
    past = read({
        "Iscritti": [["ID", "Nome", "Cognome"], [1, "Marco", "Rossi"], [2, "Giulia", "Bianchi"], [3, "Luca", "Ferrari"]],
        "1° Turno": [["Tavolo N°1"], ["ID", "Giocatore", "Punti", "RisiKo"], [1, "Marco Rossi", 90, "sì"],
                     [2, "Giulia Bianchi", 20, None], [3, "Luca Ferrari", 10, None]],
    })
    assert past.errors == []
    assert table_of(past) == [("Marco Rossi", 90, None, True, None), ("Giulia Bianchi", 20, None, False, None),
                              ("Luca Ferrari", 10, None, False, None)]


def test_a_gestionetorneo_id_not_in_iscritti_is_named():
    past = read({"Iscritti": [["ID", "Nome", "Cognome"], [1, "Marco", "Rossi"]],
                 "1° Turno": [["Tavolo N°1"], ["ID", 1, 9], ["Punti", 50, 40]]})
    assert str(past.errors[0]) == tr("sheet “%(sheet)s”, row %(row)d, column %(column)s", sheet="1° Turno", row=2,
                                     column="C (ID)") + ": " + tr("“%(value)s” is not in the sheet Iscritti", value="9")
