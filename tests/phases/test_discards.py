"""Optional discards (seed 004 "possibilità di scartare") on the format page and the tournament form."""
import pytest
from django.urls import reverse

from tests.factories import seat_round
from tests.html import one, text, tr
from tests.tournaments.test_views import TOURNAMENT_FORM
from tournaments.models import Tournament


HELP = {  # both say that 0 discards is allowed
    "evenings_final": "R.T.U. Editrice Giochi, a few evenings: 4 to 6 games with the option of discarding 1 or 2 "
                      "results (0 is allowed), a final of the top 4 and optionally a finalina of 5th-8th.",
    "championship": "R.T.U. Editrice Giochi, championship: at least 8 evenings with the option of discarding at "
                    "least 2 results (0 is allowed; 1 is not), optionally a final of the top 4.",
}


@pytest.mark.parametrize("preset", ["evenings_final", "championship"])
def test_the_format_page_allows_no_discard_for_evenings_and_championship(client_for, tournament, organiser, preset):
    client = client_for(organiser)
    url = reverse("manage:formats", args=[tournament.pk])
    response = client.post(url, {"form": "format", "preset": preset, "discards": "0"})
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert (tournament.format_preset, tournament.discard_worst) == (preset, 0)
    assert text(one(client.get(url), f"label[for=preset-{preset}] .help:not(.decisions)")) == tr(HELP[preset])


def test_a_championship_discards_none_or_at_least_two(client_for, tournament, organiser):
    response = client_for(organiser).post(reverse("manage:formats", args=[tournament.pk]), {
        "form": "format", "preset": "championship", "discards": "1"})
    assert response.status_code == 400
    assert response.context["form"].errors == {"discards": ["This format discards 0 or 2 to 7 results."]}
    decisions = text(one(response, "#decisions-championship"))
    assert tr("\"Possibilità di scartare almeno 2 risultati\": no discard, or 2 or more; never 1.") in decisions


def _edit(client, tournament, **changes):
    return client.post(reverse("manage:tournament_edit", args=[tournament.pk]), {**TOURNAMENT_FORM, **changes})


@pytest.mark.parametrize("planned, discards", [("2", "1"), ("6", "2")])
def test_discards_set_up_in_advance_count_the_rounds_planned(client_for, organiser, planned, discards):
    """A new tournament, nothing played yet: 1 discard of 2 planned rounds (2 of 6) is accepted."""
    response = client_for(organiser).post(reverse("manage:tournament_create"), {
        **TOURNAMENT_FORM, "rounds_planned": planned, "discard_worst": discards})
    assert response.status_code == 302
    created = Tournament.objects.get(name=TOURNAMENT_FORM["name"])
    assert (created.rounds_planned, created.discard_worst) == (int(planned), int(discards))


def test_the_tournament_form_counts_the_rounds_played_beyond_those_planned(client_for, tournament, organiser):
    """Planned 1 round, 3 played: discarding 1 or 2 results still leaves a result that counts."""
    for _ in range(3):
        seat_round(tournament, [], status="closed")
    response = _edit(client_for(organiser), tournament, rounds_planned="1", discard_worst="2")
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert (tournament.rounds_planned, tournament.discard_worst) == (1, 2)


def test_the_tournament_form_refuses_discarding_every_game(client_for, tournament, organiser):
    seat_round(tournament, [], status="closed")
    response = _edit(client_for(organiser), tournament, rounds_planned="2", discard_worst="2")
    assert response.status_code == 200
    assert response.context["form"].errors == {
        "discard_worst": ["Discards must be fewer than the games: 2 planned or played so far."]}
    tournament.refresh_from_db()
    assert tournament.discard_worst == 0
