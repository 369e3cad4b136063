"""tables.clock.services and selectors: the round clock and the end roll of timed games (SCORING.md section 10)."""
import datetime

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import timezone

from tables.clock import services as clock
from tables.clock.selectors import clock_state, end_roll_state
from tables.models import Round
from tests.factories import RegistrationFactory, report, seat_round
from tests.html import one, select
from tournaments.models import AuditLog, EndRoll


@pytest.fixture
def four(tournament):
    return [RegistrationFactory(tournament=tournament, player__last_name=n) for n in "ABCD"]


@pytest.fixture
def rnd(tournament, four):
    return seat_round(tournament, [four])


@pytest.fixture
def table(rnd):
    return rnd.tables.get()


def _time_up(rnd, minutes=90):
    Round.objects.filter(pk=rnd.pk).update(clock_started_at=timezone.now() - datetime.timedelta(minutes=minutes + 1),
                                           clock_minutes=minutes)
    rnd.refresh_from_db()


def _variant(tournament, variant):
    tournament.end_roll_variant = variant
    tournament.save()


def _roll(table, user, reg=None, roll=None, skipped=False):
    return clock.end_roll_record(user=user, table=table, registration=reg, roll=roll, skipped=skipped)


def test_clock_start_sets_the_deadline_and_is_audited(rnd, organiser):
    clock.clock_start(user=organiser, rnd=rnd, minutes=105)
    rnd.refresh_from_db()
    state = clock_state(rnd, now=rnd.clock_started_at + datetime.timedelta(minutes=30))
    assert (state.minutes, state.remaining_seconds, state.expired, state.running) == (105, 75 * 60, False, True)
    assert state.deadline == rnd.clock_started_at + datetime.timedelta(minutes=105)
    entry = AuditLog.objects.get(action="clock.start")
    assert (entry.after["minutes"], entry.after["round"]) == (105, 1)


def test_clock_state_runs_out_after_the_minutes(rnd):
    _time_up(rnd)
    state = clock_state(rnd)
    assert (state.expired, state.remaining_seconds, state.running) == (True, 0, False)


def test_clock_state_before_start(rnd):
    state = clock_state(rnd)
    assert (state.started_at, state.minutes, state.deadline, state.expired) == (None, 90, None, False)


def test_clock_start_refuses_a_draft_round_and_bad_minutes(tournament, four, organiser):
    draft = seat_round(tournament, [four], status="draft")
    with pytest.raises(ValidationError):
        clock.clock_start(user=organiser, rnd=draft)
    published = seat_round(tournament, [four], number=2)
    with pytest.raises(ValidationError):
        clock.clock_start(user=organiser, rnd=published, minutes=0)


def test_clock_stop_clears_the_clock(rnd, organiser):
    with pytest.raises(ValidationError):
        clock.clock_stop(user=organiser, rnd=rnd)
    clock.clock_start(user=organiser, rnd=rnd)
    clock.clock_stop(user=organiser, rnd=rnd)
    rnd.refresh_from_db()
    assert rnd.clock_started_at is None
    assert list(AuditLog.objects.filter(action__startswith="clock.").order_by("pk")
                .values_list("action", flat=True)) == ["clock.start", "clock.stop"]


def test_end_roll_waits_for_the_time_limit(rnd, table, four, arbiter):
    clock.clock_start(user=arbiter, rnd=rnd)
    with pytest.raises(ValidationError) as exc:
        _roll(table, arbiter, four[3], 4)
    assert exc.value.messages == ["The round's time is not up yet: the end roll starts when the clock runs out."]


def test_end_roll_standard_widens_the_sums_each_extra_round(rnd, table, four, arbiter):
    _time_up(rnd)
    a, b, c, d = four
    for reg, roll in [(d, 7), (a, 8), (b, 5), (c, 9)]:   # extra round 1: only 4 ends
        assert _roll(table, arbiter, reg, roll).ends_game is False
    state = end_roll_state(table, "standard")
    assert (state.extra_round, state.ending, state.next_registration) == (2, "4 or 5", d)
    assert _roll(table, arbiter, d, 6).ends_game is False
    entry = _roll(table, arbiter, a, 5)   # extra round 2: 4 or 5 ends
    assert (entry.extra_round, entry.ends_game) == (2, True)
    assert end_roll_state(table, "standard").ended is True
    with pytest.raises(ValidationError) as exc:
        _roll(table, arbiter, b, 4)
    assert exc.value.messages == ["The game is already over: enter the table's result."]
    assert [(e.extra_round, e.roll, e.ends_game) for e in EndRoll.objects.filter(table=table)] == [
        (1, 7, False), (1, 8, False), (1, 5, False), (1, 9, False), (2, 6, False), (2, 5, True)]


def test_end_roll_first_suggests_the_last_player(rnd, table, four):
    state = end_roll_state(table, "standard")
    assert (state.extra_round, state.ending, state.next_registration, state.probability_percent) == (
        1, "4", four[3], 8.3)


def test_end_roll_or_less_ends_on_a_lower_sum(tournament, rnd, table, four, arbiter):
    _variant(tournament, "or_less")
    _time_up(rnd)
    assert end_roll_state(table, "or_less").ending == "4 or less"
    assert _roll(table, arbiter, four[3], 3).ends_game is True


def test_end_roll_lariana_ends_on_4_then_4_or_7(tournament, rnd, table, four, arbiter):
    _variant(tournament, "lariana")
    _time_up(rnd)
    assert _roll(table, arbiter, four[3], 7).ends_game is False
    for reg in four[:3]:
        _roll(table, arbiter, reg, 9)
    state = end_roll_state(table, "lariana")
    assert (state.ending, state.rounds_before_rolling) == ("4 or 7", 3)
    assert _roll(table, arbiter, four[3], 7).ends_game is True


def test_end_roll_firenze_the_arbiter_rolls_one_die(tournament, rnd, table, arbiter, four):
    _variant(tournament, "firenze")
    _time_up(rnd)
    with pytest.raises(ValidationError):
        _roll(table, arbiter, None, 8)
    first = _roll(table, arbiter, four[0], 3)
    assert (first.registration, first.extra_round, first.ends_game) == (None, 1, False)
    second = _roll(table, arbiter, None, 2)
    assert (second.extra_round, second.ends_game) == (2, True)
    assert end_roll_state(table, "firenze").ending == "1 or 2"


def test_end_roll_a_player_who_conquered_3_territories_does_not_roll(rnd, table, four, arbiter):
    _time_up(rnd)
    entry = _roll(table, arbiter, four[3], 4, skipped=True)
    assert (entry.roll, entry.ends_game) == (None, False)
    assert entry.extra_round == 1


def test_end_roll_refuses_a_player_of_another_table_and_an_impossible_sum(tournament, rnd, table, arbiter):
    _time_up(rnd)
    with pytest.raises(ValidationError) as exc:
        _roll(table, arbiter, RegistrationFactory(tournament=tournament), 4)
    assert exc.value.message_dict == {"registration": ["Choose a player of this table."]}
    with pytest.raises(ValidationError) as exc:
        _roll(table, arbiter, table.seats.first().registration, 13)
    assert exc.value.message_dict == {"roll": ["Two dice make 2 to 12."]}


def test_end_roll_is_audited_and_can_be_taken_back(rnd, table, four, arbiter):
    _time_up(rnd)
    _roll(table, arbiter, four[3], 4)
    entry = AuditLog.objects.get(action="endroll.record")
    assert (entry.after, entry.table_label, entry.player) == (
        {"extra_round": 1, "roll": 4, "skipped": False, "ends_game": True, "variant": "standard"}, "1/1",
        four[3].player)
    clock.end_roll_undo(user=arbiter, table=table)
    assert EndRoll.objects.count() == 0
    assert AuditLog.objects.get(action="endroll.undo").before["roll"] == 4
    with pytest.raises(ValidationError):
        clock.end_roll_undo(user=arbiter, table=table)


def test_end_roll_refused_once_the_table_has_its_result(rnd, table, four, arbiter):
    _time_up(rnd)
    report(table, [(50,), (40,), (30,), (20,)])
    with pytest.raises(ValidationError) as exc:
        _roll(table, arbiter, four[3], 4)
    assert exc.value.messages == ["This table already has its result."]


def test_public_clock_page_counts_down_then_shows_each_table(client, tournament, rnd, table, four, arbiter):
    url = reverse("public:clock", args=[tournament.pk])
    assert client.get(url).context["clock"].started_at is None
    clock.clock_start(user=arbiter, rnd=rnd)
    response = client.get(url)
    assert (response.context["clock"].running, "tables" in response.context) == (True, False)
    assert select(response, "[data-deadline]")
    _time_up(rnd)
    _roll(table, arbiter, four[3], 9)
    response = client.get(url, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert [(t.number, t.end_roll.extra_round, t.end_roll.ending) for t in response.context["tables"]] == [
        (1, 1, "4")]
    assert one(response, "#endroll-table-1") and select(response, "html") == []   # the htmx fragment alone


def test_public_clock_page_without_a_round(client, tournament):
    response = client.get(reverse("public:clock", args=[tournament.pk]))
    assert (response.status_code, response.context["round"]) == (200, None)


def test_table_result_page_shows_the_end_roll_when_time_is_up(client_for, tournament, rnd, table, arbiter):
    url = reverse("arbiter:table", args=[tournament.pk, 1, 1])
    client = client_for(arbiter)
    assert select(client.get(url), "#endroll-banner") == []
    _time_up(rnd)
    assert one(client.get(url), "#endroll-banner")


def test_end_roll_page_records_a_roll(client_for, tournament, rnd, table, four, arbiter):
    _time_up(rnd)
    client = client_for(arbiter)
    url = reverse("arbiter:endroll", args=[tournament.pk, 1, 1])
    page = client.get(url)
    assert page.context["form"].initial["registration"] == four[3].pk
    response = client.post(url, {"registration": str(four[3].pk), "roll": "4"})
    assert response.status_code == 302
    assert EndRoll.objects.get().ends_game is True
    page = client.get(url)
    assert one(page, "#enter-result")["href"] == reverse("arbiter:table", args=[tournament.pk, 1, 1])


def test_end_roll_page_shows_errors(client_for, tournament, rnd, table, four, arbiter):
    client = client_for(arbiter)
    url = reverse("arbiter:endroll", args=[tournament.pk, 1, 1])
    response = client.post(url, {"registration": str(four[3].pk), "roll": "4"})
    assert response.status_code == 400
    assert response.context["form"].non_field_errors() == [
        "The round's time is not up yet: the end roll starts when the clock runs out."]
    _time_up(rnd)
    response = client.post(url, {"registration": str(four[3].pk)})
    assert (response.status_code, response.context["form"].errors["roll"]) == (400, ["Enter the roll."])


def test_manage_clock_start_and_stop(client_for, tournament, rnd, organiser):
    client = client_for(organiser)
    assert client.get(reverse("manage:clock", args=[tournament.pk, 1])).status_code == 200
    response = client.post(reverse("manage:clock_action", args=[tournament.pk, 1, "start"]), {"minutes": "95"})
    assert response.status_code == 302
    rnd.refresh_from_db()
    assert (rnd.clock_minutes, rnd.clock_started_at is not None) == (95, True)
    client.post(reverse("manage:clock_action", args=[tournament.pk, 1, "stop"]))
    rnd.refresh_from_db()
    assert rnd.clock_started_at is None
    assert client.post(reverse("manage:clock_action", args=[tournament.pk, 1, "pause"])).status_code == 404


def test_clock_started_late_is_backdated_and_logged(rnd, organiser):
    started = timezone.now() - datetime.timedelta(minutes=91)
    clock.clock_start(user=organiser, rnd=rnd, minutes=90, started_at=started)
    rnd.refresh_from_db()
    assert rnd.clock_started_at == started
    assert AuditLog.objects.get(action="clock.start").after["started_at"] == started.isoformat()


def test_clock_cannot_start_in_the_future(rnd, organiser):
    with pytest.raises(ValidationError):
        clock.clock_start(user=organiser, rnd=rnd, started_at=timezone.now() + datetime.timedelta(minutes=5))
    assert not AuditLog.objects.filter(action="clock.start").exists()
