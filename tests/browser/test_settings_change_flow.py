"""A formula change after the standings were published: the old and new top 10, then a confirmation."""
import pytest
from django.utils import timezone

from tests.browser.catalogue import expect_message, it
from tests.factories import RegistrationFactory, report, seat_round
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db(transaction=True)


def test_formula_change_is_confirmed_on_a_phone(live_server, phone, login, shot, tournament):
    regs = [RegistrationFactory(tournament=tournament) for _ in range(8)]
    rnd = seat_round(tournament, [regs[:4], regs[4:]])
    report(rnd.tables.get(number=1), [(90,), (60,), (30,), (20,)])
    report(rnd.tables.get(number=2), [(50,), (45,), (40,), (35,)])
    rnd.status, rnd.standings_published_at = "closed", timezone.now()
    rnd.save()
    page = phone
    login(page, "olga")
    page.goto(f"{live_server.url}/gestione/t/{tournament.pk}/modifica/")
    page.select_option("#id_formula", "vittorie")
    page.click("main form button.btn-primary >> nth=-1")
    page.wait_for_selector("#settings-change")
    shot(page, "settings-change-preview")
    assert page.locator("#settings-change tbody tr").count() == 8
    assert Tournament.objects.get(pk=tournament.pk).formula == "conversione150"
    page.click("#confirm-change")
    expect_message(page, it("Tournament saved."))
    assert Tournament.objects.get(pk=tournament.pk).formula == "vittorie"
    assert page.console_errors == []
