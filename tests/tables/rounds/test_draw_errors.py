"""Every refused draw is a message on the organiser's page, nothing saved (SEATING.md sections 1-2)."""
import pathlib
import re

import pytest
from django.contrib.messages import get_messages
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import translation

from tables import engine
from tables.rounds import services
from tables.models import Round, Seat
from tables.seating import SeatingError
from tables.rounds.inputs import present_registrations
from tests.factories import RegistrationFactory
from tournaments.models import Registration


@pytest.fixture
def present(tournament):
    return [RegistrationFactory(tournament=tournament, present=True) for _ in range(8)]


def _draw(client, tournament, **data):
    return client.post(reverse("manage:rounds", args=[tournament.pk]), {"method": "random", **data})


def _numbers(tournament):
    """The check-in list's numbering of the draw form: registration id -> number from 1."""
    return {r.pk: i for i, r in enumerate(present_registrations(tournament), start=1)}


def _plan(tournament, rows):
    number = _numbers(tournament)
    return "\n".join(" ".join(str(number[r.pk]) for r in row) for row in rows)


def test_a_second_draw_while_a_round_is_open_is_a_message(client, tournament, organiser, present):
    client.force_login(organiser)
    _draw(client, tournament, seed=1)
    response = _draw(client, tournament, seed=2)
    assert response.status_code == 200
    assert response.context["form"].non_field_errors() == ["Close the current round before drawing the next one."]
    assert Round.objects.count() == 1


def test_a_fixed_plan_naming_a_player_twice_is_a_message(client, tournament, organiser, present):
    client.force_login(organiser)
    rows = [present[:4], present[3:7]]
    response = _draw(client, tournament, method="fixed", plan=_plan(tournament, rows))
    assert response.status_code == 200
    assert response.context["form"].non_field_errors() == [f"The plan seats {present[3].player.full_name} twice."]
    assert Round.objects.count() == 0


def test_a_fixed_plan_with_an_unknown_number_is_a_message(client, tournament, organiser, present):
    client.force_login(organiser)
    response = _draw(client, tournament, method="fixed", plan="1 2 3 4\n5 6 7 9")
    assert response.context["form"].non_field_errors() == ["9 is not a number of the check-in list (1 to 8)."]
    response = _draw(client, tournament, method="fixed", plan="1 2 3 x\n5 6 7 8")
    assert response.context["form"].non_field_errors() == ["x is not a number of the check-in list (1 to 8)."]
    assert Round.objects.count() == 0


def test_a_fixed_plan_leaving_out_a_present_player_is_a_message(client, tournament, organiser, present):
    client.force_login(organiser)
    response = _draw(client, tournament, method="fixed", plan=_plan(tournament, [present[:4], present[4:7]]))
    assert response.context["form"].non_field_errors() == [
        f"The plan leaves out {present[7].player.full_name}, who is checked in."]
    assert Round.objects.count() == 0


def test_a_good_fixed_plan_is_drawn_as_written(client, tournament, organiser, present):
    client.force_login(organiser)
    rows = [present[::2], present[1::2]]
    response = _draw(client, tournament, method="fixed", plan=_plan(tournament, rows))
    assert response.status_code == 302
    rnd = Round.objects.get()
    assert [sorted(t.seats.values_list("registration_id", flat=True)) for t in rnd.tables.order_by("number")] == \
        [sorted(r.pk for r in row) for row in rows]


def test_sizes_the_optimiser_refuses_are_a_message(client, tournament, organiser, present):
    """The form checks the sum against the players it counted; a player checking in meanwhile
    leaves the optimiser to refuse the sizes."""
    client.force_login(organiser)
    late = RegistrationFactory(tournament=tournament, present=False)
    with pytest.MonkeyPatch.context() as patch:
        original = services.seating_request

        def with_late_arrival(**kwargs):
            Registration.objects.filter(pk=late.pk).update(present=True)
            return original(**kwargs)
        patch.setattr(services, "seating_request", with_late_arrival)
        response = _draw(client, tournament, sizes="4,4")
    assert response.context["form"].non_field_errors() == [
        "The table sizes add up to 8 seats, but 9 players are present."]
    assert Round.objects.count() == 0


def test_an_impossible_reseat_is_a_message(client, tournament, organiser, present):
    client.force_login(organiser)
    rnd = services.round_create(user=organiser, tournament=tournament, seed=4)
    before = sorted(Seat.objects.filter(table__round=rnd).values_list("registration_id", "table__number"))
    Registration.objects.filter(pk__in=[r.pk for r in present[2:]]).update(present=False)
    response = client.post(reverse("manage:round_action", args=[tournament.pk, 1, "reseat"]))
    assert response.status_code == 302
    assert [str(m) for m in get_messages(response.wsgi_request)] == [
        "At least 3 players are needed to draw a round: 2 are present."]
    assert sorted(Seat.objects.filter(table__round=rnd).values_list("registration_id", "table__number")) == before


def test_a_redraw_of_a_published_round_is_a_message(client, tournament, organiser, present):
    client.force_login(organiser)
    rnd = services.round_create(user=organiser, tournament=tournament, seed=4)
    services.round_publish(user=organiser, rnd=rnd)
    response = client.post(reverse("manage:round_action", args=[tournament.pk, 1, "redraw"]))
    assert [str(m) for m in get_messages(response.wsgi_request)] == ["Only a draft round can be drawn again."]


def test_the_draw_service_refuses_a_withdrawn_player_in_a_plan(tournament, organiser, present):
    Registration.objects.filter(pk=present[0].pk).update(status=Registration.Status.WITHDRAWN)
    plan = [[str(r.pk) for r in present[:4]], [str(r.pk) for r in present[4:]]]
    with pytest.raises(ValidationError) as exc:
        services.round_create(user=organiser, tournament=tournament, method="fixed", fixed_plan=plan)
    assert exc.value.messages == [
        f"{present[0].player.full_name} has withdrawn from the tournament: take them out of the plan."]
    assert Round.objects.count() == 0


def test_the_draw_service_refuses_a_plan_leaving_a_present_player_unseated(tournament, organiser, present):
    plan = [[str(r.pk) for r in present[:4]], [str(r.pk) for r in present[4:7]]]
    with pytest.raises(ValidationError) as exc:
        services.round_create(user=organiser, tournament=tournament, method="fixed", fixed_plan=plan)
    assert exc.value.messages == [f"The plan leaves out {present[7].player.full_name}, who is checked in."]
    # A phase seats only its qualifiers: the same plan is drawn when it says so.
    rnd = services.round_create(user=organiser, tournament=tournament, method="fixed", fixed_plan=plan,
                                partial_plan=True)
    assert rnd.tables.count() == 2


def test_a_greek_draw_without_a_previous_round_is_a_message(client, tournament, organiser, present):
    client.force_login(organiser)
    response = _draw(client, tournament, method="greek")
    assert response.context["form"].non_field_errors() == [
        "The Greek method needs the previous round's results: draw this round with another method."]


def test_seating_errors_are_translated_by_code_with_names():
    exc = SeatingError("the plan seats '7' twice", code="plan_twice", player="7")
    assert engine.seating_message(exc, {"7": "Mario Rossi"}) == "The plan seats Mario Rossi twice."
    with translation.override("it"):
        assert engine.seating_message(exc, {"7": "Mario Rossi"}) == "Il piano mette Mario Rossi due volte."
        unknown = SeatingError("something new", code="not_a_code")
        assert engine.seating_message(unknown) == ("Questi giocatori non si possono sedere così: "
                                                   "cambia il metodo o le dimensioni dei tavoli.")


def test_every_code_the_optimiser_raises_has_a_message():
    source = "".join(p.read_text() for p in pathlib.Path(engine.__file__).parent.joinpath("seating").glob("*.py"))
    codes = set(re.findall(r'code="(\w+)"', source)) - {"invalid"}
    assert codes <= set(engine.SEATING_MESSAGES)


def test_a_raduno_of_500_seats_and_a_draw_past_the_cap_is_told_why():
    from tables.seating.contract import MAX_PLAYERS
    players = [{"id": str(i), "rank": i} for i in range(1, 501)]
    seated = engine.seat({"method": "snake", "players": players})
    assert sorted(int(p) for table in seated["tables"] for p in table) == list(range(1, 501))
    too_many = [{"id": str(i), "rank": i} for i in range(1, MAX_PLAYERS + 2)]
    with pytest.raises(ValidationError) as exc:
        engine.seat({"method": "snake", "players": too_many})
    assert exc.value.messages == [str(engine.SEATING_MESSAGES["too_many_players"])
                                  % {"limit": MAX_PLAYERS, "n": MAX_PLAYERS + 1}]
