"""`import_results`: a workbook or CSV file becomes one finished tournament, through the services, whose
standings under every formula are those `python -m scoring` gives on the same games; bad input exits 2
with one line naming the sheet, row and column, and writes nothing."""
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from tournaments.models import Formula
from scoring.formulas import get_formula
from scoring.numeric import as_float_for
from tables.models import Penalty, Round, Table
from tables.standings.selectors import standings_are_final, tournament_standings
from tests.html import tr
from tests.transfer.workbooks.books import (CLUB_HEADERS, club_rows, csv_bytes, gestione_sheets, ods,
                                            scoring_standings, season_rounds, xls, xlsx)
from transfer.management.commands.import_results import Command
from tournaments.models import AuditLog, Player, Tournament


def app_standings(tournament, formula):
    as_float = as_float_for(get_formula(formula).decimals)   # millesimi: 3 decimals (SCORING.md 13.4)
    return {row.player.full_name: (row.rank, as_float(row.total))
            for row in tournament_standings(tournament, formula=formula).rows}


def import_file(tmp_path, name, data, *extra, formula="conversione150"):
    path = tmp_path / name
    path.write_bytes(data)
    call_command("import_results", str(path), "--organiser", "olga", "--name", "Torneo d'autunno",
                 "--date", "2019-10-12", "--formula", formula, *extra)
    return Tournament.objects.get(name="Torneo d'autunno")


def refusal(tmp_path, name, data):
    """The command's one line for a file it refuses, checking that nothing was written."""
    before = (Tournament.objects.count(), Player.all_players.count(), AuditLog.objects.count())
    path = tmp_path / name
    if data is not None:
        path.write_bytes(data)
    with pytest.raises(CommandError) as caught:
        call_command("import_results", str(path), "--organiser", "olga", "--name", "X", "--date", "2019-10-12",
                     "--formula", "conversione150")
    assert caught.value.returncode == 2
    assert (Tournament.objects.count(), Player.all_players.count(), AuditLog.objects.count()) == before
    message = str(caught.value)
    assert "\n" not in message
    return message


@pytest.mark.parametrize("formula", sorted(Formula.values))   # those a tournament may choose
def test_a_club_sheet_gives_the_standings_of_python_m_scoring(formula, organiser, tmp_path):
    tournament = import_file(tmp_path, "autunno.xlsx", xlsx(club_rows(season_rounds())), formula=formula)
    assert app_standings(tournament, formula) == scoring_standings(season_rounds(), formula)


@pytest.mark.parametrize("formula", ["conversione150", "standard", "spartaco", "medagliere"])
def test_a_gestionetorneo_workbook_gives_the_standings_of_python_m_scoring(formula, organiser, tmp_path):
    tournament = import_file(tmp_path, "ModuloTorneo.xlsx", xlsx(gestione_sheets(season_rounds())), formula=formula)
    assert app_standings(tournament, formula) == scoring_standings(season_rounds(), formula)


def test_the_tournament_is_finished_published_on_demand_and_logged(organiser, tmp_path):
    tournament = import_file(tmp_path, "autunno.xlsx", xlsx(club_rows(season_rounds())), "--published")
    assert tournament.published and tournament.organiser == organiser
    assert list(tournament.rounds.values_list("number", "status")) == [(1, "closed"), (2, "closed")]
    assert Table.objects.filter(round__tournament=tournament, reported_at__isnull=True).count() == 0
    assert not Round.objects.filter(tournament=tournament, standings_published_at__isnull=True).exists()
    assert standings_are_final(tournament)
    assert tournament.registrations.count() == 8
    penalty = Penalty.objects.get(tournament=tournament)
    assert (penalty.points, penalty.seat.registration.player.full_name) == (5, "Elena Gallo")
    actions = set(AuditLog.objects.filter(tournament=tournament).values_list("action", flat=True))
    assert {"tournament.create", "registration.add", "round.draw", "result.enter", "round.close",
            "standings.publish", "penalty.points", "tournament.import_workbook"} <= actions


def test_an_old_xls_an_ods_and_a_csv_come_in_as_the_xlsx_does(organiser, tmp_path):
    sheets = club_rows(season_rounds())
    expected = scoring_standings(season_rounds(), "conversione150")
    for name, data in (("a.xls", xls(sheets)), ("b.ods", ods(sheets))):
        tournament = import_file(tmp_path, name, data)
        assert app_standings(tournament, "conversione150") == expected
        tournament.name = f"done {name}"
        tournament.save()
    # A CSV holds one sheet: the round in a column "Turno", decimals with a comma, Windows' encoding.
    rows = [["Turno"] + CLUB_HEADERS] + [[n] + row for n, sheet in enumerate(sheets.values(), start=1)
                                         for row in sheet[1:]]
    tournament = import_file(tmp_path, "c.csv", csv_bytes(rows, encoding="cp1252"))
    assert app_standings(tournament, "conversione150") == expected


def test_columns_come_in_any_order_case_and_accents_aside(organiser, tmp_path):
    written = {"Tavolo": "Tàvolo", "Giocatore": "GIOCATORE", "Club": "club", "Punti tavolo": "punti  TAVOLO",
               "Eliminato": " eliminato ", "RisiKo": "Risiko!", "Posto": "posto", "Penalità": "PENALITA"}
    order = list(reversed(CLUB_HEADERS))
    sheets = {}
    for title, (name, rows) in zip(("1° Turno", "Serata 2"), club_rows(season_rounds()).items()):
        sheets[title] = [[written[h] for h in order] + ["Note"]] + [
            [row[CLUB_HEADERS.index(h)] for h in order] + ["ok"] for row in rows[1:]]
    sheets["Classifica"] = [["Pos", "Nome"], [1, "Marco Rossi"]]
    tournament = import_file(tmp_path, "x.xlsx", xlsx(sheets))
    assert app_standings(tournament, "conversione150") == scoring_standings(season_rounds(), "conversione150")


# --- refusals: one line, the sheet, row and column, nothing written -------------------------------

def test_a_missing_column_is_named(organiser, tmp_path):
    sheets = club_rows(season_rounds(), headers=["Tavolo", "Giocatore", "Club", "Eliminato"])
    assert refusal(tmp_path, "x.xlsx", xlsx(sheets)) == "x.xlsx: " + tr(
        "sheet “%(sheet)s”, row %(row)d", sheet="Turno 1", row=1) + ": " + tr(
        "the column %(column)s is missing", column="Punti tavolo")


def test_a_name_twice_in_a_round_is_refused_at_its_second_row(organiser, tmp_path):
    rounds = season_rounds()
    rounds[1][1][3]["name"] = "Marco Rossi"       # already at table 1 of round 2
    rounds[1][1][3]["club"] = "Club Lariano"
    message = refusal(tmp_path, "x.xlsx", xlsx(club_rows(rounds)))
    assert message == "x.xlsx: " + tr("sheet “%(sheet)s”, row %(row)d, column %(column)s", sheet="Turno 2", row=9,
                                      column="B (Giocatore)") + ": " + tr(
        "%(name)s is named twice in round %(round)d (also row %(row)d)", name="Marco Rossi", round=2, row=2)


def test_table_points_that_are_not_a_number_are_refused_at_their_cell(organiser, tmp_path):
    rounds = season_rounds()
    rounds[0][0][1]["points"] = "quaranta"
    assert refusal(tmp_path, "x.xlsx", xlsx(club_rows(rounds))) == "x.xlsx: " + tr(
        "sheet “%(sheet)s”, row %(row)d, column %(column)s", sheet="Turno 1", row=3, column="D (Punti tavolo)") + \
        ": " + tr("“%(value)s” is not a number", value="quaranta")


def test_a_table_breaking_the_rules_of_scoring_is_refused_by_the_engine(organiser, tmp_path):
    rounds = season_rounds()
    rounds[0][0][3]["points"] = 10                # eliminated, yet holding table points
    message = refusal(tmp_path, "x.xlsx", xlsx(club_rows(rounds)))
    assert message == "x.xlsx: " + tr("sheet “%(sheet)s”, row %(row)d, column %(column)s", sheet="Turno 1", row=5,
                                      column="D (Punti tavolo)") + ": Sara Romano: " + tr(
        "eliminated players hold 0 table points")


def test_two_risiko_at_one_table_are_refused(organiser, tmp_path):
    rounds = season_rounds()
    rounds[0][0][1]["risiko"] = "x"
    assert refusal(tmp_path, "x.xlsx", xlsx(club_rows(rounds))).endswith(
        "Giulia Bianchi: " + tr("only one player per table can make RisiKo!"))


def test_a_file_that_is_not_a_workbook_is_named_so(organiser, tmp_path):
    expected = tr("This file is not a workbook: open it and save it as .xlsx, .xls, .ods or .csv.")
    assert refusal(tmp_path, "foto.xlsx", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR") == f"foto.xlsx: {expected}"
    assert refusal(tmp_path, "lettera.xls", b"Caro segretario, ecco i risultati") == f"lettera.xls: {expected}"
    assert refusal(tmp_path, "finto.xlsx", b"PK\x03\x04 not really a zip") == f"finto.xlsx: {expected}"


def test_a_missing_file_is_named(organiser, tmp_path):
    message = refusal(tmp_path, "manca.xlsx", None)
    assert message.startswith(tr("cannot read %(path)s: %(error)s", path=tmp_path / "manca.xlsx", error=""))


def test_the_command_line_exits_2_with_one_line_on_stderr(organiser, tmp_path, capsys, monkeypatch):
    # run_from_argv closes the database connections when it ends: the test's own is kept open
    monkeypatch.setattr("django.db.connections.close_all", lambda: None)
    path = tmp_path / "x.xlsx"
    rounds = season_rounds()
    rounds[0][0][1]["points"] = "quaranta"
    path.write_bytes(xlsx(club_rows(rounds)))
    with pytest.raises(SystemExit) as exit_:
        Command().run_from_argv(["manage.py", "import_results", str(path), "--organiser", "olga", "--name", "X",
                                 "--date", "2019-10-12", "--formula", "standard"])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Turno 1" in err and "D (Punti tavolo)" in err
    assert not Tournament.objects.filter(name="X").exists()


def test_the_organiser_and_the_settings_are_checked(organiser, arbiter, tmp_path):
    path = tmp_path / "x.xlsx"
    path.write_bytes(xlsx(club_rows(season_rounds())))
    for extra, start in ((["--organiser", "arturo"], "--organiser arturo"), (["--formula", "conversione300"], "--formula"),
                         (["--date", "12/10/2019"], "--date")):
        args = {"--organiser": "olga", "--formula": "standard", "--date": "2019-10-12", "--name": "X"}
        args[extra[0]] = extra[1]
        with pytest.raises(CommandError) as caught:
            call_command("import_results", str(path), *[v for pair in args.items() for v in pair])
        assert caught.value.returncode == 2 and str(caught.value).startswith(start)
    assert not Tournament.objects.filter(name="X").exists()


def test_a_file_is_never_half_imported(organiser, tmp_path):
    """A refusal in the last round leaves no tournament, player or log entry of the rounds before it."""
    rounds = season_rounds()
    rounds[1][1][0]["points"] = 250
    message = refusal(tmp_path, "x.xlsx", xlsx(club_rows(rounds)))
    assert "Turno 2" in message and tr("table points cannot exceed 200") in message


def test_the_engine_messages_are_italian_by_default(organiser, tmp_path, settings):
    settings.LANGUAGE_CODE = "it"
    rounds = season_rounds()
    rounds[0][0][1]["points"] = "quaranta"
    assert refusal(tmp_path, "x.xlsx", xlsx(club_rows(rounds))) == "x.xlsx: " + tr(
        "sheet “%(sheet)s”, row %(row)d, column %(column)s", lang="it", sheet="Turno 1", row=3,
        column="D (Punti tavolo)") + ": " + tr("“%(value)s” is not a number", lang="it", value="quaranta")


def test_sample_files_are_small(tmp_path):
    assert len(xlsx(club_rows(season_rounds()))) < 20_000 and Path(tmp_path).exists()
