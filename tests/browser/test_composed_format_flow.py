"""Browser: on a phone the organiser sets up evenings with the top 2 to the final and a repêchage in
a few clicks; the public standings show the cut lines during the evenings."""
import pytest

from tests.phases.test_composed import POINTS, _play_evenings
from tests.factories import PlayerFactory
from tournaments.models import Registration, Tournament

pytestmark = pytest.mark.django_db(transaction=True)


def test_composed_format_and_cut_lines_on_a_phone(live_server, phone, login, shot, organiser, tournament):
    Tournament.objects.filter(pk=tournament.pk).update(formula="punti_tavolo", published=True)
    tournament.refresh_from_db()
    regs = {name: Registration.objects.create(tournament=tournament, status=Registration.Status.CONFIRMED,
                                              present=True, player=PlayerFactory(last_name=name, first_name="Gioc"))
            for name in POINTS}
    base, page = live_server.url, phone
    login(page, "olga")
    page.goto(base + _formats_url(tournament))
    page.check("#preset-evenings_top2_repechage")
    page.fill("#id_games", "4")
    page.fill("#id_discards", "1")
    shot(page, "composed-01-choose")
    page.click("#apply-format")
    page.wait_for_selector("#phase-3")
    assert [p.kind for p in tournament.phases.order_by("order")] == ["qualifying", "semifinal", "final"]

    _play_evenings(tournament, organiser, regs, rounds=3)
    page.goto(base + _standings_url(tournament))
    section = page.locator("[data-cut-lines]")
    section.wait_for()
    final = page.locator("[data-zone=final] li")
    assert final.count() == 2
    assert page.locator("[data-zone=semifinal] li").count() == 7
    holder = page.locator("[data-zone=repechage] li")
    assert holder.count() == 1 and holder.get_attribute("data-registration") == str(regs["I"].pk)
    shot(page, "composed-02-cut-lines")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390 + 1
    assert not page.console_errors


def _formats_url(tournament):
    from django.urls import reverse
    return reverse("manage:formats", args=[tournament.pk])


def _standings_url(tournament):
    from django.urls import reverse
    return reverse("public:standings", args=[tournament.pk])
