"""Tournaments with phases under millesimi (SCORING.md 13.4) show the qualifying totals and the best
games of the cut lines with 3 decimals; under every other formula with 2."""
import pytest
from django.urls import reverse

from phases import draw
from phases import services as phase_services
from tables.rounds import services as table_services
from tables.standings import selectors as standings_selectors
from tests.html import attr, select, text
from tests.phases.helpers import play, players, report_order, strength_of
from tests.phases.test_composed import POINTS, _play_evenings, _player
from tournaments.models import Registration, Tournament


def _it(value, decimals):
    """A number as the Italian pages write it with `decimals` decimals."""
    return f"{value:.{decimals}f}".replace(".", ",")


@pytest.mark.parametrize("formula, shown", [
    # P00 wins its table 3 times with 24 TP (2 x strength 12): 3 x 1.024 = 3.072
    ("millesimi", ["3° · 2,054", "2° · 3,066", "1° · 3,072", "4° · 1,060", "5° · 0,048", "6° · 0,042"]),
    ("conversione150", ["3° · 398,08", "2° · 450,10", "1° · 450,36", "4° · 346,02", "5° · 266", "6° · 240"])])
def test_final_standings_show_the_qualifying_total_in_the_formulas_decimals(client, tournament, organiser, formula,
                                                                            shown):
    """Sum3 and a final: 12 players of known strength (TP 2 x strength), the top 4 to the final, won by
    the 4th."""
    client.cookies["django_language"] = "it"
    regs = players(tournament, 12)
    strength = strength_of(regs)
    phase_services.format_apply(user=organiser, tournament=tournament, preset="sum3_final")
    Tournament.objects.filter(pk=tournament.pk).update(formula=formula)
    tournament.refresh_from_db()
    qualifying, final = tournament.phases.order_by("order")
    for i in range(qualifying.rounds):
        play(draw.phase_draw(user=organiser, phase=qualifying, seed=i), strength, organiser)
    rnd = draw.phase_draw(user=organiser, phase=final)
    table_services.round_publish(user=organiser, rnd=rnd)
    report_order(rnd.tables.get(), [regs[3], regs[1], regs[0], regs[2]])
    table_services.round_close(user=organiser, rnd=rnd)
    page = client.get(reverse("public:final_standings", args=[tournament.pk]))
    cells = [tr.select("td")[-1] for tr in select(page, "#final-standings tbody tr")][:6]
    ranks = [text(cell.select_one("span")) for cell in cells]   # the qualifying rank, under the total
    assert [f"{rank} · {text(cell).removesuffix(rank).strip()}" for cell, rank in zip(cells, ranks)] == shown


@pytest.fixture
def evenings(tournament, organiser):
    """The composed format's evenings (tests/phases/test_composed.py) under millesimi."""
    Tournament.objects.filter(pk=tournament.pk).update(formula="millesimi", published=True)
    tournament.refresh_from_db()
    regs = {name: Registration.objects.create(tournament=tournament, status=Registration.Status.CONFIRMED,
                                              present=True, player=_player(name)) for name in POINTS}
    phase_services.format_apply(user=organiser, tournament=tournament, preset="evenings_top2_repechage",
                                games=4, discards=1)
    _play_evenings(tournament, organiser, regs, rounds=3)
    return tournament, regs


def test_cut_lines_show_the_best_game_in_thousandths(client, evenings):
    tournament, _regs = evenings
    client.cookies["django_language"] = "it"
    page = client.get(reverse("public:standings", args=[tournament.pk]))
    outcome = standings_selectors.qualifying_outcome(tournament, standings_selectors.composition_of(tournament))
    holders = attr(page, "[data-zone=repechage] li[data-registration]", "data-registration")
    assert attr(page, "[data-zone=repechage] li[data-registration]", "data-best") == ["0,099"] == [
        _it(max(outcome.games[int(pk)]), 3) for pk in holders]
