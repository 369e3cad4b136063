"""Every habit of a club's sheet, and GestioneTorneo's own workbook, in files the tests build: each one
imports with the standings `python -m scoring` gives on the games a person reads in it, or is refused
at the one sheet, row and column that stops it — never read wrong without a word."""
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.html import tr
from tests.transfer.workbooks.books import (club_habits, gestione_as_read, gestione_rounds, gestione_written,
                                            gestione_xls, gestione_xlsx, ods, scoring_standings, season_rounds, xls,
                                            xlsx)
from tests.transfer.workbooks.test_import_results import app_standings, import_file, refusal
from transfer.workbooks.club import FINAL, round_number
from transfer.workbooks.services import past_tournament_read

WRITERS = {"xlsx": xlsx, "xls": xls, "ods": ods}


def test_round_sheets_named_with_ordinals_roman_numerals_words_and_dates():
    names = ("T1", "T.2", "1", "Primo turno", "seconda serata", "I Turno", "Turno II", "III° turno",
             "Turno 1 - 06.03", "Turno 2 del 13-03", "3° Turno (20/03/2019)", "Finale", "Semifinale 1",
             "Classifica", "Iscritti", "Note", "2019")
    assert [round_number(n) for n in names] == [1, 2, 1, 1, 2, 1, 2, 3, 1, 2, 3, FINAL, FINAL,
                                                None, None, None, None]


@pytest.mark.parametrize("sheet_names", [("T1", "T2"), ("1", "2"), ("Primo turno", "Secondo turno"),
                                         ("I Turno", "II Turno"), ("Turno 1 - 06.03", "Turno 2 del 13-03")])
def test_every_round_of_sheets_named_the_ways_clubs_name_them_is_imported(sheet_names, organiser, tmp_path):
    sheets = club_habits(season_rounds(), sheet_names=sheet_names, words_in_cells=False, table_cells="{n}")
    tournament = import_file(tmp_path, "a.xlsx", xlsx(sheets))
    assert tournament.rounds.count() == 2
    assert app_standings(tournament, "conversione150") == scoring_standings(season_rounds(), "conversione150")


@pytest.mark.parametrize("kind", sorted(WRITERS))
@pytest.mark.parametrize("formula", ["conversione150", "standard", "spartaco", "millesimi"])
def test_a_sheet_with_every_habit_gives_the_standings_of_python_m_scoring(kind, formula, organiser, tmp_path):
    """"N°" and "P.ti tavolo" as headers, "Tavolo 1" as a table number, RISIKO, ELIM, "40 pt" and "2°" in the
    cells, a total under each table and at the bottom, a standings sheet beside the rounds."""
    sheets = club_habits(season_rounds(), sheet_names=("1° Turno", "2° Turno"), totals=True)
    tournament = import_file(tmp_path, f"a.{kind}", WRITERS[kind](sheets), formula=formula)
    assert app_standings(tournament, formula) == scoring_standings(season_rounds(), formula)


@pytest.mark.parametrize("table_cells", ["Tavolo {n}", "T{n}", "T.{n}", "{n}°"])
def test_table_numbers_written_as_words(table_cells, organiser, tmp_path):
    sheets = club_habits(season_rounds(), sheet_names=("Turno 1", "Turno 2"), table_cells=table_cells)
    tournament = import_file(tmp_path, "a.xlsx", xlsx(sheets))
    assert app_standings(tournament, "conversione150") == scoring_standings(season_rounds(), "conversione150")


def test_a_heading_row_above_each_table_and_the_header_again(organiser, tmp_path):
    sheets = club_habits(season_rounds(), sheet_names=("Turno 1", "Turno 2"), heading_rows=True,
                         repeated_header=True)
    tournament = import_file(tmp_path, "a.xlsx", xlsx(sheets))
    assert list(tournament.registrations.order_by("player__last_name").values_list(
        "player__last_name", flat=True)) == sorted(n.split()[1] for n, _c in
                                                  [(s["name"], 0) for s in season_rounds()[0][0] + season_rounds()[0][1]])
    assert app_standings(tournament, "conversione150") == scoring_standings(season_rounds(), "conversione150")


def test_totals_are_left_out_and_said_so_in_the_preview():
    sheets = club_habits(season_rounds(), sheet_names=("Turno 1", "Turno 2"), totals=True)
    past = past_tournament_read(data=xlsx(sheets), filename="a.xlsx")
    assert past.errors == []
    assert "Totale punti" not in [p.full_name for p in past.people.values()]
    assert len(past.people) == 8
    # a total under each of the two tables and one at the bottom, in each of the two rounds
    totals = [n for n in past.notes if n.endswith(tr("a total, left out"))]
    assert len(totals) == 6
    assert totals[0] == tr("sheet “%(sheet)s”, row %(row)d", sheet="Turno 1", row=7) + ": " + \
        tr("a total, left out")


def test_table_points_and_tournament_points_side_by_side_read_the_table_points(organiser, tmp_path):
    rounds = season_rounds()
    sheets = {}
    for number, tables in enumerate(rounds, start=1):
        rows = [["Tavolo", "Giocatore", "Club", "Punti", "PT", "Eliminato", "RisiKo", "Posto", "Penalità"]]
        for t, table in enumerate(tables, start=1):
            for s in table:
                rows.append([t, s["name"], s["club"] or None, 999, s["points"], s.get("eliminated"),
                             s.get("risiko"), s.get("place"), s.get("penalty")])
        sheets[f"Turno {number}"] = rows
    past = past_tournament_read(data=xlsx(sheets), filename="a.xlsx")
    assert past.notes[0] == tr("sheet “%(sheet)s”, row %(row)d", sheet="Turno 1", row=1) + ": " + tr(
        "the table points are read from column %(chosen)s (“%(title)s”), not from column %(other)s "
        "(“%(other_title)s”)", chosen="E", title="PT", other="D", other_title="Punti")
    tournament = import_file(tmp_path, "a.xlsx", xlsx(sheets))
    assert app_standings(tournament, "conversione150") == scoring_standings(rounds, "conversione150")


def test_a_sheet_laid_out_as_a_round_but_not_named_one_is_refused_by_name(organiser, tmp_path):
    sheets = club_habits(season_rounds(), sheet_names=("Turno 1", "Foglio2"), words_in_cells=False,
                         table_cells="{n}")
    assert refusal(tmp_path, "a.xlsx", xlsx(sheets)) == "a.xlsx: " + tr("sheet “%(sheet)s”", sheet="Foglio2") + \
        ": " + tr("the sheet has the columns of a round (Tavolo, Giocatore, Punti) but its name gives no round "
                  "number: name it “Turno N”, or remove it")


def test_a_final_that_is_not_the_standings_top_is_refused_by_name_never_ignored(organiser, tmp_path):
    """A "Finale" is imported as the final (test_sheet_habits.py); one whose players are not those the
    standings put there is refused at its sheet."""
    sheets = club_habits(season_rounds() + [season_rounds()[0][:1]], sheet_names=("Turno 1", "Turno 2", "Finale"),
                         words_in_cells=False, table_cells="{n}")
    message = refusal(tmp_path, "a.xlsx", xlsx(sheets))
    assert message.startswith("a.xlsx: " + tr("sheet “%(sheet)s”", sheet="Finale") + ": ")
    assert "(Tavolo, Giocatore, Punti)" not in message


def crosses_sheet():
    return {"Turno 1": [["Tavolo", "Giocatore", "Punti", "Eliminato"], [1, "Marco Rossi", 62, None],
                        [1, "Giulia Bianchi", 0, "x"], [1, "Luca Ferrari", 0, "x"], [1, "Sara Romano", 20, None]]}


def test_two_crosses_are_asked_for_their_order_only_when_the_formula_needs_it(organiser, tmp_path):
    past = past_tournament_read(data=xlsx(crosses_sheet()), filename="a.xlsx")
    assert past.errors == [] and len(past.notes) == 1      # the preview says the order is not written
    tournament = import_file(tmp_path, "a.xlsx", xlsx(crosses_sheet()), formula="punti_tavolo")
    assert app_standings(tournament, "punti_tavolo")["Marco Rossi"] == (1, 62)
    path = tmp_path / "b.xlsx"
    path.write_bytes(xlsx(crosses_sheet()))
    from django.core.management import call_command
    from django.core.management.base import CommandError
    with pytest.raises(CommandError) as refused:
        call_command("import_results", str(path), "--organiser", "olga", "--name", "B", "--date", "2019-10-12",
                     "--formula", "standard")
    assert str(refused.value).startswith("b.xlsx: " + tr("sheet “%(sheet)s”, row %(row)d, column %(column)s",
                                                         sheet="Turno 1", row=3, column="D (Eliminato)"))


# --- GestioneTorneo's own workbook ------------------------------------------------------------------

@pytest.mark.parametrize("writer, name", [(gestione_xls, "ModuloTorneo.xls"), (gestione_xlsx, "ModuloTorneo.xlsx")])
@pytest.mark.parametrize("formula", ["conversione150", "standard", "spartaco", "punti_tavolo"])
def test_gestionetorneos_own_workbook_gives_the_standings_of_python_m_scoring(writer, name, formula, organiser,
                                                                               tmp_path):
    """The template's 300 pre-written IDs, the header on row 3, the rounds in pairs of rows with the
    club under each name: read whole, 100 as the RisiKo!, 0 as the one player out, 55.01 and 55 as level
    on 55 placed in that order."""
    data = writer(gestione_written(gestione_rounds()))
    tournament = import_file(tmp_path, name, data, formula=formula)
    assert tournament.registrations.count() == 8
    assert app_standings(tournament, formula) == scoring_standings(gestione_as_read(gestione_rounds()), formula)


def test_gestionetorneos_clubs_and_national_ids_come_with_the_members(organiser):
    data = gestione_xls(gestione_written(gestione_rounds(), national_ids={"Marco Rossi": "IT-42"}))
    past = past_tournament_read(data=data, filename="ModuloTorneo.xls")
    assert past.errors == []
    people = {p.full_name: (p.club, p.national_id) for p in past.people.values()}
    assert people["Marco Rossi"] == ("Club Lariano", "IT-42")
    assert people["Chiara Ricci"] == ("", "")
    assert any(n.endswith(tr("table %(table)d: 100 points read as a RisiKo!", table=1)) for n in past.notes)


# --- every mix of the habits: the games read are the games written ----------------------------------

NAME_STYLES = [("Turno 1", "Turno 2"), ("T1", "T2"), ("1", "2"), ("Primo turno", "Secondo turno"),
               ("I Turno", "II Turno"), ("Turno 1 - 06.03", "Turno 2 del 13-03"), ("1° Turno", "2° Turno")]


def games_written(rounds):
    return [[sorted((s["name"], None if s.get("risiko") else float(s["points"] or 0), s.get("eliminated"),
                     bool(s.get("risiko")), s.get("place"), float(s.get("penalty") or 0)) for s in table)
             for table in tables] for tables in rounds]


def games_read(past):
    return [[sorted((past.people[s.person].full_name, None if s.risiko else float(s.table_points), s.eliminated,
                     s.risiko, s.place, float(s.penalty)) for s in table.seats) for table in rnd.tables]
            for rnd in past.rounds]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(names=st.sampled_from(NAME_STYLES), table_cells=st.sampled_from(["{n}", "Tavolo {n}", "T{n}", "{n}°"]),
       heading_rows=st.booleans(), repeated_header=st.booleans(), totals=st.booleans(), words=st.booleans(),
       kind=st.sampled_from(sorted(WRITERS)))
def test_any_mix_of_the_habits_reads_the_games_as_written(names, table_cells, heading_rows, repeated_header, totals,
                                                          words, kind):
    sheets = club_habits(season_rounds(), sheet_names=names, table_cells=table_cells, heading_rows=heading_rows,
                         repeated_header=repeated_header, totals=totals, words_in_cells=words)
    past = past_tournament_read(data=WRITERS[kind](sheets), filename=f"a.{kind}")
    assert past.errors == []
    assert games_read(past) == games_written(season_rounds())


def test_gestionetorneos_members_typed_in_capitals_are_stored_as_people_write_them(organiser):
    sheets = gestione_written(gestione_rounds())
    sheets["Iscritti"][3][1:3] = ["MARCO", "DE ROSSI"]
    past = past_tournament_read(data=gestione_xlsx(sheets), filename="ModuloTorneo.xlsx")
    assert past.errors == []
    assert "Marco De Rossi" in [p.full_name for p in past.people.values()]
