"""A knockout below seed 004's range (64-125 players without second chance, 37-69 with) is
announced before the draw, with the seed's alternative one tap away; drawing anyway is possible and
warned."""
import html

import pytest
from django.urls import reverse

from phases import services as phase_services
from phases.presets import knockout_advice
from tests.formats.helpers import players


@pytest.mark.parametrize("preset, n, alternative", [
    ("knockout", 63, "knockout_second_chance"), ("knockout", 37, "knockout_second_chance"),
    ("knockout", 36, "sum3_final"), ("knockout", 12, "sum3_final"),
    ("knockout_second_chance", 36, "sum3_final"), ("knockout_second_chance", 12, "sum3_final"),
])
def test_below_the_range_the_seeds_alternative_is_proposed(preset, n, alternative):
    advice = knockout_advice(preset, n)
    assert (advice.alternative, advice.players) == (alternative, n)
    assert (advice.low, advice.high) == {"knockout": (64, 125), "knockout_second_chance": (37, 69)}[preset]


@pytest.mark.parametrize("preset, n", [("knockout", 64), ("knockout", 125), ("knockout_second_chance", 37),
                                       ("knockout_second_chance", 69), ("sum3_final", 5), ("", 5)])
def test_within_the_range_or_another_format_no_advice(preset, n):
    assert knockout_advice(preset, n) is None


def test_the_format_page_warns_before_the_draw_and_switches_to_the_alternative(tournament, organiser, client_for):
    players(tournament, 12)
    phase_services.format_apply(user=organiser, tournament=tournament, preset="knockout")
    client = client_for(organiser)
    url = reverse("manage:formats", args=[tournament.pk])
    page = html.unescape(client.get(url).content.decode())
    assert 'data-knockout-advice="sum3_final"' in page
    assert "This knockout presupposes 64 to 125 players (Editrice Giochi guidelines); 12 are checked in." in page
    assert "would seat tables of 4, 4, 4" in page
    response = client.post(url, {"form": "format", "preset": "sum3_final", "final": "on"})
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert tournament.format_preset == "sum3_final"
    assert "data-knockout-advice" not in client.get(url).content.decode()


def test_drawing_anyway_is_warned_and_the_advice_goes_once_drawn(tournament, organiser, client_for):
    players(tournament, 12)
    phase_services.format_apply(user=organiser, tournament=tournament, preset="knockout")
    client = client_for(organiser)
    response = client.post(reverse("manage:phase_action", args=[tournament.pk, 1, "draw"]), follow=True)
    shown = [(m.level_tag, str(m)) for m in response.context["messages"]]
    assert ("warning", "Drawn with fewer players than this knockout presupposes (64-125 players, 12 present).") in shown
    assert tournament.rounds.count() == 1
    assert "data-knockout-advice" not in response.content.decode()


def test_a_knockout_in_range_draws_without_warning(tournament, organiser, client_for):
    players(tournament, 40)
    phase_services.format_apply(user=organiser, tournament=tournament, preset="knockout_second_chance")
    client = client_for(organiser)
    assert "data-knockout-advice" not in client.get(reverse("manage:formats", args=[tournament.pk])).content.decode()
    response = client.post(reverse("manage:phase_action", args=[tournament.pk, 1, "draw"]), follow=True)
    assert [m.level_tag for m in response.context["messages"]] == ["success"]
