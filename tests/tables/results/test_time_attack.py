"""Seed 002, Time Attack: the territory calculator at the table (SCORING.md 8)."""
from decimal import Decimal

import pytest
from django.urls import reverse

from scoring.errors import InvalidResult
from scoring.territories import check_held_once, places_by_armies, territory
from tables.models import Seat
from tests.factories import RegistrationFactory, seat_round
from tests.html import alerts, attr, select, tr
from tournaments.models import AuditLog


@pytest.fixture
def table(tournament):
    four = [RegistrationFactory(tournament=tournament, player__last_name=n) for n in ("Aldo", "Bruno", "Carla",
                                                                                      "Dora")]
    return seat_round(tournament, [four]).tables.get()


def _post(client, table, players):
    """players: one dict per seat in seat order (territories, armies, table_points, eliminated)."""
    data = {"version": str(table.version)}
    for i, seat in enumerate(table.seats.order_by("position")):
        p = players[i]
        data[f"p{i}-seat"] = str(seat.pk)
        data[f"p{i}-table_points"] = p.get("table_points", "")
        data[f"p{i}-eliminated"] = p.get("eliminated", "")
        data[f"p{i}-place"] = p.get("place", "")
        data[f"p{i}-armies"] = p.get("armies", "")
        data[f"p{i}-territories"] = p.get("territories", [])
    url = reverse("arbiter:table", args=[table.round.tournament_id, table.round.number, table.number])
    return client.post(url, data)


def test_the_same_territory_for_two_players_is_refused(client_for, arbiter, table):
    response = _post(client_for(arbiter), table, [
        {"territories": ["Brasile", "Perù"]}, {"territories": ["Perù", "Cina"]},
        {"territories": ["Egitto"]}, {"eliminated": "1"}])
    assert response.status_code == 400
    aldo, bruno = (s.registration.player.full_name for s in table.seats.order_by("position")[:2])
    assert tr("%(territory)s is ticked for both %(a)s and %(b)s: a territory has one owner.",
              territory="Perù", a=aldo, b=bruno) in alerts(response)
    assert list(Seat.objects.filter(table=table).values_list("table_points", flat=True)) == [None] * 4
    assert not AuditLog.objects.filter(action__startswith="result.").exists()
    # The refused form comes back with every player's ticks, 42 boxes a player, each with its value.
    assert attr(response, "input[name=p0-territories][checked]", "value") == ["Brasile", "Perù"]
    assert attr(response, "input[name=p1-territories][checked]", "value") == ["Perù", "Cina"]
    assert attr(response, "input[name=p3-territories][checked]", "value") == []
    assert len(select(response, "input[name=p2-territories]")) == 42
    assert attr(response, "input[name=p2-territories][value=Egitto]", "data-value") == [str(territory("Egitto").value)]


def test_a_tie_on_the_territory_sum_is_decided_by_armies(client_for, arbiter, table):
    # Brasile 4 + Perù 3 = 7 for Aldo; Cina 7 for Bruno (values of Tab. D): tied at 7.
    assert territory("Brasile").value + territory("Perù").value == territory("Cina").value
    response = _post(client_for(arbiter), table, [
        {"territories": ["Brasile", "Perù"], "armies": "20"}, {"territories": ["Cina"], "armies": "31"},
        {"territories": ["Egitto"], "armies": "12"}, {"eliminated": "1"}])
    assert response.status_code == 302, response.content.decode()[:2000]
    seats = list(Seat.objects.filter(table=table).order_by("position"))
    assert [(s.table_points, s.armies, s.place) for s in seats[:2]] == [
        (Decimal(7), 20, 2), (Decimal(7), 31, 1)]
    entry = AuditLog.objects.get(action="result.enter", player=seats[1].registration.player)
    assert entry.after["armies"] == 31 and entry.after["place"] == 1


def test_places_by_armies_rules():
    with pytest.raises(InvalidResult) as exc:
        check_held_once({1: ["Cina"], 2: ["cina"]})
    assert exc.value.code == "territory_twice" and exc.value.player == 2
    assert places_by_armies([(1, 6, 20), (2, 6, 31), (3, 9, None), (4, 6, 31)]) == {2: 2, 4: 2, 1: 4}
    assert places_by_armies([(1, 6, None), (2, 6, 31)]) == {}
    assert places_by_armies([(1, 6, 5), (2, 6, 7)], first_place=2) == {2: 2, 1: 3}
