import pytest

from tables.models import Dispute, Penalty
from tests.browser.catalogue import it
from tests.factories import RegistrationFactory, report, seat_round

pytestmark = pytest.mark.django_db(transaction=True)


def test_arbiter_gives_a_penalty_then_records_and_rejects_a_dispute(live_server, phone, login, shot, tournament):
    regs = [RegistrationFactory(tournament=tournament, player__first_name="Gioc", player__last_name=n)
            for n in ["Rossi", "Bianchi", "Ferrari", "Romano"]]
    rnd = seat_round(tournament, [regs])
    report(rnd.tables.get(), [(62,), (48,), (30,), (0, 1)])
    seat = rnd.tables.get().seats.get(registration=regs[1])
    page = phone
    login(page, "arturo")
    page.goto(f"{live_server.url}/arbitro/t/{tournament.pk}/penalita/")
    page.click("details.panel summary")
    page.select_option("#id_registration", str(regs[1].pk))
    page.wait_for_selector(f"#id_seat option[value='{seat.pk}']", state="attached")
    page.select_option("#id_kind", "points")
    page.select_option("#id_seat", index=1)
    page.fill("#id_points", "3")
    page.click("main form button[type=submit]")
    assert page.locator("#id_reason ~ .field-error").inner_text() == it("This field is required.")
    shot(page, "40-penalty-error")
    page.fill("#id_reason", "3 armate oltre il limite di 130")
    page.fill("#id_internal_note", "visto dal tavolo accanto")
    page.click("main form button[type=submit]")
    page.wait_for_selector(".msg-success")
    shot(page, "41-penalty-recorded")
    penalty = Penalty.objects.get()
    assert (penalty.registration_id, penalty.points, penalty.seat.table.number) == (regs[1].pk, 3, 1)

    page.goto(f"{live_server.url}/arbitro/t/{tournament.pk}/ricorsi/")
    page.click("details.panel summary")
    page.select_option("#id_about", "result")
    page.select_option("#id_table", index=1)
    page.fill("#id_raised_by", "Gioc Bianchi")
    page.fill("#id_text", "Avevo 50 punti tavolo, non 48.")
    page.click("main form button[type=submit]")
    page.wait_for_selector(".msg-success")
    shot(page, "42-dispute-recorded")
    page.click("[data-action=decide-dispute]")
    page.check("input[name=state][value=rejected]")
    page.fill("#id_decision", "Il foglio firmato al tavolo riporta 48.")
    shot(page, "43-dispute-decision")
    page.click("main form button[type=submit]")
    page.wait_for_selector(".msg-success")
    shot(page, "44-dispute-rejected")
    dispute = Dispute.objects.get()
    assert (dispute.state, dispute.decided_by.username) == ("rejected", "arturo")

    page.goto(f"{live_server.url}/t/{tournament.pk}/giocatori/{regs[1].pk}/")
    body = page.inner_text("main")
    assert "3 armate oltre il limite di 130" in body
    assert "visto dal tavolo accanto" not in body
    assert page.console_errors == []


def test_arbiter_correcting_a_published_round_is_sent_to_the_disputes(live_server, phone, shot, tournament,
                                                                      organiser, arbiter):
    from tables.rounds import services
    regs = [RegistrationFactory(tournament=tournament, player__first_name="Gioc", player__last_name=n)
            for n in ["Rossi", "Bianchi", "Ferrari", "Romano"]]
    rnd = seat_round(tournament, [regs])
    report(rnd.tables.get(), [(62,), (48,), (30,), (0, 1)])
    services.round_close(user=organiser, rnd=rnd)
    services.standings_publish(user=organiser, rnd=rnd)
    page = phone
    page.goto(live_server.url + "/accounts/login/")
    page.fill("#id_username", "arturo")
    page.fill("#id_password", "pw-for-tests-123")
    page.click("main button[type=submit]")
    page.wait_for_load_state()
    page.goto(f"{live_server.url}/arbitro/t/{tournament.pk}/turni/1/tavoli/1/")
    assert it("The standings of this round are published: a correction is made by the organiser, or by an arbiter "
              "while a dispute about this table's result is open.") in page.inner_text(".msg-warning")
    page.locator(".tp-input").nth(1).fill("50")
    page.click("main form button[type=submit]")
    page.wait_for_selector(".form-errors")
    assert it("The standings of round %(round)d are published: a correction of table %(table)d is a dispute "
              "decision. Record the dispute about this table's result first, or ask the organiser.",
              round=1, table=1) in page.inner_text(".form-errors")
    shot(page, "44-published-round-correction-refused")
    assert rnd.tables.get().seats.get(registration=regs[1]).table_points == 48
