"""Pages of formats: choose a format, play the phases from the page, bracket, final standings."""
import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from phases import draw
from phases import selectors as phase_selectors
from phases import services as phase_services
from tables.models import Round
from tests.factories import TournamentFactory
from tests.phases.helpers import players, report_by_strength, strength_of
from tests.html import one


def _phase_post(client, tournament, order, action, data=None):
    return client.post(reverse("manage:phase_action", args=[tournament.pk, order, action]), data or {})


def test_formats_page_applies_a_preset(client_for, tournament, organiser):
    client = client_for(organiser)
    url = reverse("manage:formats", args=[tournament.pk])
    assert client.get(url).status_code == 200
    response = client.post(url, {"form": "format", "preset": "evenings_final", "games": "4", "discards": "1",
                                 "finalina": "on"})
    assert response.status_code == 302
    assert [(p.kind, p.rounds) for p in tournament.phases.order_by("order")] == [
        ("qualifying", 4), ("final", 1), ("finalina", 0)]
    page = client.get(url)
    assert [v.phase.name for v in page.context["phases"]] == ["Qualifying rounds", "Final", "Finalina (5th-8th)"]


def test_formats_page_shows_the_errors_of_a_preset(client_for, tournament, organiser):
    response = client_for(organiser).post(reverse("manage:formats", args=[tournament.pk]), {
        "form": "format", "preset": "evenings_final", "games": "9"})
    assert response.status_code == 400
    assert response.context["form"].errors == {"games": ["This format plays 4 to 6 games."]}


def test_formats_page_sets_the_end_roll_variant(client_for, tournament, organiser):
    response = client_for(organiser).post(reverse("manage:formats", args=[tournament.pk]), {
        "form": "endroll", "variant": "firenze"})
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert tournament.end_roll_variant == "firenze"


def test_organiser_plays_a_final_from_the_formats_page(client_for, tournament, organiser):
    regs = players(tournament, 8)
    strength = strength_of(regs)
    client = client_for(organiser)
    client.post(reverse("manage:formats", args=[tournament.pk]), {"form": "format", "preset": "sum3_final"})
    tournament.refresh_from_db()
    for _i in range(3):
        assert _phase_post(client, tournament, 1, "draw").status_code == 302
        _phase_post(client, tournament, 1, "publish")
        report_by_strength(tournament.rounds.order_by("-number").first(), strength)
        _phase_post(client, tournament, 1, "close")
    _phase_post(client, tournament, 2, "draw")
    final = tournament.rounds.get(number=4)
    assert (final.phase.kind, final.status) == ("final", Round.Status.DRAFT)
    _phase_post(client, tournament, 2, "publish")
    report_by_strength(final, strength)
    _phase_post(client, tournament, 2, "close")
    assert [v.status for v in phase_selectors.phases_overview(tournament)] == ["done", "done"]
    bracket = client.get(reverse("manage:bracket", args=[tournament.pk]))
    assert bracket.status_code == 200
    assert [t.label for t in bracket.context["phases"][1].rounds[0].tables] == ["Final"]
    standings = client.get(reverse("public:final_standings", args=[tournament.pk]))
    assert standings.context["result"].complete is True
    assert one(standings, "#final-standings")


def test_phase_action_reports_what_is_missing(client_for, tournament, organiser):
    players(tournament, 8)
    phase_services.format_apply(user=organiser, tournament=tournament, preset="sum3_final")
    client = client_for(organiser)
    response = _phase_post(client, tournament, 2, "draw")
    assert response.status_code == 302
    messages = [str(m) for m in response.wsgi_request._messages]
    assert messages == ["Finish the earlier phases first."]
    assert _phase_post(client, tournament, 2, "shuffle").status_code == 404
    assert _phase_post(client, tournament, 9, "draw").status_code == 404


def test_final_standings_page_of_an_unpublished_tournament_is_404(client, organiser):
    hidden = TournamentFactory(organiser=organiser, published=False)
    assert client.get(reverse("public:final_standings", args=[hidden.pk])).status_code == 404


@pytest.mark.parametrize("name", ["public:final_standings", "public:team_standings", "public:clock"])
def test_public_format_pages_do_not_grow_queries_with_players(client, tournament, organiser, name):
    def count(n):
        t = TournamentFactory(organiser=organiser)
        regs = players(t, n)
        phase_services.format_apply(user=organiser, tournament=t, preset="sum3_final")
        first = draw.phase_draw(user=organiser, phase=t.phases.get(order=1), seed=1)
        from tables.rounds import services as table_services
        table_services.round_publish(user=organiser, rnd=first)
        report_by_strength(first, strength_of(regs))
        with CaptureQueriesContext(connection) as queries:
            assert client.get(reverse(name, args=[t.pk])).status_code == 200
        return len(queries)
    assert count(4) == count(16)
