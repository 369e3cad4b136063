"""Saves sent by a phone's offline queue: applied once whatever the number of sends, a conflict
never overwrites what another arbiter saved, and the queue is told in JSON what happened."""
import uuid

import pytest
from django.urls import reverse

from tables.results import services as results
from tables.results.selectors import submission_applied
from tables.models import ResultSubmission, Table
from tests.factories import RegistrationFactory, report, seat_round
from tests.html import messages, one, tr
from tournaments.models import AuditLog

SYNC = {"X-Torneo-Sync": "1"}


@pytest.fixture
def table(tournament):
    regs = [RegistrationFactory(tournament=tournament, player__last_name=n) for n in "ABCD"]
    return seat_round(tournament, [regs]).tables.get()


def _data(table, values, version=0, submission=None):
    data = {"version": str(version), "submission": str(submission or uuid.uuid4())}
    for i, (seat, tp) in enumerate(zip(table.seats.order_by("position"), values)):
        data.update({f"p{i}-seat": seat.pk, f"p{i}-table_points": tp})
    return data


def _url(tournament):
    return reverse("arbiter:table", args=[tournament.pk, 1, 1])


def _points(table):
    return list(table.seats.order_by("position").values_list("table_points", flat=True))


def test_a_save_sent_twice_is_applied_once(client, tournament, table, arbiter):
    client.force_login(arbiter)
    data = _data(table, ["62", "48", "30", "0"])
    first = client.post(_url(tournament), data, headers=SYNC)
    again = client.post(_url(tournament), data, headers=SYNC)
    assert (first.status_code, first.json()["status"]) == (200, "saved")
    assert (again.status_code, again.json()["status"]) == (200, "duplicate")
    assert Table.objects.get(pk=table.pk).version == 1
    assert AuditLog.objects.filter(action="result.enter").count() == 4
    assert ResultSubmission.objects.get().key == uuid.UUID(data["submission"])


def test_the_submission_id_is_written_in_the_audit_entries(client, tournament, table, arbiter):
    client.force_login(arbiter)
    data = _data(table, ["62", "48", "30", "0"])
    client.post(_url(tournament), data, headers=SYNC)
    entries = AuditLog.objects.filter(action="result.enter")
    assert {e.after["submission"] for e in entries} == {data["submission"]}


def test_a_form_sent_twice_without_the_queue_is_applied_once(client, tournament, table, arbiter):
    client.force_login(arbiter)
    data = _data(table, ["62", "48", "30", "0"])
    assert client.post(_url(tournament), data).status_code == 302
    response = client.post(_url(tournament), data, follow=True)
    assert tr("This result of table %(t)d was already saved.", t=1) in messages(response)
    assert Table.objects.get(pk=table.pk).version == 1


def test_a_queued_save_on_an_old_version_is_a_conflict_and_overwrites_nothing(client, tournament, table, arbiter,
                                                                              organiser):
    report(table, [(50,), (40,), (30,), (0, 1)], user=organiser)  # another save meanwhile
    client.force_login(arbiter)
    response = client.post(_url(tournament), _data(table, ["62", "48", "30", "0"], version=0), headers=SYNC)
    assert response.status_code == 409
    answer = response.json()
    assert (answer["status"], answer["version"]) == ("conflict", 1)
    assert [s["table_points"] for s in answer["saved"]] == [50, 40, 30, 0]
    assert [s["player"].split()[-1] for s in answer["saved"]] == ["A", "B", "C", "D"]
    assert _points(table) == [50, 40, 30, 0]
    assert not ResultSubmission.objects.exists()


def test_choosing_mine_after_a_conflict_saves_it_on_the_current_version(client, tournament, table, arbiter,
                                                                         organiser):
    report(table, [(50,), (40,), (30,), (0, 1)], user=organiser)
    client.force_login(arbiter)
    response = client.post(_url(tournament), _data(table, ["62", "48", "30", "0"], version=1), headers=SYNC)
    assert response.json()["status"] == "saved"
    assert _points(table) == [62, 48, 30, 0]


def test_an_invalid_queued_save_is_refused_with_its_errors(client, tournament, table, arbiter):
    client.force_login(arbiter)
    response = client.post(_url(tournament), _data(table, ["62", "", "30", "0"]), headers=SYNC)
    assert response.status_code == 400
    answer = response.json()
    assert answer["status"] == "invalid"
    second = table.seats.get(position=2).registration.player
    assert f"{second.display_name}: enter the table points of {second.full_name}" in answer["errors"]
    assert Table.objects.get(pk=table.pk).version == 0


def test_the_service_refuses_a_submission_already_applied(tournament, table, arbiter):
    key = uuid.uuid4()
    lines = [results.ResultLine(seat_id=s.pk, table_points=tp) for s, tp in
             zip(table.seats.order_by("position"), (62, 48, 30, 0))]
    results.table_result_submit(user=arbiter, table=table, lines=lines, version=0, submission=key)
    with pytest.raises(results.AlreadyApplied):
        results.table_result_submit(user=arbiter, table=table, lines=lines, version=1, submission=key)
    assert Table.objects.get(pk=table.pk).version == 1


def test_a_bad_submission_id_is_ignored_and_the_save_goes_through(client, tournament, table, arbiter):
    client.force_login(arbiter)
    data = {**_data(table, ["62", "48", "30", "0"]), "submission": "not-a-uuid"}
    assert client.post(_url(tournament), data, headers=SYNC).json()["status"] == "saved"
    assert not ResultSubmission.objects.exists()


def test_the_result_form_carries_a_submission_id(client, tournament, table, arbiter):
    client.force_login(arbiter)
    page = client.get(_url(tournament))
    assert isinstance(page.context["submission"], uuid.UUID)
    assert one(page, "form.result-form input[name=submission]")["value"] == str(page.context["submission"])


def test_the_offline_worker_is_served_for_the_arbiters_pages(client):
    response = client.get(reverse("arbiter:service_worker"))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/javascript; charset=utf-8"
    assert response["Service-Worker-Allowed"] == "/arbitro/"
    body = response.content.decode()
    assert "TorneoQueue" in body and 'addEventListener("fetch"' in body
    assert "no-cache" in response["Cache-Control"]


def test_a_submission_id_answers_for_its_own_table_only(client, tournament, arbiter):
    regs = [RegistrationFactory(tournament=tournament, player__last_name=n) for n in "ABCDEFGH"]
    rnd = seat_round(tournament, [regs[:4], regs[4:]])
    first, second = rnd.tables.order_by("number")
    key = uuid.uuid4()
    client.force_login(arbiter)
    one = client.post(reverse("arbiter:table", args=[tournament.pk, 1, 1]),
                      _data(first, ["62", "48", "30", "0"], submission=key), headers=SYNC)
    two = client.post(reverse("arbiter:table", args=[tournament.pk, 1, 2]),
                      _data(second, ["50", "40", "30", "0"], submission=key), headers=SYNC)
    assert (one.json()["status"], two.json()["status"]) == ("saved", "saved")
    assert (_points(first), _points(second)) == ([62, 48, 30, 0], [50, 40, 30, 0])
    assert sorted(ResultSubmission.objects.values_list("table__number", flat=True)) == [1, 2]
    assert submission_applied(first, key) and submission_applied(second, key)
    assert not submission_applied(first, uuid.uuid4())
