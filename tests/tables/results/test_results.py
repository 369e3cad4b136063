from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from tables import engine
from tables.results import services as results
from tables.rounds import services
from tables.models import Round, Seat, Table
from tables.standings.selectors import tournament_standings
from tests.factories import RegistrationFactory, report, seat_round
from tests.html import alerts, one, tr
from tournaments.models import AuditLog


@pytest.fixture
def four(tournament):
    return [RegistrationFactory(tournament=tournament, player__last_name=n) for n in "ABCD"]


@pytest.fixture
def table(tournament, four):
    return seat_round(tournament, [four]).tables.get()


def _lines(table, values):
    seats = list(table.seats.order_by("position"))
    return [results.ResultLine(seat_id=s.pk, table_points=Decimal(tp), eliminated=el)
            for s, (tp, el) in zip(seats, values)]


def test_result_saved_and_standings_follow_conversione150(tournament, table, arbiter):
    results.table_result_submit(user=arbiter, table=table, version=0,
                                 lines=_lines(table, [(62, None), (48, None), (30, None), (0, 1)]))
    rows = tournament_standings(tournament).rows
    assert [(r.rank, r.player.last_name, r.total) for r in rows] == [
        (1, "A", Decimal("150.14")), (2, "B", Decimal("86")), (3, "C", Decimal("60")), (4, "D", Decimal("10"))]


def test_result_breaking_a_rule_names_the_player_and_saves_nothing(table, arbiter):
    with pytest.raises(engine.ResultError) as exc:
        results.table_result_submit(user=arbiter, table=table, version=0,
                                     lines=_lines(table, [(62, None), (48, None), (30, 1), (0, 2)]))
    assert exc.value.message == f"{table.seats.get(position=3).registration.player.full_name}: " \
        "eliminated players hold 0 table points"
    assert exc.value.field == "table_points"
    table.refresh_from_db()
    assert (table.version, table.reported_at) == (0, None)
    assert list(Seat.objects.filter(table=table).values_list("table_points", flat=True)) == [None] * 4
    assert AuditLog.objects.filter(action__startswith="result.").count() == 0


def test_stale_version_is_refused_and_keeps_the_first_save(table, arbiter, organiser):
    results.table_result_submit(user=arbiter, table=table, version=0,
                                 lines=_lines(table, [(62, None), (48, None), (30, None), (0, 1)]))
    with pytest.raises(results.StaleResult) as exc:
        results.table_result_submit(user=organiser, table=table, version=0,
                                     lines=_lines(table, [(10, None), (48, None), (30, None), (0, 1)]))
    assert exc.value.table.reported_by == arbiter
    assert list(table.seats.order_by("position").values_list("table_points", flat=True)) == \
        [Decimal("62"), Decimal("48"), Decimal("30"), Decimal("0")]


def test_correction_is_logged_with_old_and_new_values(tournament, table, arbiter):
    results.table_result_submit(user=arbiter, table=table, version=0,
                                 lines=_lines(table, [(62, None), (48, None), (30, None), (0, 1)]))
    results.table_result_submit(user=arbiter, table=table, version=1,
                                 lines=_lines(table, [(40, None), (48, None), (30, None), (0, 1)]))
    entry = AuditLog.objects.get(action="result.correct")
    assert (entry.before["table_points"], entry.after["table_points"]) == ("62", "40")
    assert entry.table_label == "1/1"
    rows = tournament_standings(tournament).rows
    assert [(r.player.last_name, r.total) for r in rows][:2] == [("B", Decimal("150.08")), ("A", Decimal("92"))]


def test_result_on_draft_round_is_refused(tournament, four, arbiter):
    table = seat_round(tournament, [four], status="draft").tables.get()
    with pytest.raises(ValidationError):
        results.table_result_submit(user=arbiter, table=table, version=0,
                                     lines=_lines(table, [(62, None), (48, None), (30, None), (0, 1)]))


def test_result_page_shows_field_error_next_to_the_player(client, tournament, table, arbiter):
    client.force_login(arbiter)
    seats = list(table.seats.order_by("position"))
    data = {"version": "0"}
    for i, (seat, (tp, el)) in enumerate(zip(seats, [(62, ""), (48, ""), (30, ""), (5, "1")])):
        data.update({f"p{i}-seat": seat.pk, f"p{i}-table_points": tp, f"p{i}-eliminated": el})
    response = client.post(reverse("arbiter:table", args=[tournament.pk, 1, 1]), data)
    assert response.status_code == 400
    form = response.context["forms"][3]
    assert form.errors["table_points"] == ["eliminated players hold 0 table points"]
    assert Table.objects.get(pk=table.pk).reported_at is None


def test_result_page_conflict_shows_what_the_other_arbiter_saved(client, tournament, table, arbiter, organiser):
    report(table, [(62,), (48,), (30,), (0, 1)], user=organiser)
    client.force_login(arbiter)
    seats = list(table.seats.order_by("position"))
    data = {"version": "0"}
    for i, (seat, tp) in enumerate(zip(seats, [10, 20, 30, 40])):
        data.update({f"p{i}-seat": seat.pk, f"p{i}-table_points": tp})
    response = client.post(reverse("arbiter:table", args=[tournament.pk, 1, 1]), data)
    assert response.status_code == 409
    assert tr("%(who)s saved this table while you were typing: your result was not saved. This is what is saved "
              "now:", who="olga") in alerts(response)
    assert list(table.seats.order_by("position").values_list("table_points", flat=True))[0] == Decimal("62")


def test_territories_ticked_fill_the_table_points(client, tournament, table, arbiter):
    client.force_login(arbiter)
    seats = list(table.seats.order_by("position"))
    data = {"version": "0"}
    for i, (seat, tp) in enumerate(zip(seats, ["", "48", "30", "0"])):
        data.update({f"p{i}-seat": seat.pk, f"p{i}-table_points": tp})
    data["p3-eliminated"] = "1"
    data["p0-territories"] = ["Ontario", "Europa Meridionale", "Alaska"]
    response = client.post(reverse("arbiter:table", args=[tournament.pk, 1, 1]), data)
    assert response.status_code == 302
    first = Seat.objects.get(pk=seats[0].pk)
    assert (first.table_points, first.territories) == (Decimal("15"), ["Ontario", "Europa Meridionale", "Alaska"])


def test_close_round_refused_while_tables_are_missing(tournament, four, organiser):
    more = [RegistrationFactory(tournament=tournament) for _ in range(4)]
    rnd = seat_round(tournament, [four, more])
    report(rnd.tables.get(number=1), [(62,), (48,), (30,), (0, 1)])
    with pytest.raises(ValidationError) as exc:
        services.round_close(user=organiser, rnd=rnd)
    assert exc.value.messages == ["Tables still without a result: 2."]
    report(rnd.tables.get(number=2), [(62,), (48,), (30,), (0, 1)])
    services.round_close(user=organiser, rnd=rnd)
    assert Round.objects.get(pk=rnd.pk).status == Round.Status.CLOSED


def _tournament_with(players, rounds, tournament):
    regs = [RegistrationFactory(tournament=tournament) for _ in range(players)]
    for r in range(rounds):
        shift = regs[r:] + regs[:r]
        rnd = seat_round(tournament, [shift[i:i + 4] for i in range(0, players, 4)])
        for table in rnd.tables.all():
            report(table, [(40,), (30,), (20,), (0, 1)])


@pytest.mark.parametrize("players", [12, 200])
def test_standings_page_queries_do_not_grow_with_players(players, tournament, client, django_assert_num_queries):
    _tournament_with(players, 2, tournament)
    from django.core.cache import cache
    cache.clear()  # a full render: the results version read from the database, the standings computed
    with django_assert_num_queries(7):
        response = client.get(reverse("public:standings", args=[tournament.pk]))
    assert response.status_code == 200


def _post(client, tournament, table, values, version="0"):
    data = {"version": version}
    for i, (seat, tp) in enumerate(zip(table.seats.order_by("position"), values)):
        data.update({f"p{i}-seat": seat.pk, f"p{i}-table_points": tp})
    return client.post(reverse("arbiter:table", args=[tournament.pk, 1, 1]), data)


def test_empty_result_form_is_refused_and_saves_nothing(client, tournament, table, arbiter):
    client.force_login(arbiter)
    response = _post(client, tournament, table, ["", "", "", ""])
    assert response.status_code == 400
    first = table.seats.get(position=1).registration.player.full_name
    assert response.context["errors"] == [f"enter the table points of {first}"]
    assert response.context["forms"][0].errors["table_points"] == [f"enter the table points of {first}"]
    assert Table.objects.get(pk=table.pk).reported_at is None
    assert list(table.seats.values_list("table_points", flat=True)) == [None] * 4
    assert not AuditLog.objects.filter(action__startswith="result.").exists()
    assert tournament_standings(tournament).rows == []


def test_one_blank_table_points_names_that_player(client, tournament, table, arbiter):
    client.force_login(arbiter)
    response = _post(client, tournament, table, ["62", "48", "", "0"])
    assert response.status_code == 400
    third = table.seats.get(position=3).registration.player.full_name
    assert response.context["forms"][2].errors["table_points"] == [f"enter the table points of {third}"]
    assert Table.objects.get(pk=table.pk).reported_at is None


def test_blank_table_points_are_asked_in_italian(client, tournament, table, arbiter, settings):
    settings.LANGUAGE_CODE = "it"
    client.force_login(arbiter)
    response = _post(client, tournament, table, ["62", "", "30", "10"])
    second = table.seats.get(position=2).registration.player.full_name
    assert f"inserisci i punti tavolo di {second}" in response.content.decode()


def test_blank_table_points_of_an_eliminated_or_risiko_player_count_as_0(tournament, table, arbiter):
    seats = list(table.seats.order_by("position"))
    lines = [results.ResultLine(seat_id=seats[0].pk, table_points=None, risiko=True),
             results.ResultLine(seat_id=seats[1].pk, table_points=Decimal(20)),
             results.ResultLine(seat_id=seats[2].pk, table_points=Decimal(10)),
             results.ResultLine(seat_id=seats[3].pk, table_points=None, eliminated=1)]
    results.table_result_submit(user=arbiter, table=table, version=0, lines=lines)
    assert list(table.seats.order_by("position").values_list("table_points", flat=True)) == \
        [Decimal(0), Decimal(20), Decimal(10), Decimal(0)]


def test_conflict_form_holds_the_saved_values_not_the_rejected_ones(client, tournament, table, arbiter, organiser):
    report(table, [(62,), (48,), (30,), (0, 1)], user=organiser)
    client.force_login(arbiter)
    response = _post(client, tournament, table, ["10", "20", "30", "40"])
    assert response.status_code == 409
    forms = response.context["forms"]
    assert not any(f.is_bound for f in forms)
    assert [f["table_points"].value() for f in forms] == [Decimal("62"), Decimal("48"), Decimal("30"), Decimal("0")]
    assert forms[3]["eliminated"].value() == 1
    assert one(response, "input[name=version]")["value"] == "1"
    assert [(s.table_points, mine.table_points) for s, mine in response.context["conflict"].rows] == [
        (Decimal("62"), Decimal("10")), (Decimal("48"), Decimal("20")), (Decimal("30"), Decimal("30")),
        (Decimal("0"), Decimal("40"))]
    # A second tap on "Save" sends the saved values again: nothing of the rejected result lands.
    data = {"version": "1"}
    for i, f in enumerate(forms):
        data.update({f"p{i}-seat": f["seat"].value(), f"p{i}-table_points": f["table_points"].value() or "",
                     f"p{i}-eliminated": f["eliminated"].value() or ""})
    assert client.post(reverse("arbiter:table", args=[tournament.pk, 1, 1]), data).status_code == 302
    assert list(table.seats.order_by("position").values_list("table_points", flat=True)) == \
        [Decimal("62"), Decimal("48"), Decimal("30"), Decimal("0")]
