"""Each refusal of the seating screens reaches the organiser as a message (no 500, nothing changed)."""
import pytest
from django.contrib.messages import get_messages
from django.urls import reverse

from tables.models import Round, Seat
from tests.factories import RegistrationFactory, seat_round


@pytest.fixture
def draft(tournament):
    regs = [RegistrationFactory(tournament=tournament, present=True) for _ in range(8)]
    return seat_round(tournament, [regs[:4], regs[4:]], status="draft")


def _seat(rnd, table, position):
    return Seat.objects.get(table__round=rnd, table__number=table, position=position)


def _messages(response):
    return [str(m) for m in get_messages(response.wsgi_request)]


def test_swapping_two_players_of_one_table_is_refused(client, tournament, organiser, draft):
    client.force_login(organiser)
    url = reverse("manage:seat_tap", args=[tournament.pk, 1])
    a, b = _seat(draft, 1, 1), _seat(draft, 1, 2)
    client.post(url, {"seat": a.pk})
    response = client.post(url, {"seat": b.pk})
    assert _messages(response) == ["The two players are already at the same table."]
    assert (_seat(draft, 1, 1).pk, _seat(draft, 1, 2).pk) == (a.pk, b.pk)


def test_swapping_with_a_player_gone_from_the_round_is_a_message(client, tournament, organiser, draft):
    client.force_login(organiser)
    url = reverse("manage:seat_tap", args=[tournament.pk, 1])
    a, b = _seat(draft, 1, 1), _seat(draft, 2, 1)
    client.post(url, {"seat": a.pk})
    a.delete()
    response = client.post(url, {"seat": b.pk})
    assert _messages(response) == ["That player is no longer in the round."]
    assert _seat(draft, 2, 1).pk == b.pk


@pytest.mark.parametrize("table", ["", "x", "0", "201"])
def test_moving_to_no_table_asks_for_a_table_number(client, tournament, organiser, draft, table):
    client.force_login(organiser)
    seat = _seat(draft, 1, 1)
    response = client.post(reverse("manage:seat_move", args=[tournament.pk, 1]), {"seat": seat.pk, "table": table})
    assert _messages(response) == ["Choose a table number."]
    assert Seat.objects.get(pk=seat.pk).table.number == 1


def test_moving_a_player_gone_from_the_round_is_a_message(client, tournament, organiser, draft):
    client.force_login(organiser)
    response = client.post(reverse("manage:seat_move", args=[tournament.pk, 1]), {"seat": 999999, "table": 2})
    assert _messages(response) == ["That player is no longer in the round."]


def test_moving_a_player_to_their_own_table_is_refused(client, tournament, organiser, draft):
    client.force_login(organiser)
    seat = _seat(draft, 1, 1)
    response = client.post(reverse("manage:seat_move", args=[tournament.pk, 1]), {"seat": seat.pk, "table": 1})
    assert _messages(response) == ["The player is already at that table."]


def test_the_seating_of_a_closed_round_does_not_change(client, tournament, organiser, draft):
    Round.objects.filter(pk=draft.pk).update(status=Round.Status.CLOSED)
    client.force_login(organiser)
    seat = _seat(draft, 1, 1)
    response = client.post(reverse("manage:seat_move", args=[tournament.pk, 1]), {"seat": seat.pk, "table": 2})
    assert _messages(response) == ["The round is closed: its seating can no longer change."]
    assert Seat.objects.get(pk=seat.pk).table.number == 1


def test_publishing_a_table_of_two_is_a_message(client, tournament, organiser):
    regs = [RegistrationFactory(tournament=tournament, present=True) for _ in range(6)]
    rnd = seat_round(tournament, [regs[:4], regs[4:]], status="draft")
    client.force_login(organiser)
    response = client.post(reverse("manage:round_action", args=[tournament.pk, 1, "publish"]))
    assert _messages(response) == ["Table 2 has 2 players: tables need 3 to 6."]
    assert Round.objects.get(pk=rnd.pk).status == Round.Status.DRAFT


def test_an_unknown_round_action_is_not_found(client, tournament, organiser, draft):
    client.force_login(organiser)
    assert client.post(reverse("manage:round_action", args=[tournament.pk, 1, "explode"])).status_code == 404
