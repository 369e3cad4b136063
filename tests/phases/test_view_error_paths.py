"""Error paths of the formats pages reached through the pages: a Firenze sheet sent on an old or a
missing version, a semifinal plan that is not a number, final standings that cannot be computed."""
import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from phases import services as phase_services
from tables.models import Seat
from tables.standings import selectors as standings_selectors
from tests.factories import report
from tests.phases.helpers import players
from tests.phases.test_firenze import EMPTY, knockout  # noqa: F401  (the fixture)
from tests.html import alerts


def _sheet_data(table, version):
    data = {"version": version}
    for i, _seat in enumerate(table.seats.order_by("position")):
        data.update({f"p{i}-{key}": "0" for key in EMPTY})
        data[f"p{i}-objective_territories"] = str(i + 1)
    return data


@pytest.mark.parametrize("version", ["0", "", "abc"])
def test_a_sheet_sent_on_an_old_or_missing_version_shows_what_was_saved(client_for, tournament, arbiter, knockout,
                                                                        version):
    table = tournament.rounds.get(number=1).tables.get(number=1)
    report(table, [(60,), (40,), (30,), (0, 1)])  # saved meanwhile: version 1
    url = reverse("arbiter:firenze_sheet", args=[tournament.pk, 1, 1])
    response = client_for(arbiter).post(url, _sheet_data(table, version))
    assert response.status_code == 409
    assert response.context["conflict"].version == 1
    assert sorted(Seat.objects.filter(table=table).values_list("table_points", flat=True)) == [0, 30, 40, 60]
    assert not Seat.objects.filter(table=table, firenze__isnull=False).exists()


def test_a_semifinal_plan_that_is_not_a_number_draws_with_the_first_plan(client_for, tournament, organiser):
    players(tournament, 16)
    phase_services.format_apply(user=organiser, tournament=tournament, preset="knockout")
    response = client_for(organiser).post(reverse("manage:phase_action", args=[tournament.pk, 1, "draw"]),
                                          {"plan": "primo"})
    assert response.status_code == 302
    assert tournament.rounds.get().tables.count() == 4


def test_final_standings_that_cannot_be_computed_say_why_on_the_page(client, tournament, monkeypatch):
    # Only rows written outside the services (one player at both final tables) make the final order
    # impossible; the page then says why instead of failing.
    tournament.published = True
    tournament.save()

    def impossible(_tournament):
        raise ValidationError("7: plays in more than one final table")
    monkeypatch.setattr(standings_selectors, "final_standings", impossible)
    response = client.get(reverse("public:final_standings", args=[tournament.pk]))
    assert response.status_code == 200
    assert (response.context["result"], response.context["error"]) == (None, "7: plays in more than one final table")
    assert alerts(response) == ["7: plays in more than one final table"]
