"""The rounds page and the round dashboard offer the format's next step, named as the format names it,
for every format; a round the format does not plan is drawn only when the organiser ticks it."""
import pytest
from django.urls import reverse

from phases import services as phase_services
from tables.models import Round
from tables.rounds import services as table_services
from tests.html import field_errors, one, select, text
from tests.phases.helpers import players, report_by_strength, strength_of

# The steps each format offers, one after the other, until every phase is played.
EVENINGS = {
    "sum3_final": (8, ["Qualifying rounds: draw round 1 of 3", "Qualifying rounds: draw round 2 of 3",
                       "Qualifying rounds: draw round 3 of 3", "Seat the final"]),
    "master": (16, ["Qualifying rounds: draw round 1 of 2", "Qualifying rounds: draw round 2 of 2",
                    "Seat the semifinals", "Seat the final"]),
    "raduno": (16, ["Qualifying rounds: draw round 1 of 2", "Qualifying rounds: draw round 2 of 2",
                    "Seat the semifinals", "Seat the final"]),
    "composed": (16, [f"Qualifying rounds: draw round {k} of 5" for k in range(1, 6)]
                 + ["Seat the semifinals", "Seat the final"]),
    "knockout": (12, ["Draw Knockout game 1", "Seat the final"]),
    "knockout_second_chance": (12, ["Draw Knockout game 1", "Draw Second chance", "Seat the final"]),
    "team_championship": (12, [f"Qualifying rounds: draw round {k} of 3" for k in range(1, 4)]),
}


def _rounds_page(client, tournament):
    return client.get(reverse("manage:rounds", args=[tournament.pk]))


def _play_current(tournament, organiser, strength):
    rnd = tournament.rounds.order_by("-number").first()
    table_services.round_publish(user=organiser, rnd=rnd)
    report_by_strength(rnd, strength, organiser)
    table_services.round_close(user=organiser, rnd=rnd)
    return rnd


@pytest.mark.parametrize("preset", sorted(EVENINGS))
def test_the_rounds_page_offers_the_formats_steps_one_after_the_other(client_for, tournament, organiser, preset):
    count, expected = EVENINGS[preset]
    regs = players(tournament, count)
    strength = strength_of(regs)
    phase_services.format_apply(user=organiser, tournament=tournament, preset=preset)
    client = client_for(organiser)
    offered = []
    for _step in range(len(expected) + 1):
        page = _rounds_page(client, tournament)
        if one(page, "#next-step")["data-step"] == "done":
            break
        button = one(page, "#format-next-step")
        offered.append(text(button))
        form = button.find_parent("form")
        response = client.post(form["action"], {"then": "round"})
        rnd = tournament.rounds.order_by("-number").first()
        assert response["Location"] == reverse("manage:round", args=[tournament.pk, rnd.number])
        _play_current(tournament, organiser, strength)
    assert offered == expected
    assert select(page, "#format-next-step") == []
    assert text(one(page, "#format-done")) == "Every phase of the format is played."


def test_the_dashboard_of_a_closed_round_offers_the_next_phase(client_for, tournament, organiser):
    regs = players(tournament, 8)
    phase_services.format_apply(user=organiser, tournament=tournament, preset="sum3_final")
    client = client_for(organiser)
    for _i in range(3):
        table_services.round_create(user=organiser, tournament=tournament)
        rnd = _play_current(tournament, organiser, strength_of(regs))
    page = client.get(reverse("manage:round_dashboard", args=[tournament.pk, rnd.number]))
    button = one(page, "#format-next-step")
    assert (text(button), button["data-phase-kind"]) == ("Seat the final", "final")
    assert button.find_parent("form")["action"] == reverse("manage:phase_action", args=[tournament.pk, 2, "draw"])


def test_after_the_qualifying_rounds_a_random_draw_needs_the_explicit_choice(client_for, tournament, organiser):
    regs = players(tournament, 8)
    phase_services.format_apply(user=organiser, tournament=tournament, preset="sum3_final")
    for _i in range(3):
        table_services.round_create(user=organiser, tournament=tournament)
        _play_current(tournament, organiser, strength_of(regs))
    client = client_for(organiser)
    url = reverse("manage:rounds", args=[tournament.pk])
    response = client.post(url, {"method": "random"})
    assert response.status_code == 200
    assert tournament.rounds.count() == 3
    assert field_errors(response, "outside_format") == [
        "The format's next step is “Seat the final”: tick this box to draw a round it does not plan."]
    response = client.post(url, {"method": "random", "outside_format": "on"})
    assert response.status_code == 302
    assert tournament.rounds.count() == 4
    assert tournament.rounds.get(number=4).phase is None  # a fourth qualifying round, as the box said


def test_while_the_format_has_qualifying_rounds_the_draw_form_draws_them(client_for, tournament, organiser):
    players(tournament, 8)
    phase_services.format_apply(user=organiser, tournament=tournament, preset="sum3_final")
    response = client_for(organiser).post(reverse("manage:rounds", args=[tournament.pk]), {"method": "snake"})
    assert response.status_code == 302
    assert tournament.rounds.get(number=1).method == "snake"


def test_once_the_final_is_seated_no_round_outside_the_format_is_drawn(client_for, tournament, organiser):
    regs = players(tournament, 8)
    phase_services.format_apply(user=organiser, tournament=tournament, preset="sum3_final")
    for _i in range(3):
        table_services.round_create(user=organiser, tournament=tournament)
        _play_current(tournament, organiser, strength_of(regs))
    client = client_for(organiser)
    client.post(reverse("manage:phase_action", args=[tournament.pk, 2, "draw"]), {"then": "round"})
    _play_current(tournament, organiser, strength_of(regs))
    page = _rounds_page(client, tournament)
    assert text(one(page, "[data-outside-refused]")) == (
        "Final: the phase has started, and a round outside the format would change the qualifying standings it "
        "came from.")
    response = client.post(reverse("manage:rounds", args=[tournament.pk]),
                           {"method": "random", "outside_format": "on"})
    assert response.status_code == 200
    assert tournament.rounds.count() == 4


def test_a_knockout_never_draws_a_round_outside_its_games(client_for, tournament, organiser):
    players(tournament, 12)
    phase_services.format_apply(user=organiser, tournament=tournament, preset="knockout")
    client = client_for(organiser)
    client.post(reverse("manage:phase_action", args=[tournament.pk, 1, "draw"]), {"then": "round"})
    _play_current(tournament, organiser, strength_of(list(tournament.registrations.order_by("pk"))))
    response = client.post(reverse("manage:rounds", args=[tournament.pk]), {"method": "random"})
    assert response.status_code == 200
    assert tournament.rounds.count() == 1
    assert text(one(response, "[data-outside-refused]")) == (
        "A knockout plays only its own games: each is seated by the format.")


def test_a_2vs2_tournament_points_to_its_team_schedule(client_for, tournament, organiser):
    players(tournament, 8)
    phase_services.format_apply(user=organiser, tournament=tournament, preset="teams_2vs2")
    page = _rounds_page(client_for(organiser), tournament)
    assert one(page, "#format-next-step")["href"] == reverse("manage:team_schedule", args=[tournament.pk])


def test_without_a_format_the_rounds_page_draws_as_before(client_for, tournament, organiser):
    players(tournament, 8)
    client = client_for(organiser)
    assert one(_rounds_page(client, tournament), "#next-step")["data-step"] == "free"
    assert client.post(reverse("manage:rounds", args=[tournament.pk]), {"method": "random"}).status_code == 302
    assert Round.objects.filter(tournament=tournament).count() == 1


def test_before_the_first_draw_the_rounds_page_shows_the_formats_plan(client_for, tournament, organiser):
    players(tournament, 16)
    phase_services.format_apply(user=organiser, tournament=tournament, preset="master")
    page = _rounds_page(client_for(organiser), tournament)
    lines = [text(li) for li in select(page, "#format-plan [data-plan-line]")]
    assert lines[:3] == ["Qualifying rounds: 2 rounds", "Semifinals", "Final: 4 players"]
    assert lines[3].startswith("ranks 1-16 to 4 semifinals")
