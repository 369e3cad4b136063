"""The organiser's log on a phone, in Italian: actions by name, before → after as a small table."""
from decimal import Decimal

import pytest

from tables.arbitration import services as arbitration
from tests.browser.catalogue import it
from tests.factories import RegistrationFactory, report, seat_round
from tournaments import services

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_log_reads_in_words(live_server, phone, login, shot, tournament, organiser, arbiter):
    regs = [RegistrationFactory(tournament=tournament, player__first_name="Gioc", player__last_name=n)
            for n in ["Rossi", "Bianchi", "Ferrari", "Romano"]]
    table = seat_round(tournament, [regs]).tables.get()
    report(table, [(62,), (48,), (30,), (0, 1)], user=arbiter)
    seat = table.seats.get(registration=regs[1])
    arbitration.penalty_give(user=arbiter, tournament=tournament, registration=regs[1], kind="points",
                             points=Decimal(3), reason="3 armate oltre il limite", seat=seat)
    services.registration_set_fee_paid(user=organiser, registration=regs[0], paid=True)
    page = phone
    login(page, "olga")
    page.goto(f"{live_server.url}/gestione/t/{tournament.pk}/registro/")
    heads = page.locator(".log-head strong").all_inner_texts()
    assert heads[:2] == [it("Fee paid changed"), it("Points penalty")]
    assert heads.count(it("Result entered")) == 4
    fee = page.locator(".log-entry").first.locator(".log-diff tbody tr")
    assert fee.all_inner_texts() == [f"{it('fee paid')}\t{it('no')}\t{it('yes')}"]
    body = page.inner_text("main")
    assert "registration.fee" not in body and "table_points" not in body
    shot(page, "audit-log-in-words")
    assert page.console_errors == []
