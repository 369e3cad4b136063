"""The tournament form suggests seed 004's formulas per kind of tournament (without forbidding any)
and says how its default tie-break differs from the engine's command line."""
import html

from django.urls import reverse

from tournaments.forms import TournamentForm
from tournaments.models import Formula


def test_the_form_suggests_the_seeds_formulas_and_keeps_every_formula(client_for, organiser):
    page = html.unescape(client_for(organiser).get(reverse("manage:tournament_create")).content.decode())
    assert "one day (3 games, or 3 + final): conversion 150 or 200" in page
    assert "Campionato (8 evenings or more, 2 discards or more): standard points, Faenza method" in page
    assert [v for v, _label in TournamentForm().fields["formula"].choices if v] == list(Formula.values)


def test_the_form_states_the_default_tie_break_and_the_engines(client_for, organiser):
    page = html.unescape(client_for(organiser).get(reverse("manage:tournament_create")).content.decode())
    assert 'A new tournament starts with "best results"' in page
    assert "applies no tie-break unless its document names one" in page
    assert TournamentForm().fields["tiebreak_1"].initial == "best_results"
