"""SCORING.md 13.5: `maialino_2024` has one winner. A tie for first that the table did not settle by
place is refused when the result is entered, with the players named on the page: the arbiter chooses
who is first; nothing is saved until then. Other formulas keep a shared first place."""
from decimal import Decimal

import pytest
from django.urls import reverse

from tables.models import Seat, Table
from tables.standings.selectors import tournament_standings
from tests.factories import RegistrationFactory, seat_round
from tests.html import alerts, tr

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(tournament):
    regs = [RegistrationFactory(tournament=tournament, player__last_name=n) for n in "ABCD"]
    return seat_round(tournament, [regs]).tables.get()


def _post(client, tournament, table, values, **extra):
    data = {"version": "0", **extra}
    for i, (seat, (tp, place)) in enumerate(zip(table.seats.order_by("position"), values)):
        data.update({f"p{i}-seat": seat.pk, f"p{i}-table_points": tp, f"p{i}-place": place})
    return client.post(reverse("arbiter:table", args=[tournament.pk, 1, 1]), data)


def _tie_message(table):
    a, b = (s.registration.player.full_name for s in table.seats.order_by("position")[:2])
    return tr("%(a)s and %(b)s are tied for first, but this formula has one winner: the arbiter chooses who is "
              "first and enters it as the place (1 and 2).", a=a, b=b)


def test_a_tie_for_first_is_refused_at_entry_under_maialino_2024(client, tournament, table, arbiter):
    tournament.formula = "maialino_2024"
    tournament.save()
    client.force_login(arbiter)
    response = _post(client, tournament, table, [("45", ""), ("45", ""), ("23", ""), ("20", "")])
    assert response.status_code == 400   # refused at once: not asked as a slip to confirm
    assert response.context["forms"][0].errors["place"] == [_tie_message(table)]
    assert _tie_message(table) in " ".join(alerts(response))
    assert Table.objects.get(pk=table.pk).reported_at is None
    assert list(Seat.objects.filter(table=table).values_list("table_points", flat=True)) == [None] * 4


def test_the_tie_settled_by_place_is_saved_and_scored_200_99(client, tournament, table, arbiter):
    tournament.formula = "maialino_2024"
    tournament.save()
    client.force_login(arbiter)
    response = _post(client, tournament, table, [("45", "2"), ("45", "1"), ("23", ""), ("20", "")])
    assert response.status_code == 302
    rows = tournament_standings(tournament).rows
    assert [(r.player.last_name, r.total) for r in rows] == [
        ("B", Decimal("200")), ("A", Decimal("100")), ("C", Decimal("78")), ("D", Decimal("75"))]


def test_another_formula_keeps_a_shared_first_place(client, tournament, table, arbiter):
    tournament.formula = "bonus50"
    tournament.save()
    client.force_login(arbiter)
    asked = _post(client, tournament, table, [("45", ""), ("45", ""), ("23", ""), ("20", "")])
    assert asked.status_code == 200   # asked as a likely slip, then confirmed
    response = _post(client, tournament, table, [("45", ""), ("45", ""), ("23", ""), ("20", "")], confirmed="1")
    assert response.status_code == 302
    assert [r.total for r in tournament_standings(tournament).rows][:2] == [Decimal("70"), Decimal("70")]
