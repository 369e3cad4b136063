"""An arbiter's phone loses the network: the round's tables open and fill in all the same, the saves
wait on the phone and reach the server exactly once when the network returns; one that meets a save
made meanwhile by another arbiter shows both, and the arbiter chooses."""
from decimal import Decimal

import pytest

from tables.models import ResultSubmission, Table
from tests.browser.catalogue import it
from tests.factories import RegistrationFactory, report, seat_round
from tournaments.models import AuditLog

pytestmark = pytest.mark.django_db(transaction=True)
NAMES = ["Rossi", "Bianchi", "Ferrari", "Romano", "Colombo", "Ricci", "Marino", "Greco"]


@pytest.fixture
def round_of_two_tables(tournament):
    regs = [RegistrationFactory(tournament=tournament, player__first_name="Gioc", player__last_name=n)
            for n in NAMES]
    return seat_round(tournament, [regs[:4], regs[4:]])


@pytest.fixture
def arbiter_phone(browser, live_server, tournament, round_of_two_tables):
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="it-IT", is_mobile=True,
                                  has_touch=True)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error"
            and not m.text.startswith("Failed to load resource") else None)
    page.console_errors = errors
    page.goto(live_server.url + "/accounts/login/")
    page.fill("#id_username", "arturo")
    page.fill("#id_password", "pw-for-tests-123")
    page.click("main button[type=submit]")
    page.wait_for_url(lambda url: "/accounts/login/" not in url)  # home, or an arbiter's tournament in play
    page.goto(f"{live_server.url}/arbitro/t/{tournament.pk}/")
    page.wait_for_selector("#offline-status[data-kept]", state="attached")  # the round's pages are on the phone
    yield page
    context.close()


def _fill_offline(page, number, points):
    page.click(f"a[data-offline-table] >> nth={number - 1}")
    page.wait_for_selector("form.result-form")
    for i, tp in enumerate(points):
        page.fill(f"#id_p{i}-table_points", tp)
    page.fill("#id_p3-eliminated", "1")
    page.click("form.result-form button[type=submit]")
    page.wait_for_url("**?in-attesa=1")
    page.wait_for_selector("#offline-status:not([hidden])")


def _points(table):
    return list(table.seats.order_by("position").values_list("table_points", flat=True))


def test_two_tables_filled_offline_reach_the_server_once(arbiter_phone, round_of_two_tables, shot):
    page = arbiter_phone
    page.context.set_offline(True)
    _fill_offline(page, 1, ["62", "48", "30", "0"])
    _fill_offline(page, 2, ["55", "41", "20", "0"])
    page.reload()  # still offline: the page comes from the phone, the queue from IndexedDB
    page.wait_for_selector("#offline-status[data-pending='2']")
    assert it("{n} results waiting to be sent").replace("{n}", "2") in page.inner_text("#offline-status")
    badges = page.locator("a[data-offline-table] .queued")
    assert badges.all_inner_texts() == [it("only on this phone: waiting to be sent")] * 2
    shot(page, "60-offline-two-tables-waiting-phone")
    tables = list(Table.objects.filter(round=round_of_two_tables).order_by("number"))
    assert [t.version for t in tables] == [0, 0]  # nothing reached the server, nothing shows in public

    page.context.set_offline(False)
    page.wait_for_selector("#offline-status", state="hidden")
    for table in tables:
        table.refresh_from_db()
    assert [t.version for t in tables] == [1, 1]  # each save applied exactly once
    assert _points(tables[0]) == [Decimal(62), Decimal(48), Decimal(30), Decimal(0)]
    assert _points(tables[1]) == [Decimal(55), Decimal(41), Decimal(20), Decimal(0)]
    assert ResultSubmission.objects.count() == 2
    assert AuditLog.objects.filter(action="result.enter").count() == 8
    page.reload()
    assert page.locator("a[data-offline-table] .badge.ok").all_inner_texts() == [it("saved on the server")] * 2
    shot(page, "61-offline-sent-phone")
    assert page.console_errors == []


def test_an_offline_save_meeting_another_shows_both_and_the_arbiter_chooses(arbiter_phone, round_of_two_tables,
                                                                            organiser, shot):
    page = arbiter_phone
    table = Table.objects.get(round=round_of_two_tables, number=1)
    page.context.set_offline(True)
    _fill_offline(page, 1, ["62", "48", "30", "0"])
    report(table, [(50,), (40,), (30,), (0, 1)], user=organiser)  # another arbiter, meanwhile, online
    page.context.set_offline(False)
    conflict = page.locator("a[data-offline-table] .queued[data-state=conflict]")
    conflict.wait_for()
    assert conflict.inner_text() == it("conflict: open the table to choose")
    assert _points(table) == [Decimal(50), Decimal(40), Decimal(30), Decimal(0)]  # not overwritten

    page.click("a[data-offline-table] >> nth=0")
    panel = page.wait_for_selector("#offline-conflict", state="visible")
    rows = page.locator("#offline-conflict tbody tr")
    assert rows.first.inner_text().split("\t") == ["Gioc Rossi", "50", "62"]
    assert rows.count() == 4
    assert page.is_visible("[data-offline-choice=mine]") and not page.is_visible("[data-offline-choice=edit]")
    shot(page, "62-offline-conflict-phone")
    page.click("[data-offline-choice=mine]")
    page.wait_for_load_state()
    page.wait_for_selector("#offline-conflict", state="hidden")
    table.refresh_from_db()
    assert table.version == 2
    assert _points(table) == [Decimal(62), Decimal(48), Decimal(30), Decimal(0)]
    assert panel is not None and page.console_errors == []


@pytest.mark.parametrize("applied", [False, True], ids=["refused", "saved-then-error"])
def test_a_save_answered_with_a_server_error_stays_on_the_phone_and_is_applied_once(
        arbiter_phone, round_of_two_tables, monkeypatch, applied, shot):
    """The database restarting refuses the save (503), or the save commits and its answer is lost in a
    server error: either way the phone keeps the result and sends it again, and it is applied once."""
    from django.db import OperationalError

    from tables.results import services as table_results
    real_submit = table_results.table_result_submit
    calls, outcomes = [], []

    def first_send_fails(**kwargs):
        calls.append(kwargs.get("submission"))
        if len(calls) == 1:
            if applied:
                real_submit(**kwargs)
            outcomes.append("refused")
            raise OperationalError("server closed the connection unexpectedly")
        try:
            result = real_submit(**kwargs)
        except OperationalError:  # the live server's shared SQLite connection busy with another request
            outcomes.append("busy")
            raise
        outcomes.append("saved")
        return result
    monkeypatch.setattr(table_results, "table_result_submit", first_send_fails)
    page = arbiter_phone
    page.click("a[data-offline-table] >> nth=0")
    page.wait_for_selector("form.result-form")
    for i, tp in enumerate(["62", "48", "30", "0"]):
        page.fill(f"#id_p{i}-table_points", tp)
    page.fill("#id_p3-eliminated", "1")
    page.click("form.result-form button[type=submit]")
    page.wait_for_url("**?in-attesa=1")  # kept on the phone, back to the round's page
    # The round's page sends what waits as it opens, and again every 20 s until the server has it (a
    # send may meet the live server's shared in-memory SQLite connection busy with the page's reads).
    for _ in range(250):
        if page.evaluate("window.TorneoQueue.all().then(function (items) { return items.length; })") == 0:
            break
        page.wait_for_timeout(100)
    assert page.evaluate("window.TorneoQueue.all().then(function (items) { return items.length; })") == 0
    page.reload()
    page.wait_for_selector("a[data-offline-table] .badge.ok")
    assert page.locator("a[data-offline-table] .badge.ok").first.inner_text() == it("saved on the server")
    shot(page, f"63-server-error-resent-{'saved' if applied else 'refused'}-phone")
    table = Table.objects.get(round=round_of_two_tables, number=1)
    # Sent again with the same submission id: refused, a later send saves it (sends that met the
    # test server's SQLite connection busy are refused as the first was); saved, the next send is
    # recognised as applied before the service is called.
    assert len(set(calls)) == 1
    if applied:
        assert outcomes == ["refused"]
    else:
        assert outcomes[0] == "refused" and outcomes[-1] == "saved"
        assert set(outcomes[1:-1]) <= {"busy"}
    assert table.version == 1  # applied once
    assert _points(table) == [Decimal(62), Decimal(48), Decimal(30), Decimal(0)]
    assert list(ResultSubmission.objects.filter(table=table).values_list("key", flat=True)) == [calls[0]]
    assert AuditLog.objects.filter(action="result.enter").count() == 4
    assert [e for e in page.console_errors if "503" not in e] == []
