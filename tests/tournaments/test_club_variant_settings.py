"""The club variants of SCORING.md section 13 as tournament settings: saved through the form, checked by
the engine's own rule (a variant the formula does not read is cleared, a mismatch is named on its field),
and passed to the engine only for the formulas that read them."""
from decimal import Decimal

import pytest
from django.urls import reverse

from tables.engine import club_params, params_for
from tests.factories import TournamentFactory
from tests.html import field_errors, tr
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

URL = "manage:tournament_create"
BASE = {"name": "Raduno", "start_date": "2026-12-01", "table_size": "4", "rounds_planned": "3",
        "discard_worst": "0", "dispute_window_minutes": "120", "entry_fee": "0", "bonus": "50",
        "spartaco_malus": "14", "tiebreak_1": "best_results"}


def post(client, organiser, **data):
    client.force_login(organiser)
    return client.post(reverse(URL), {**BASE, **data})


def test_the_2004_final_saves_its_risiko_total_and_the_engine_reads_it(client, organiser):
    response = post(client, organiser, formula="bonus50", bonus="20", risiko_total="110",
                    tiebreak_2="previous_round")
    assert response.status_code == 302
    tournament = Tournament.objects.get(name="Raduno")
    params = params_for(tournament)
    assert (params.risiko_total, params.bonus, params.tiebreak) == (Decimal("110"), Decimal("20"),
                                                                    ("best_results", "previous_round"))


def test_a_variant_the_formula_does_not_read_is_cleared_not_refused(client, organiser):
    response = post(client, organiser, formula="conversione150", spartaco_risiko_losers="own_tp",
                    standard_eliminated="position", risiko_total="110")
    assert response.status_code == 302
    tournament = Tournament.objects.get(name="Raduno")
    assert (tournament.spartaco_risiko_losers, tournament.standard_eliminated, tournament.risiko_total) == ("", "", None)


def test_the_corrective_on_table_points_needs_the_reference_size(client, organiser):
    response = post(client, organiser, formula="bonus50", corrective_scope="table_points")
    assert response.status_code == 200
    assert field_errors(response, "corrective_scope") == [tr("Choose the reference table size as well.")]
    assert not Tournament.objects.filter(name="Raduno").exists()


def test_millesimi_refuses_the_como_corrective(client, organiser):
    response = post(client, organiser, formula="millesimi", como_reference="5")
    assert response.status_code == 200
    assert field_errors(response, "como_reference") == [tr(
        "This formula has its own factor at 5-player tables: leave the Como corrective empty.")]


def test_another_formula_is_scored_with_the_variants_it_reads_only():
    gufo = TournamentFactory(formula="standard", standard_eliminated="position", como_reference=4,
                             corrective_scope="table_points")
    assert club_params(gufo) == {"standard_eliminated": "position", "corrective_scope": "table_points",
                                 "como_reference": 4}
    assert club_params(gufo, "bonus50") == {"corrective_scope": "table_points", "como_reference": 4}
    assert club_params(gufo, "millesimi") == {"como_reference": None}
