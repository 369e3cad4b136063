"""A GestioneTorneo Master: its "3° Turno" and "4° Turno" are the semifinals and the final. They come in as
the phases of the tournament format "master", drawn by its own plan and checked against the workbook's
tables; a semifinal the plan does not give is refused at its sheet, never imported as an ordinary round."""
import pytest
from django.db import transaction

from phases.draw import phase_draw
from phases.services import format_apply
from tables.standings.selectors import final_standings
from tests.transfer.workbooks.books import gestione_written, gestione_xlsx, seat
from tournaments.models import Phase, Tournament
from transfer.workbooks.model import Cell, WorkbookError
from transfer.workbooks.services import past_tournament_import, past_tournament_read

NAMES = [f"{first} {last}" for first, last in zip(
    ["Ada", "Bice", "Carlo", "Dora", "Ezio", "Fede", "Gino", "Ines", "Lia", "Mino", "Nora", "Olga", "Pino", "Rita",
     "Sara", "Tino"],
    ["Alfa", "Beta", "Gamma", "Delta", "Epsilon", "Zeta", "Eta", "Theta", "Iota", "Kappa", "Lambda", "Mu", "Nu", "Xi",
     "Omicron", "Pi"])]
POINTS = [(70, 40, 20, 0), (65, 35, 25, 10), (60, 30, 22, 12), (55, 33, 21, 5)]


def games():
    """Two games of 16 players at tables of four, no player unbeaten in both."""
    first = [[seat(NAMES[4 * t + i], POINTS[t][i], club="C") for i in range(4)] for t in range(4)]
    order = [0, 5, 10, 15, 1, 6, 12, 11, 2, 7, 8, 13, 3, 4, 9, 14]
    second = [[seat(NAMES[order[4 * t + i]], POINTS[(t + 1) % 4][(i + 1) % 4], club="C") for i in range(4)]
              for t in range(4)]
    return [first, second]


def settings():
    return {"formula": "millesimi", "tiebreak": "best_results,previous_round", "club_preset": "gt_master"}


class Rollback(Exception):
    pass


def semifinal_tables(organiser):
    """The semifinals the format's plan draws after the two games (a tournament imported as rounds, then
    rolled back)."""
    past = past_tournament_read(data=gestione_xlsx(gestione_written(games(), kind="Torneo Open")),
                                filename="ModuloTorneo.xlsx")
    try:
        with transaction.atomic():
            draft = past_tournament_import(user=organiser, past=past, name="Prova", start_date="2019-10-12",
                                           settings=settings()).tournament
            format_apply(user=organiser, tournament=draft, preset="master", games=2)
            rnd = phase_draw(user=organiser, phase=draft.phases.get(kind=Phase.Kind.SEMIFINAL), seed=0)
            names = [[s.registration.player.full_name for s in table.seats.order_by("position")]
                     for table in rnd.tables.order_by("number")]
            raise Rollback
    except Rollback:
        pass
    assert len(names) == 4     # nobody won both games: 4 semifinals of the top 16
    return names


def master_rounds(semifinals):
    points = (50, 30, 20, 0)
    semis = [[seat(name, points[i], club="C") for i, name in enumerate(table)] for table in semifinals]
    final = [[seat(table[0], 45 - 5 * i, club="C") for i, table in enumerate(semifinals)]]
    return games() + [semis, final]


def test_a_masters_third_and_fourth_rounds_are_its_semifinals_and_final(organiser):
    semifinals = semifinal_tables(organiser)
    rounds = master_rounds(semifinals)
    past = past_tournament_read(data=gestione_xlsx(gestione_written(rounds, kind="Torneo Master")),
                                filename="ModuloTorneo.xlsx")
    assert past.errors == [] and past.kind == "master"
    tournament = past_tournament_import(user=organiser, past=past, name="Master", start_date="2019-10-12",
                                        settings=settings()).tournament
    assert [(r.number, r.phase.kind) for r in tournament.rounds.order_by("number")] == [
        (1, "qualifying"), (2, "qualifying"), (3, "semifinal"), (4, "final")]
    tournament.refresh_from_db()
    assert (tournament.formula, tournament.club_preset, tournament.format_preset) == ("millesimi", "gt_master",
                                                                                       "master")
    order = [row.registration.player.full_name for row in final_standings(tournament).rows[:4]]
    assert order == [table[0] for table in semifinals]     # the final's order leads the standings


def test_a_semifinal_the_plan_does_not_give_is_refused_at_its_sheet(organiser):
    semifinals = semifinal_tables(organiser)
    semifinals[0][1], semifinals[1][1] = semifinals[1][1], semifinals[0][1]
    past = past_tournament_read(data=gestione_xlsx(gestione_written(master_rounds(semifinals), kind="Torneo Master")),
                                filename="ModuloTorneo.xlsx")
    assert past.errors == []
    with pytest.raises(WorkbookError) as refused:
        past_tournament_import(user=organiser, past=past, name="Master", start_date="2019-10-12",
                               settings=settings())
    assert refused.value.cell == Cell("3° Turno")
    assert not Tournament.objects.filter(name="Master").exists()


def test_the_preview_says_the_third_and_fourth_rounds_are_the_phases():
    rounds = master_rounds([[NAMES[4 * t + i] for i in range(4)] for t in range(4)])
    past = past_tournament_read(data=gestione_xlsx(gestione_written(rounds, kind="Torneo Master")),
                                filename="ModuloTorneo.xlsx")
    assert [n.split(":")[0] for n in past.notes if "Master" in n] == [str(Cell("3° Turno")), str(Cell("4° Turno"))]
