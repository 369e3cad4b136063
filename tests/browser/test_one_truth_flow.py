"""One story on every screen (issue 60), on a phone and a desk: the semifinals live with the finalists
marked, then the winner's own page (final position, chart, games with phase and place), the standings
and the final standings page saying the same status while the dispute window runs, and a tie on the
total explained by the tie-break that decided it. Every page fits its width and passes axe."""
import pytest
from django.urls import reverse
from django.utils import translation

from phases import draw
from tables.rounds import services as table_services
from tests.browser.catalogue import it
from tests.browser.conftest import PHONE
from tests.browser.test_format_leads_flow import DESK, _fits, _page
from tests.browser.test_past_import_flow import _axe
from tests.factories import RegistrationFactory, report, seat_round
from tests.phases.helpers import report_by_strength, report_order, strength_of
from tests.phases.test_master import master_qualified
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_master_from_the_semifinals_to_the_winners_own_page(live_server, browser, shot, tournament, organiser):
    Tournament.objects.filter(pk=tournament.pk).update(dispute_window_minutes=120)
    regs = master_qualified(tournament, organiser)
    for rnd in tournament.rounds.all():
        table_services.standings_publish(user=organiser, rnd=rnd)
    strength = strength_of(regs)
    semifinal, final = tournament.phases.order_by("order")[1:]
    semis = draw.phase_draw(user=organiser, phase=semifinal)
    table_services.round_publish(user=organiser, rnd=semis)
    report_by_strength(semis, strength, organiser)
    winners = {max((s.registration_id for s in t.seats.all()), key=strength.get) for t in semis.tables.all()}
    standings = live_server.url + reverse("public:standings", args=[tournament.pk])
    for name, viewport in (("phone", PHONE), ("desk", DESK)):
        page = _page(browser, viewport)
        page.goto(standings)
        lead = page.locator("#semifinal-standings")
        assert lead.locator("#lead-status").get_attribute("data-state") == "provisional"
        assert {int(pk) for pk in lead.locator("tr[data-finalist=won]").evaluate_all(
            "rows => rows.map(r => r.dataset.registration)")} == winners
        assert lead.locator("tr[data-finalist=seeded]").get_attribute("data-registration") == str(regs[0].pk)
        shot(page, f"one-truth-01-semifinals-{name}")
        _fits(page)
        assert _axe(page) == []
        assert page.console_errors == []
        page.context.close()

    table_services.round_close(user=organiser, rnd=semis)
    rnd = draw.phase_draw(user=organiser, phase=final)
    table_services.round_publish(user=organiser, rnd=rnd)
    finalists = sorted((s.registration for s in rnd.tables.get().seats.all()), key=lambda r: strength[r.pk])
    report_order(rnd.tables.get(), finalists)   # the weakest finalist wins
    table_services.round_close(user=organiser, rnd=rnd)
    for r in tournament.rounds.all():
        table_services.standings_publish(user=organiser, rnd=r)
    winner = finalists[0]
    for name, viewport in (("phone", PHONE), ("desk", DESK)):
        page = _page(browser, viewport)
        page.goto(live_server.url + reverse("public:player", args=[tournament.pk, winner.pk]))
        assert page.locator("[data-final-position]").get_attribute("data-final-position") == "1"
        assert page.locator("#player-state").get_attribute("data-state") == "window"
        assert page.locator("[data-rank-chart] circle").last.get_attribute("data-rank") == "1"
        with translation.override("it"):
            labels = [semifinal.label, final.label]
        assert page.locator("[data-game-phase]").all_inner_texts() == labels
        assert page.locator("[data-game-place]").evaluate_all("els => els.map(e => e.dataset.gamePlace)") == [
            "1", "1"]
        shot(page, f"one-truth-02-winner-{name}")
        _fits(page)
        assert _axe(page) == []
        words = page.inner_text("#player-state")
        page.goto(standings)
        assert {b.get_attribute("data-state") for b in page.locator(".status-badge").all()} == {"window"}
        assert page.inner_text("#lead-status").startswith(words)   # and "updates by itself"
        page.goto(live_server.url + reverse("public:final_standings", args=[tournament.pk]))
        assert page.locator("#final-status").get_attribute("data-state") == "window"
        assert page.inner_text("#final-status") == words
        assert page.locator("#final-standings tbody tr").first.get_attribute("data-registration") == str(winner.pk)
        shot(page, f"one-truth-03-final-standings-{name}")
        _fits(page)
        assert _axe(page) == []
        assert page.console_errors == []
        page.context.close()


def test_a_tie_on_the_total_names_its_tie_break(live_server, browser, shot, tournament, organiser):
    Tournament.objects.filter(pk=tournament.pk).update(formula="punti_tavolo", tiebreak="best_results",
                                                       published=True)
    regs = [RegistrationFactory(tournament=tournament, player__first_name="Anna", player__last_name=n)
            for n in ("Rossi", "Bianchi", "Verdi", "Neri")]
    for tps in ([(70,), (20,), (10,), (0,)], [(30,), (80,), (10,), (0,)]):
        rnd = seat_round(tournament, [regs])
        report(rnd.tables.get(), tps)
        table_services.round_close(user=organiser, rnd=rnd)
        table_services.standings_publish(user=organiser, rnd=rnd)
    for name, viewport in (("phone", PHONE), ("desk", DESK)):
        page = _page(browser, viewport)
        page.goto(live_server.url + reverse("public:standings", args=[tournament.pk]))
        note = page.locator(f"tr[data-reg='{regs[0].pk}'] [data-tie-break]")
        assert note.get_attribute("data-tie-break") == "best_results"
        assert note.inner_text() == it("Same total as %(ahead)s: behind on %(criterion)s (%(theirs)s to %(mine)s)",
                                       ahead="Anna Bianchi", criterion=it("Best single results").lower(),
                                       theirs="80", mine="70")
        shot(page, f"one-truth-04-tie-break-{name}")
        _fits(page)
        assert _axe(page) == []
        assert page.console_errors == []
        page.context.close()
