"""The rounds page while a round is open, closing a round (what is missing, confirmation) and
reopening a closed round while the next one is not drawn."""
import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from tables.rounds import services
from tables.models import Round
from tests.factories import RegistrationFactory, report
from tests.html import attr, one, select, text, tr
from tournaments.audit.labels import action_label
from tournaments.models import AuditLog, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def published(tournament, organiser):
    """Round 1 published: 20 players at 5 tables, tables 1, 3 and 4 reported."""
    for _ in range(20):
        RegistrationFactory(tournament=tournament, present=True)
    rnd = services.round_create(user=organiser, tournament=tournament, seed=5)
    services.round_publish(user=organiser, rnd=rnd)
    for table in rnd.tables.filter(number__in=[1, 3, 4]):
        report(table, [(40,), (30,), (20,), (10,)])
    return rnd


def test_rounds_page_offers_no_draw_while_round_1_is_open_and_says_3_of_5(client, organiser, tournament,
                                                                           published):
    client.force_login(organiser)
    page = client.get(reverse("manage:rounds", args=[tournament.pk]))
    assert select(page, "[name=method]") == []
    blocked = one(page, "[data-draw-blocked]")
    assert text(blocked) == " ".join([tr("Round %(next)s can be drawn once round %(n)s is closed: %(done)s/%(all)s "
                                         "results.", next=2, n=1, done=3, all=5), tr("Results")])
    assert blocked.a["href"] == reverse("manage:round_dashboard", args=[tournament.pk, 1])
    assert attr(page, "[data-results]", "data-results") == ["3/5"]


def test_rounds_page_offers_the_draw_once_the_round_is_closed(client, organiser, tournament, published):
    for table in published.tables.filter(reported_at__isnull=True):
        report(table, [(40,), (30,), (20,), (10,)])
    services.round_close(user=organiser, rnd=published)
    client.force_login(organiser)
    page = client.get(reverse("manage:rounds", args=[tournament.pk]))
    assert select(page, "[name=method]") and select(page, "[data-draw-blocked]") == []
    assert attr(page, "[data-results]", "data-results") == ["5/5"]
    # The fixed plan's field and its numbers are marked to show only for the fixed-plan method.
    assert len(select(page, "[data-show-when=method][data-show-values=fixed]")) == 2


def test_close_button_names_the_missing_tables_and_is_disabled(client, organiser, tournament, published):
    client.force_login(organiser)
    page = client.get(reverse("manage:round_dashboard", args=[tournament.pk, 1]))
    button = one(page, "#close-round")
    assert button.has_attr("disabled") and button["aria-describedby"] == "close-round-why"
    assert text(one(page, "#close-round-why")) == tr(
        "Table %(tables)s is missing.", plural="Tables %(tables)s are missing.", count=2,
        tables=tr("%(first)s and %(last)s", first="2", last="5"))


def test_close_button_asks_for_confirmation_once_every_table_is_in(client, organiser, tournament, published):
    for table in published.tables.filter(reported_at__isnull=True):
        report(table, [(40,), (30,), (20,), (10,)])
    client.force_login(organiser)
    page = client.get(reverse("manage:round_dashboard", args=[tournament.pk, 1]))
    button = one(page, "#close-round")
    assert button["data-confirm"] == tr("Close round %(n)s? Results can then only be corrected after reopening it.",
                                        n=1)
    assert not button.has_attr("disabled") and not button.has_attr("aria-describedby")
    assert select(page, "#close-round-why") == []


def _close(organiser, rnd):
    for table in rnd.tables.filter(reported_at__isnull=True):
        report(table, [(40,), (30,), (20,), (10,)])
    return services.round_close(user=organiser, rnd=rnd)


def test_a_closed_round_is_reopened_by_the_organiser_audited(client, organiser, tournament, published):
    _close(organiser, published)
    services.standings_publish(user=organiser, rnd=published)
    client.force_login(organiser)
    page = client.get(reverse("manage:round_dashboard", args=[tournament.pk, 1]))
    assert one(page, "#reopen-round")
    response = client.post(reverse("manage:round_action", args=[tournament.pk, 1, "reopen"]))
    assert response.status_code == 302
    published.refresh_from_db()
    assert (published.status, published.closed_at, published.standings_published_at) == (
        Round.Status.PUBLISHED, None, None)
    entry = AuditLog.objects.get(action="round.reopen")
    assert entry.user == organiser and entry.before["status"] == "closed" and entry.before["standings_published_at"]
    assert entry.after["status"] == "published"
    assert action_label("round.reopen") == "Round reopened"


def test_no_reopening_once_the_next_round_is_drawn(client, organiser, tournament, published):
    _close(organiser, published)
    services.round_create(user=organiser, tournament=tournament, seed=6)
    with pytest.raises(ValidationError) as exc:
        services.round_reopen(user=organiser, rnd=published)
    assert exc.value.messages == ["Round 2 is already drawn: round 1 can no longer be reopened."]
    client.force_login(organiser)
    page = client.get(reverse("manage:round_dashboard", args=[tournament.pk, 1]))
    assert page.status_code == 200 and select(page, "#reopen-round") == []


def test_an_open_round_is_not_reopened(organiser, published):
    with pytest.raises(ValidationError):
        services.round_reopen(user=organiser, rnd=published)
    assert not AuditLog.objects.filter(action="round.reopen").exists()


def test_an_arbiter_cannot_reopen(client, arbiter, tournament, organiser, published):
    _close(organiser, published)
    client.force_login(arbiter)
    response = client.post(reverse("manage:round_action", args=[tournament.pk, 1, "reopen"]))
    assert response.status_code in (403, 404)
    published.refresh_from_db()
    assert published.status == Round.Status.CLOSED


@pytest.mark.parametrize("arbiters, published, expected", [
    (False, False, ["The tournament has no arbiter", "The tournament is not published"]),
    (True, False, ["The tournament is not published"]),
    (False, True, ["The tournament has no arbiter"]),
    (True, True, []),
])
def test_publishing_the_tables_warns_of_no_arbiter_or_an_unpublished_tournament(
        client, organiser, tournament, arbiters, published, expected):
    for _ in range(8):
        RegistrationFactory(tournament=tournament, present=True)
    if not arbiters:
        tournament.arbiters.clear()
    Tournament.objects.filter(pk=tournament.pk).update(published=published)
    services.round_create(user=organiser, tournament=tournament, seed=1)
    client.force_login(organiser)
    response = client.post(reverse("manage:round_action", args=[tournament.pk, 1, "publish"]), follow=True)
    warnings = [str(m) for m in response.context["messages"] if m.level_tag == "warning"]
    assert [w for w in warnings if w.startswith("The tournament ")] == [
        w for e in expected for w in warnings if w.startswith(e)]
    assert len([w for w in warnings if w.startswith("The tournament ")]) == len(expected)
