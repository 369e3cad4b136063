"""Every screen of the room follows the live channel, and keeps polling without it: the standings
their htmx poll, the big screen its own poll, the player's page (with "my table"), the widget, the
organiser's results dashboard and the arbiter's round list refreshed by static/js/live.js every
data-live-poll seconds while the channel is not open."""
import pytest
from django.urls import reverse

from tests.factories import RegistrationFactory, report, seat_round
from tests.html import one, select


@pytest.fixture
def round_(tournament):
    regs = [RegistrationFactory(tournament=tournament, player__last_name=n) for n in "ABCDEFGH"]
    return seat_round(tournament, [regs[:4], regs[4:]])


def attr(page, css, name):
    return one(page, css).get(name)


def _channel(tournament):
    return reverse("public:live", args=[tournament.pk])


def test_the_standings_poll_and_refresh_on_each_event(client, tournament, round_):
    page = client.get(reverse("public:standings", args=[tournament.pk])).content
    triggers = [t.strip() for t in attr(page, "#standings", "hx-trigger").split(",")]
    assert triggers == ["every 15s", "live"]
    assert attr(page, "#standings", "data-live-src") == _channel(tournament)
    assert one(page, "script[src$='js/live.js']") is not None


def test_the_big_screen_polls_and_listens(client, tournament):
    page = client.get(reverse("public:screen", args=[tournament.pk])).content
    assert attr(page, "body", "data-poll") == "15"
    assert attr(page, "body", "data-live-src") == _channel(tournament)
    assert one(page, "script[src$='js/live.js']") is not None


def test_the_players_page_and_my_table_refresh_by_the_channel_or_every_15_s(client, tournament, round_):
    reg = round_.tables.get(number=1).seats.first().registration
    page = client.get(reverse("public:player", args=[tournament.pk, reg.pk])).content
    assert attr(page, "#player-live", "hx-trigger") == "live"
    assert attr(page, "#player-live", "hx-select") == "#player-live"
    assert attr(page, "#player-live", "data-live-poll") == "15"
    assert one(page, "#player-live [data-my-table]") is not None


def test_the_widget_has_no_meta_refresh_and_follows_the_channel(client, tournament, round_):
    page = client.get(reverse("public:standings_widget", args=[tournament.pk])).content
    assert select(page, "meta[http-equiv=refresh]") == []
    assert attr(page, "#widget-live", "hx-trigger") == "live"
    assert attr(page, "#widget-live", "data-live-poll") == "15"
    assert attr(page, "#widget-live", "data-live-src") == _channel(tournament)


def test_the_results_dashboard_refreshes_itself(client_for, organiser, tournament, round_):
    client = client_for(organiser)
    url = reverse("manage:round_dashboard", args=[tournament.pk, round_.number])
    page = client.get(url).content
    assert attr(page, "#round-dashboard", "hx-get") == url
    assert attr(page, "#round-dashboard", "hx-trigger") == "live"
    assert one(page, "#round-dashboard[data-live-poll]") is not None
    assert one(page, "#round-dashboard #close-round[disabled]") is not None
    for table in round_.tables.all():
        report(table, [(40,), (30,), (20,), (0, 1)])
    assert select(client.get(url, headers={"HX-Request": "true"}).content, "#round-dashboard #close-round[disabled]") == []


def test_the_arbiters_round_list_follows_the_channel(client_for, arbiter, tournament, round_):
    page = client_for(arbiter).get(reverse("arbiter:home", args=[tournament.pk])).content
    assert attr(page, "[data-round-tables]", "data-live-src") == _channel(tournament)
    assert one(page, "[data-round-tables][data-live-poll]") is not None
    assert one(page, "script[src$='js/live.js']") is not None
