"""The Firenze sheet's points per conquered continent (SCORING.md 8.1): an organiser setting on the
format page (default 0, audited, frozen once a sheet is saved) and a count on the arbiter's sheet."""
from decimal import Decimal

from django.urls import reverse

from tables.models import Seat
from tests.phases.test_firenze import EMPTY, _round1, _sheet, knockout  # noqa: F401 (fixture)
from tournaments.models import AuditLog
from tests.html import field_errors, one, select, text, tr


def _set(client, tournament, points):
    return client.post(reverse("manage:formats", args=[tournament.pk]), {"form": "continents", "points": points})


def test_default_is_zero_and_the_setting_is_audited(tournament, organiser, client_for, knockout):
    assert tournament.firenze_continent_points == Decimal("0")
    client = client_for(organiser)
    page = client.get(reverse("manage:formats", args=[tournament.pk]))
    assert one(page, "[data-firenze-continents] input[name=points]")
    assert _set(client, tournament, "10").status_code == 302
    tournament.refresh_from_db()
    assert tournament.firenze_continent_points == Decimal("10")
    entry = AuditLog.objects.get(action="format.firenze_continents")
    assert (entry.before, entry.after) == ({"firenze_continent_points": "0"}, {"firenze_continent_points": "10"})


def test_a_negative_value_is_refused_on_the_page(tournament, organiser, client_for, knockout, english_messages):
    response = _set(client_for(organiser), tournament, "-5")
    assert response.status_code == 400
    assert field_errors(response, "points") == [
        tr("Ensure this value is greater than or equal to %(limit_value)s.", limit_value=0)]
    tournament.refresh_from_db()
    assert tournament.firenze_continent_points == 0


def test_the_sheet_counts_continents_at_the_organisers_value(tournament, organiser, arbiter, client_for, knockout):
    client = client_for(organiser)
    assert _set(client, tournament, "20").status_code == 302
    table = _round1(tournament).tables.get(number=1)
    a, b, c, d = (s.registration.player.last_name for s in table.seats.order_by("position"))
    arbiter_client = client_for(arbiter)
    url = reverse("arbiter:firenze_sheet", args=[tournament.pk, 1, table.number])
    sheet = arbiter_client.get(url)
    boxes = select(sheet, "input[name$=continents]")
    assert len(boxes) == 4 and {text(one(sheet, f"label[for={box['id']}]")) for box in boxes} == {
        tr("Continents conquered (%(points)s each, set by the organiser)", points=20)}
    response = _sheet(arbiter_client, table, {
        a: {"objective_territories": 10, "continents": 0},         # 350
        b: {"objective_territories": 9, "continents": 2},          # 315 + 40 = 355: b wins
        c: {"objective_territories": 1, "continents": 1},          # 35 + 20 = 55
    })
    assert response.status_code == 302
    seats = {s.registration.player.last_name: s for s in Seat.objects.filter(table=table)}
    assert [(seats[n].table_points, seats[n].place) for n in (a, b, c, d)] == [
        (Decimal("350"), 2), (Decimal("355"), 1), (Decimal("55"), 3), (Decimal("0"), 4)]
    assert seats[b].firenze["continents"] == 2
    # Once a sheet is saved the value is frozen: the sheets already counted would not add up.
    response = _set(client_for(organiser), tournament, "5")
    assert response.status_code == 400
    tournament.refresh_from_db()
    assert tournament.firenze_continent_points == Decimal("20")


def test_more_than_six_continents_is_refused(tournament, arbiter, client_for, knockout):
    table = _round1(tournament).tables.get(number=1)
    a = table.seats.order_by("position").first().registration.player.last_name
    response = _sheet(client_for(arbiter), table, {a: {"continents": 7}})
    assert response.status_code == 400
    assert not Seat.objects.filter(table=table, firenze__isnull=False).exists()
