"""Browser walk of a multi-phase tournament at phone size: registration, check-in, format, three
qualifying rounds, the final with its clock and end roll, the bracket and the final standings."""
import datetime

import pytest
from django.utils import timezone

from tables.models import Round
from tests.factories import ClubFactory, PlayerFactory, TournamentFactory
from tournaments.models import Registration

pytestmark = pytest.mark.django_db(transaction=True)

SURNAMES = ["Rossi", "Bianchi", "Ferrari", "Romano", "Colombo", "Ricci", "Marino", "Greco"]


def _enter_results(page, base, tournament, rnd, strength):
    """The arbiter's phone: every table of the round, table points by strength (2 x strength)."""
    for table in rnd.tables.order_by("number"):
        page.goto(f"{base}/arbitro/t/{tournament.pk}/turni/{rnd.number}/tavoli/{table.number}/")
        for i, seat in enumerate(table.seats.order_by("position")):
            page.fill(f"#id_p{i}-table_points", str(2 * strength[seat.registration.player.last_name]))
        page.click(".result-form button[type=submit]")
        page.wait_for_selector(".msg-success")


def test_organiser_runs_three_games_and_a_final_on_a_phone(live_server, phone, login, shot, organiser, arbiter):
    club = ClubFactory(name="RisiKo Club Lariano")
    players = {surname: PlayerFactory(first_name="Gioc", last_name=surname, club=club) for surname in SURNAMES}
    strength = {surname: len(SURNAMES) - i for i, surname in enumerate(SURNAMES)}
    tournament = TournamentFactory(organiser=organiser, name="Coppa delle Fasi", formula="punti_tavolo")
    tournament.arbiters.add(arbiter)
    base = live_server.url
    page = phone
    login(page, "olga")

    # Registration and check-in.
    page.goto(f"{base}/gestione/t/{tournament.pk}/iscritti/")
    for surname in SURNAMES:
        # The search runs on typing once htmx is set up: wait for the page (reloaded after each
        # registration) to finish loading, or the typed name may never be searched.
        page.wait_for_load_state("load")
        page.fill("#player-q", surname)
        page.check(f"#search-results input[name=players][value='{players[surname].pk}']")
        page.click("#register-selected")
        page.wait_for_selector(f"table.list tr[data-player='{players[surname].pk}']")
    assert Registration.objects.filter(tournament=tournament).count() == 8
    page.click(".subnav a[href$='/presenze/']")
    for i in range(8):
        page.locator(".checkin-btn:not(.is-present)").first.click()
        page.locator(".checkin-btn.is-present").nth(i).wait_for()
    assert Registration.objects.filter(tournament=tournament, present=True).count() == 8

    # The format: 3 games + final of the top 4.
    page.click("#nav-formats")
    page.check("#preset-sum3_final")
    shot(page, "formats-01-choose")
    page.click("#apply-format")
    page.wait_for_selector("#phase-2")
    shot(page, "formats-02-phases")

    for number in (1, 2, 3):
        page.click("#draw-phase-1")
        page.wait_for_selector("#publish-phase-1")
        page.click("#publish-phase-1")
        page.wait_for_selector("#close-phase-1")
        _enter_results(page, base, tournament, Round.objects.get(tournament=tournament, number=number), strength)
        page.goto(f"{base}/gestione/t/{tournament.pk}/formato/")
        page.click("#close-phase-1")
        page.wait_for_selector(".msg-success")
    shot(page, "formats-03-qualifying-over")

    # The final: seated from the standings, with the round clock and the end roll.
    page.click("#draw-phase-2")
    page.click("#publish-phase-2")
    final = Round.objects.get(tournament=tournament, number=4)
    assert sorted(s.registration.player.last_name for s in final.tables.get().seats.all()) == \
        sorted(SURNAMES[:4])
    page.click("#clock-phase-2")
    page.click("#start-clock")
    page.wait_for_selector("#stop-clock")
    shot(page, "formats-04-clock-running")
    Round.objects.filter(pk=final.pk).update(clock_started_at=timezone.now() - datetime.timedelta(minutes=91))
    page.goto(f"{base}/t/{tournament.pk}/orologio/")
    page.wait_for_selector("#endroll-table-1")
    shot(page, "formats-05-public-clock-time-up")
    page.goto(f"{base}/arbitro/t/{tournament.pk}/turni/4/tavoli/1/sdadata/")
    page.fill("#id_roll", "9")
    page.click("#record-roll")
    page.wait_for_selector("#endroll-form")
    page.fill("#id_roll", "4")
    page.click("#record-roll")
    page.wait_for_selector("#enter-result")
    shot(page, "formats-06-end-roll-over")
    page.click("#enter-result")
    page.wait_for_selector("#endroll-banner")
    # The weakest finalist wins the final.
    reverse = {s: 20 - v for s, v in strength.items()}
    for i, seat in enumerate(final.tables.get().seats.order_by("position")):
        page.fill(f"#id_p{i}-table_points", str(2 * reverse[seat.registration.player.last_name]))
    page.click(".result-form button[type=submit]")
    page.wait_for_selector(".msg-success")
    page.goto(f"{base}/gestione/t/{tournament.pk}/formato/")
    page.click("#close-phase-2")
    page.wait_for_selector(".msg-success")
    page.click("#bracket-link")
    page.wait_for_selector("#bracket-phase-2 .advances")
    shot(page, "formats-07-bracket")

    # Final standings: the final's order, then the qualifying order.
    page.goto(f"{base}/t/{tournament.pk}/classifica-finale/")
    rows = page.locator("#final-standings tbody tr")
    names = [rows.nth(i).locator("td").nth(1).inner_text().split("\n")[0] for i in range(rows.count())]
    assert [n.split()[-1] for n in names] == ["Romano", "Ferrari", "Bianchi", "Rossi", "Colombo", "Ricci",
                                              "Marino", "Greco"]
    shot(page, "formats-08-final-standings")
    assert page.console_errors == []
