"""A knockout below seed 004's range (64-125 players without second chance, 37-69 with) is
announced before the draw, with the seed's alternative one tap away; drawing anyway is possible and
warned."""
import pytest
from django.urls import reverse

from phases import services as phase_services
from phases.presets import knockout_advice
from tests.phases.helpers import players
from tests.html import one, select, texts, tr


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
    advice = one(client.get(url), "[data-knockout-advice]")
    assert advice["data-knockout-advice"] == "sum3_final"
    assert texts(advice, "p")[0] == " ".join([
        tr("This knockout presupposes %(low)s to %(high)s players (Editrice Giochi guidelines); %(n)s are checked in.",
           low=64, high=125, n=12),
        tr("Drawn now, its first game would seat tables of %(sizes)s.", sizes="4, 4, 4")])
    assert one(advice, "input[name=preset]")["value"] == "sum3_final"
    response = client.post(url, {"form": "format", "preset": "sum3_final", "final": "on"})
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert tournament.format_preset == "sum3_final"
    assert select(client.get(url), "[data-knockout-advice]") == []


def test_drawing_anyway_is_warned_and_the_advice_goes_once_drawn(tournament, organiser, client_for):
    players(tournament, 12)
    phase_services.format_apply(user=organiser, tournament=tournament, preset="knockout")
    client = client_for(organiser)
    response = client.post(reverse("manage:phase_action", args=[tournament.pk, 1, "draw"]), follow=True)
    shown = [(m.level_tag, str(m)) for m in response.context["messages"]]
    assert ("warning", "Drawn with fewer players than this knockout presupposes (64-125 players, 12 present).") in shown
    assert tournament.rounds.count() == 1
    assert select(response, "[data-knockout-advice]") == []


def test_a_knockout_in_range_draws_without_warning(tournament, organiser, client_for):
    players(tournament, 40)
    phase_services.format_apply(user=organiser, tournament=tournament, preset="knockout_second_chance")
    client = client_for(organiser)
    assert select(client.get(reverse("manage:formats", args=[tournament.pk])), "[data-knockout-advice]") == []
    response = client.post(reverse("manage:phase_action", args=[tournament.pk, 1, "draw"]), follow=True)
    assert [m.level_tag for m in response.context["messages"]] == ["success"]
