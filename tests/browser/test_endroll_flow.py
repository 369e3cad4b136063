import datetime

import pytest
from django.urls import reverse
from django.utils import timezone

from tables.models import Round
from tests.browser.catalogue import it
from tests.factories import RegistrationFactory, seat_round
from tournaments.models import EndRoll

pytestmark = pytest.mark.django_db(transaction=True)


def test_arbiter_follows_the_end_roll_casebook_on_the_phone(live_server, phone, login, shot, tournament):
    """Seed 004: the 4th rolls, then the 1st and 2nd; the 3rd eliminates the 4th and rolls with 4 or 5."""
    regs = [RegistrationFactory(tournament=tournament, player__first_name="Gioc", player__last_name=n)
            for n in ["Rossi", "Bianchi", "Ferrari", "Romano"]]
    rnd = seat_round(tournament, [regs])
    Round.objects.filter(pk=rnd.pk).update(clock_started_at=timezone.now() - datetime.timedelta(minutes=91),
                                           clock_minutes=90)
    page = phone
    login(page, "arturo")
    page.goto(live_server.url + reverse("arbiter:endroll", args=[tournament.pk, 1, 1]))
    assert page.inner_text("#next-roller") == it("Roll of %(name)s", name="Gioc Romano")
    for expected in ["Gioc Romano", "Gioc Rossi", "Gioc Bianchi"]:
        assert page.inner_text("#next-roller") == it("Roll of %(name)s", name=expected)
        page.fill("#id_roll", "9")
        page.click("#record-roll")
        page.wait_for_load_state()
    page.click("details.endroll-out summary")
    page.select_option("#id_out-registration", str(regs[3].pk))
    page.click("#record-out")
    page.wait_for_selector(".msg-success")
    assert page.inner_text("#next-roller") == it("Roll of %(name)s", name="Gioc Ferrari")
    assert page.inner_text(".endroll-state .endroll-ending") == \
        it("The game ends on %(ending)s", ending=it("%(list)s or %(last)d", list="4", last=5))
    shot(page, "50-endroll-last-player-out")
    page.fill("#id_roll", "5")
    page.click("#record-roll")
    page.wait_for_selector("#enter-result")
    shot(page, "51-endroll-over")
    assert EndRoll.objects.order_by("pk").last().extra_round == 2
    assert page.console_errors == []
