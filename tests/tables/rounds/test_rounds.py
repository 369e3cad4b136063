import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from tables.rounds import services
from tables.models import Round, Seat
from tests.factories import ClubFactory, RegistrationFactory, report, seat_round
from tests.html import select
from tournaments.models import AuditLog


@pytest.fixture
def present(tournament):
    clubs = [ClubFactory(name=f"Club {c}") for c in "ABCD"]
    return [RegistrationFactory(tournament=tournament, present=True, player__club=clubs[i % 4]) for i in range(16)]


def test_round_create_seats_every_present_player_keeping_clubs_apart(tournament, organiser, present):
    rnd = services.round_create(user=organiser, tournament=tournament, method="random", seed=3)
    seats = list(Seat.objects.filter(table__round=rnd).select_related("registration__player__club", "table"))
    assert sorted(s.registration_id for s in seats) == sorted(r.pk for r in present)
    assert sorted(rnd.tables.values_list("number", flat=True)) == [1, 2, 3, 4]
    for table in rnd.tables.all():
        clubs = [s.registration.player.club_id for s in table.seats.all()]
        assert len(set(clubs)) == len(clubs)
    entry = AuditLog.objects.get(action="round.draw")
    assert entry.after["penalties"] == {"same_club_pairs": 0, "repeat_pairs": 0, "max_meetings": 1,
                                        "repeat_fives": 0}


def test_same_seed_same_draw(tournament, organiser, present):
    first = services.round_create(user=organiser, tournament=tournament, seed=11)
    tables = [sorted(t.seats.values_list("registration_id", flat=True)) for t in first.tables.all()]
    services.round_redraw(user=organiser, rnd=first, seed=11)
    again = [sorted(t.seats.values_list("registration_id", flat=True)) for t in first.tables.all()]
    assert again == tables


def test_second_round_avoids_rematches(tournament, organiser, present):
    rnd = services.round_create(user=organiser, tournament=tournament, seed=1)
    services.round_publish(user=organiser, rnd=rnd)
    for table in rnd.tables.all():
        report(table, [(40,), (30,), (20,), (0, 1)])
    services.round_close(user=organiser, rnd=rnd)
    second = services.round_create(user=organiser, tournament=tournament, seed=2)
    met = {frozenset((a, b)) for t in rnd.tables.all() for a in t.seats.values_list("registration_id", flat=True)
           for b in t.seats.values_list("registration_id", flat=True) if a != b}
    again = [frozenset((a, b)) for t in second.tables.all()
             for a in t.seats.values_list("registration_id", flat=True)
             for b in t.seats.values_list("registration_id", flat=True) if a < b]
    assert [pair for pair in again if pair in met] == []


def test_next_round_refused_while_one_is_open(tournament, organiser, present):
    services.round_create(user=organiser, tournament=tournament)
    with pytest.raises(ValidationError) as exc:
        services.round_create(user=organiser, tournament=tournament)
    assert exc.value.messages == ["Close the current round before drawing the next one."]


def test_swap_on_a_round_with_results_needs_confirmation_and_voids_results(tournament, organiser, present):
    rnd = seat_round(tournament, [present[:4], present[4:8]])
    report(rnd.tables.get(number=1), [(40,), (30,), (20,), (0, 1)])
    a = Seat.objects.get(table__round=rnd, table__number=1, position=1)
    b = Seat.objects.get(table__round=rnd, table__number=2, position=1)
    with pytest.raises(ValidationError):
        services.seats_swap(user=organiser, rnd=rnd, seat_a=a.pk, seat_b=b.pk)
    assert Seat.objects.get(pk=a.pk).table.number == 1
    services.seats_swap(user=organiser, rnd=rnd, seat_a=a.pk, seat_b=b.pk, confirm=True)
    table1 = rnd.tables.get(number=1)
    assert (Seat.objects.get(pk=a.pk).table.number, table1.reported_at) == (2, None)
    assert list(table1.seats.values_list("table_points", flat=True)) == [None] * 4
    assert AuditLog.objects.get(action="round.swap").after["confirmed"] is True


def test_reseat_adds_a_late_arrival_and_keeps_the_rest(tournament, organiser, present):
    rnd = services.round_create(user=organiser, tournament=tournament, seed=5)
    before = {s.registration_id: s.table.number for s in Seat.objects.filter(table__round=rnd).select_related("table")}
    late = [RegistrationFactory(tournament=tournament, present=True) for _ in range(4)]
    services.round_reseat(user=organiser, rnd=rnd)
    after = {s.registration_id: s.table.number for s in Seat.objects.filter(table__round=rnd).select_related("table")}
    assert set(after) == set(before) | {r.pk for r in late}
    kept = sum(1 for reg, table in before.items() if after[reg] == table)
    assert kept >= 12


def test_publish_refuses_a_table_of_two(tournament, organiser, present):
    rnd = seat_round(tournament, [present[:4], present[4:6]], status="draft")
    with pytest.raises(ValidationError) as exc:
        services.round_publish(user=organiser, rnd=rnd)
    assert exc.value.messages == ["Table 2 has 2 players: tables need 3 to 6."]
    assert Round.objects.get(pk=rnd.pk).status == Round.Status.DRAFT


def test_draw_page_with_too_few_players_shows_a_message(client, tournament, organiser):
    RegistrationFactory(tournament=tournament, present=True)
    client.force_login(organiser)
    response = client.post(reverse("manage:rounds", args=[tournament.pk]), {"method": "random"})
    assert response.context["form"].non_field_errors() == ["At least 3 players must be checked in to draw a round: 1 is."]
    assert Round.objects.count() == 0


def test_draw_page_sizes_must_match_the_players_present(client, tournament, organiser, present):
    client.force_login(organiser)
    response = client.post(reverse("manage:rounds", args=[tournament.pk]), {"method": "random", "sizes": "5,5,4"})
    assert response.context["form"].errors["sizes"] == ["The sizes add up to 14, but 16 players are present."]


def test_tap_two_names_swaps_them(client, tournament, organiser, present):
    rnd = seat_round(tournament, [present[:4], present[4:8]], status="draft")
    a = Seat.objects.get(table__round=rnd, table__number=1, position=1)
    b = Seat.objects.get(table__round=rnd, table__number=2, position=2)
    client.force_login(organiser)
    url = reverse("manage:seat_tap", args=[tournament.pk, 1])
    first = client.post(url, {"seat": a.pk}, HTTP_HX_REQUEST="true")
    assert client.session[f"seat-selected-{rnd.pk}"] == a.pk
    [pressed] = select(first, "button[aria-pressed=true]")
    assert pressed.find_parent("form").find("input", attrs={"name": "seat"})["value"] == str(a.pk)
    second = client.post(url, {"seat": b.pk}, HTTP_HX_REQUEST="true")
    assert f"seat-selected-{rnd.pk}" not in client.session
    assert select(second, "button[aria-pressed=true]") == [] and len(select(second, "button[aria-pressed=false]")) == 8
    assert (Seat.objects.get(pk=a.pk).table.number, Seat.objects.get(pk=b.pk).table.number) == (2, 1)


def test_confirmed_swap_logs_the_results_it_erases(tournament, organiser, present):
    rnd = seat_round(tournament, [present[:4], present[4:8]])
    report(rnd.tables.get(number=1), [(40,), (30,), (20,), (0, 1)])
    a = Seat.objects.get(table__round=rnd, table__number=1, position=1)
    b = Seat.objects.get(table__round=rnd, table__number=2, position=1)
    names = [s.registration.player.full_name for s in rnd.tables.get(number=1).seats.order_by("position")]
    services.seats_swap(user=organiser, rnd=rnd, seat_a=a.pk, seat_b=b.pk, confirm=True)
    entry = AuditLog.objects.get(action="round.swap")
    assert list(entry.before["results"]) == ["1/1"]
    assert [(name, r["table_points"], r["eliminated"]) for name, r in entry.before["results"]["1/1"].items()] == \
        [(names[0], "40", None), (names[1], "30", None), (names[2], "20", None), (names[3], "0", 1)]
    assert entry.after["results"] == {"1/1": {name: None for name in names}}


def test_confirmed_move_logs_the_results_it_erases(tournament, organiser, present):
    rnd = seat_round(tournament, [present[:5], present[5:8]])
    report(rnd.tables.get(number=1), [(40,), (30,), (20,), (10,), (0, 1)])
    report(rnd.tables.get(number=2), [(50,), (30,), (0, 1)])
    seat = Seat.objects.get(table__round=rnd, table__number=1, position=5)
    services.seat_move(user=organiser, rnd=rnd, seat=seat.pk, table_number=2, confirm=True)
    entry = AuditLog.objects.get(action="round.move")
    assert sorted(entry.before["results"]) == ["1/1", "1/2"]
    assert [r["table_points"] for r in entry.before["results"]["1/2"].values()] == ["50", "30", "0"]
    assert entry.before["table"] == 1 and entry.after["table"] == 2
    assert set(entry.after["results"]["1/1"].values()) == {None}


def test_swap_without_results_logs_no_results(tournament, organiser, present):
    rnd = seat_round(tournament, [present[:4], present[4:8]])
    a = Seat.objects.get(table__round=rnd, table__number=1, position=1)
    b = Seat.objects.get(table__round=rnd, table__number=2, position=1)
    services.seats_swap(user=organiser, rnd=rnd, seat_a=a.pk, seat_b=b.pk)
    entry = AuditLog.objects.get(action="round.swap")
    assert "results" not in entry.before and "results" not in entry.after


@pytest.mark.parametrize("service, status, wrong, action, stamped", [
    (services.round_publish, "draft", "published", "round.publish", "published_at"),
    (services.round_close, "published", "draft", "round.close", "closed_at"),
    (services.standings_publish, "closed", "published", "standings.publish", "standings_published_at"),
])
def test_each_round_step_stamps_saves_and_logs_once(tournament, organiser, present, service, status, wrong, action,
                                                    stamped):
    refused = seat_round(tournament, [present[4:8]], status=wrong, number=2)
    with pytest.raises(ValidationError):
        service(user=organiser, rnd=refused)
    refused.refresh_from_db()
    assert (refused.status, getattr(refused, stamped)) == (wrong, None)
    assert not AuditLog.objects.filter(action=action).exists()
    rnd = seat_round(tournament, [present[:4]], status=status, number=1)
    if status == "published":
        report(rnd.tables.get(), [(40,), (30,), (20,), (0, 1)])
    service(user=organiser, rnd=rnd)
    rnd.refresh_from_db()
    assert getattr(rnd, stamped) is not None
    entry = AuditLog.objects.get(action=action)
    assert entry.after["round"] == 1 and entry.object_id == str(rnd.pk)
