"""GestioneTorneo's workbook read by the type its sheet TORNEO names (D5): a Torneo Gufo's players out
written as negative points, and national IDs that are no ID (0, blank, a placeholder) left out."""
import pytest

from tests.html import tr
from tests.transfer.workbooks.books import (PLAYERS, gestione_rounds, gestione_written, gestione_xls, gestione_xlsx,
                                            scoring_standings, seat, xlsx)
from tests.transfer.workbooks.test_import_results import app_standings, import_file, refusal
from transfer.workbooks import values
from transfer.workbooks.model import Cell
from transfer.workbooks.services import past_tournament_read


def gufo_rounds():
    """A Torneo Gufo as GestioneTorneo writes it: the players out at -1, -2..."""
    p = [name for name, _club in PLAYERS]
    return [
        [[seat(p[0], 70), seat(p[1], 40), seat(p[2], -2), seat(p[3], -1)],
         [seat(p[4], 55), seat(p[5], 30), seat(p[6], 20), seat(p[7], -1)]],
        [[seat(p[0], 33), seat(p[4], 61), seat(p[6], 20), seat(p[3], 44)],
         [seat(p[1], 90), seat(p[5], -2), seat(p[2], -1), seat(p[7], -3)]],
    ]


def as_read(rounds):
    """The same games as Torneo keeps them: the players out at 0 points, -1 the last of them out, as
    GestioneTorneo's own scoring places them (-1 above -2)."""
    def out(table):
        return sum(1 for s in table if s["points"] < 0)
    return [[[{**s, "points": 0, "eliminated": out(table) + 1 + s["points"]} if s["points"] < 0 else s
              for s in table] for table in tables] for tables in rounds]


@pytest.mark.parametrize("kind", ["Torneo Gufo", "TorneoGufo", "Torneo a Squadre"])
def test_a_torneo_gufos_negative_points_are_the_order_of_elimination(kind):
    past = past_tournament_read(data=gestione_xlsx(gestione_written(gufo_rounds(), kind=kind)),
                                filename="ModuloTorneo.xlsx")
    assert past.errors == []
    assert past.kind == "gufo"
    read = {(rnd.number, past.people[s.person].full_name): (float(s.table_points), s.eliminated)
            for rnd, _table, s in past.seats()}
    assert read[(1, "Luca Ferrari")] == (0.0, 1)     # -2: out first
    assert read[(1, "Sara Romano")] == (0.0, 2)      # -1: out last
    assert read[(2, "Elena Gallo")] == (0.0, 1)      # -3 of three out
    assert read[(2, "Sara Romano")] == (44.0, None)


def test_a_torneo_gufo_imports_with_the_standings_of_python_m_scoring(organiser, tmp_path):
    data = gestione_xls(gestione_written(gufo_rounds(), kind="Torneo Gufo"))
    tournament = import_file(tmp_path, "ModuloTorneo.xls", data, formula="standard")
    assert app_standings(tournament, "standard") == scoring_standings(as_read(gufo_rounds()), "standard")


def test_a_torneo_gufo_table_with_its_players_out_numbered_wrong_is_refused_at_its_head():
    rounds = gufo_rounds()
    rounds[0][0][2]["points"] = -1          # two players at -1
    past = past_tournament_read(data=gestione_xlsx(gestione_written(rounds, kind="Torneo Gufo")),
                                filename="ModuloTorneo.xlsx")
    assert [e.cell for e in past.errors] == [Cell("1° Turno", 1, "A", "Tavolo N°1")]


@pytest.mark.parametrize("kind", ["Torneo Open", None])
def test_negative_points_in_a_file_of_another_type_are_refused_at_their_cell(kind, organiser, tmp_path):
    message = refusal(tmp_path, "ModuloTorneo.xlsx", gestione_xlsx(gestione_written(gufo_rounds(), kind=kind)))
    where = tr("sheet “%(sheet)s”, row %(row)d, column %(column)s", sheet="1° Turno", row=2, column="I (Punti)")
    assert message.startswith(f"ModuloTorneo.xlsx: {where}: ")


def test_a_torneo_gufo_refuses_a_negative_that_is_no_order():
    rounds = gufo_rounds()
    rounds[0][0][3]["points"] = -1.5
    past = past_tournament_read(data=gestione_xlsx(gestione_written(rounds, kind="Torneo Gufo")),
                                filename="ModuloTorneo.xlsx")
    assert [str(e.cell) for e in past.errors] == [
        tr("sheet “%(sheet)s”, row %(row)d, column %(column)s", sheet="1° Turno", row=2, column="L (Punti)")]


@pytest.mark.parametrize("written, kind", [("Torneo Open", "open"), ("Raduno Nazionale", "raduno"),
                                           ("Torneo Master", "master"), ("MasterRisiko", "master"),
                                           ("Campionato Nazionale", "nazionale"), ("NazionaleRisiKo", "nazionale"),
                                           ("Amichevoli", ""), (None, "")])
def test_the_type_is_read_from_the_sheet_torneo(written, kind):
    past = past_tournament_read(data=gestione_xlsx(gestione_written(gestione_rounds(), kind=written)),
                                filename="ModuloTorneo.xlsx")
    assert (past.errors, past.kind) == ([], kind)


# --- national IDs that are none ----------------------------------------------------------------------

@pytest.mark.parametrize("value", [None, 0, "0", "000", "", "  ", "-", "n.d.", "ND", "non tesserato", -3, "#N/D",
                                   "nessuno", 12.5])
def test_a_cell_that_holds_no_national_id(value):
    assert values.national_id(value) == ""


@pytest.mark.parametrize("value, expected", [(123, "123"), ("00123", "00123"), ("RM-123", "RM-123"),
                                             (" IT 42 ", "IT 42")])
def test_a_cell_that_holds_a_national_id(value, expected):
    assert values.national_id(value) == expected


@pytest.mark.parametrize("writer, name", [(gestione_xls, "ModuloTorneo.xls"), (gestione_xlsx, "ModuloTorneo.xlsx")])
def test_the_templates_empty_id_nazionale_saved_as_0_merges_nobody(writer, name, organiser, tmp_path):
    """LibreOffice stores the template's empty formula result of ID NAZIONALE as 0: no ID, eight people."""
    ids = {name: 0 for name, _club in PLAYERS}
    tournament = import_file(tmp_path, name, writer(gestione_written(gestione_rounds(), national_ids=ids)))
    assert tournament.registrations.count() == 8
    assert set(tournament.registrations.values_list("player__national_id", flat=True)) == {""}


def test_a_club_sheets_national_id_of_0_or_a_placeholder_is_no_id():
    rows = [["Tavolo", "Giocatore", "Club", "ID nazionale", "Punti tavolo"],
            [1, "Marco Rossi", "A", 0, 40], [1, "Giulia Bianchi", "A", "n.d.", 30], [1, "Luca Ferrari", "B", "0", 20],
            [1, "Sara Romano", "B", "IT7", 10]]
    past = past_tournament_read(data=xlsx({"Turno 1": rows}), filename="a.xlsx")
    assert past.errors == []
    assert sorted((p.full_name, p.national_id) for p in past.people.values()) == [
        ("Giulia Bianchi", ""), ("Luca Ferrari", ""), ("Marco Rossi", ""), ("Sara Romano", "IT7")]


def test_a_torneo_gufo_table_read_scores_as_gestionetorneo_scored_it():
    """GestioneTorneo's own ScorePlayerTorneoGufo, run on a table of four (40, 30, -1, -2), gave 12.4, 7.3, 2
    and 1: the table read, under the Torneo Gufo rule, gives the same."""
    from decimal import Decimal

    from scoring.engine import score_tournament
    from scoring.model import Game, PlayerResult
    from scoring.rule_document import published_rules

    p = [name for name, _club in PLAYERS]
    rounds = [[[seat(p[0], 40), seat(p[1], 30), seat(p[2], -1), seat(p[3], -2)]]]
    past = past_tournament_read(data=gestione_xlsx(gestione_written(rounds, kind="Torneo Gufo")),
                                filename="ModuloTorneo.xlsx")
    assert past.errors == []
    game = Game(1, 1, tuple(PlayerResult(past.people[s.person].full_name, s.table_points, eliminated=s.eliminated)
                            for _rnd, _table, s in past.seats()))
    rule = next(r for r in published_rules() if r.key == "torneo_gufo")
    standings = score_tournament(rule.formula, rule.engine_params(), (game,))
    assert {row.player: row.total for row in standings.standings} == {
        p[0]: Decimal("12.4"), p[1]: Decimal("7.3"), p[2]: Decimal(2), p[3]: Decimal(1)}


# --- the type picks the rule, in the preview ------------------------------------------------------------

@pytest.mark.parametrize("written, kind, rule", [("Torneo Gufo", "gufo", "gt_gufo"), ("Raduno Nazionale", "raduno",
                                                                                        "gt_raduno"),
                                                 ("Torneo Master", "master", "gt_master"),
                                                 ("Campionato Nazionale", "nazionale", "gt_nazionale"),
                                                 ("Torneo Open", "open", "raduno_open")])
def test_the_preview_names_the_type_and_chooses_its_rule(written, kind, rule, organiser, client):
    from tests.html import one
    from tests.transfer.workbooks.test_views import upload

    rounds = gufo_rounds() if kind == "gufo" else gestione_rounds()
    client.force_login(organiser)
    page = upload(client, gestione_xlsx(gestione_written(rounds, kind=written)), name="2019-10-12 Modulo.xlsx")
    assert page.status_code == 200
    assert one(page, "#import-kind")["data-kind"] == kind
    assert one(page, "select[name=preset] option[selected]")["value"] == rule


def test_a_torneo_gufo_imported_from_the_page_under_its_rule(organiser, client):
    from tests.transfer.workbooks.test_views import confirm, upload
    from tournaments.models import Tournament

    client.force_login(organiser)
    page = upload(client, gestione_xlsx(gestione_written(gufo_rounds(), kind="Torneo Gufo")),
                  name="2019-10-12 Modulo.xlsx")
    assert confirm(client, page, preset="gt_gufo", formula="").status_code == 302
    tournament = Tournament.objects.get()
    assert (tournament.club_preset, tournament.formula, tournament.como_reference,
            tournament.standard_eliminated) == ("gt_gufo", "standard", 4, "position")


def test_an_open_names_the_tables_its_own_scoring_counts_otherwise():
    """GestioneTorneo's Open counts a winner above 80 at a table of five as 100 (85 -> 100, not 106.25)."""
    p = [name for name, _club in PLAYERS]
    rounds = [[[seat(p[0], 85), seat(p[1], 20), seat(p[2], 10), seat(p[3], 5), seat(p[4], 0, eliminated=1)],
               [seat(p[5], 40), seat(p[6], 30), seat(p[7], 20)]]]
    past = past_tournament_read(data=gestione_xlsx(gestione_written(rounds, kind="Torneo Open")),
                                filename="ModuloTorneo.xlsx")
    assert past.errors == []
    message = tr("table %(table)d: GestioneTorneo's Open counts a winner above 80 table points at a table of five "
                 "as 100, not ×1.25: the rule chosen scores this table otherwise", table=1)
    assert [n for n in past.notes if "80" in n] == [f"{Cell('1° Turno', 1, 'A', 'Tavolo N°1')}: {message}"]
