"""The live channel in a browser: the public standings open on a phone show a result saved at the
table within 2 seconds, without the page being reloaded (the test server is WSGI: the channel reads
the last change announced once a second there)."""
import time

import pytest
from django.urls import reverse

from tests.factories import RegistrationFactory, report, seat_round

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_public_standings_show_a_saved_result_within_2_s_without_a_reload(live_server, phone, tournament):
    regs = [RegistrationFactory(tournament=tournament) for _ in range(4)]
    rnd = seat_round(tournament, [regs])
    phone.goto(live_server.url + reverse("public:standings", args=[tournament.pk]))
    phone.wait_for_function("() => window.TorneoLive && window.TorneoLive.open()", timeout=5000)
    assert phone.locator("#standings tr[data-reg]").count() == 0
    phone.evaluate("() => { window.sameDocument = true; }")

    saved = time.monotonic()
    report(rnd.tables.get(), [(62,), (48,), (30,), (0, 1)])
    phone.wait_for_selector(f'#standings tr[data-reg="{regs[0].pk}"]', timeout=2000)
    assert time.monotonic() - saved < 2
    assert phone.evaluate("() => window.sameDocument") is True
    assert phone.locator("#standings tr[data-reg]").count() == 4
    assert phone.console_errors == []
