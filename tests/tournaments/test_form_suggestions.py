"""The tournament form suggests seed 004's formulas per kind of tournament (without forbidding any)
and says how its default tie-break differs from the engine's command line."""
from django.urls import reverse

from tournaments.forms import TournamentForm
from tournaments.models import Formula
from tests.html import field_help, tr


def test_the_form_suggests_the_seeds_formulas_and_keeps_every_formula(client_for, organiser):
    page = client_for(organiser).get(reverse("manage:tournament_create"))
    assert field_help(page, "formula") == [tr(
        "What official clubs use (Editrice Giochi guidelines), any formula allowed: one day (3 games, or 3 + final): "
        "conversion 150 or 200, table points + win bonus, standard points; a few evenings (4 to 6 games, 1 or 2 "
        "discards): a conversion, table points + win bonus, standard points, Spartaco; Campionato (8 evenings or "
        "more, 2 discards or more): standard points, Faenza method, Spartaco, Olympic medal table.")]
    assert [v for v, _label in TournamentForm().fields["formula"].choices if v] == list(Formula.values)


def test_the_form_states_the_default_tie_break_and_the_engines(client_for, organiser):
    page = client_for(organiser).get(reverse("manage:tournament_create"))
    assert field_help(page, "tiebreak_1") == [tr(
        "A new tournament starts with \"best results\" (the best single results compared in turn). The scoring "
        "engine's command line (python -m scoring) applies no tie-break unless its document names one: there "
        "players level on points share the rank.")]
    assert TournamentForm().fields["tiebreak_1"].initial == "best_results"
