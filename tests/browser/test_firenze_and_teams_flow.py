"""Browser walks at phone size (390x844): a small Firenze knockout decided by the points sheet at the
table (seed 003), and a small 2vs2 day with its results, publication, penalty and standings (seed 001)."""
import re

import pytest

from tables.models import Round
from tests.browser.catalogue import it
from tests.factories import PlayerFactory, RegistrationFactory, TournamentFactory
from tournaments.teams import services as teams
from tournaments.models import TeamMatch

pytestmark = pytest.mark.django_db(transaction=True)

SURNAMES = ["Rossi", "Bianchi", "Ferrari", "Romano", "Colombo", "Ricci", "Marino", "Greco", "Bruno", "Gallo",
            "Conti", "Costa"]


def test_firenze_knockout_on_a_phone(live_server, phone, login, shot, organiser, arbiter):
    tournament = TournamentFactory(organiser=organiser, name="Torneo Città di Firenze")
    tournament.arbiters.add(arbiter)
    strength = {s: len(SURNAMES) - i for i, s in enumerate(SURNAMES)}
    for surname in SURNAMES:
        RegistrationFactory(tournament=tournament, present=True,
                            player=PlayerFactory(first_name="Gioc", last_name=surname))
    base, page = live_server.url, phone
    login(page, "olga")
    page.goto(f"{base}/gestione/t/{tournament.pk}/formato/")
    page.check("#preset-knockout")
    page.click("#apply-format")
    page.wait_for_selector("#phase-2")
    page.click("#draw-phase-1")
    page.click("#publish-phase-1")
    page.wait_for_selector("#close-phase-1")
    rnd = Round.objects.get(tournament=tournament, number=1)
    # Table 1 ended by time: the sheet at the table; the weakest player of the table wins on the sheet.
    table = rnd.tables.get(number=1)
    seats = list(table.seats.order_by("position"))
    weakest = min(seats, key=lambda s: strength[s.registration.player.last_name])
    page.goto(f"{base}/arbitro/t/{tournament.pk}/turni/1/tavoli/1/")
    page.click("#firenze-sheet-link")
    for i, seat in enumerate(seats):
        best = seat.pk == weakest.pk
        page.fill(f"#id_p{i}-objective_territories", "12" if best else "6")
        page.fill(f"#id_p{i}-other_territories", "4")
        page.fill(f"#id_p{i}-armies", "41" if best else "30")
    shot(page, "firenze-01-sheet")
    page.click(".result-form button[type=submit]")
    page.wait_for_selector("#firenze-result")
    shot(page, "firenze-02-sheet-saved")
    page.set_viewport_size({"width": 1280, "height": 900})
    shot(page, "firenze-02b-sheet-saved-desktop")
    page.set_viewport_size({"width": 390, "height": 844})
    first = page.locator("#firenze-result li").first.inner_text()
    assert weakest.registration.player.last_name in first and "480,5" in first  # 420 + 40 + 20.5, Italian decimals
    # The other tables by table points.
    for t in rnd.tables.exclude(pk=table.pk).order_by("number"):
        page.goto(f"{base}/arbitro/t/{tournament.pk}/turni/1/tavoli/{t.number}/")
        for i, seat in enumerate(t.seats.order_by("position")):
            page.fill(f"#id_p{i}-table_points", str(2 * strength[seat.registration.player.last_name]))
        page.click(".result-form button[type=submit]")
        page.wait_for_selector(".msg-success")
    page.goto(f"{base}/gestione/t/{tournament.pk}/formato/")
    page.click("#close-phase-1")
    page.wait_for_selector(".msg-success")
    page.click("#draw-phase-2")
    page.wait_for_selector("#publish-phase-2")
    final = Round.objects.get(tournament=tournament, number=2).tables.get()
    assert weakest.registration_id in {s.registration_id for s in final.seats.all()}
    # The published final draw is not changed without a confirmation naming the change.
    page.click("#publish-phase-2")
    page.goto(f"{base}/gestione/t/{tournament.pk}/turni/2/")
    moved = final.seats.order_by("position").first()
    page.click(f".seat-btn[data-seat='{moved.pk}']")
    page.wait_for_selector(".seat-btn.is-selected")
    page.fill("#move-table", "2")
    page.click(".move-form button[type=submit]")
    page.wait_for_selector("#confirm-draw-change")
    assert page.inner_text(".confirm-draw-change p") == it(
        "This knockout draw is published and is not changed (Firenze tournament rules). Confirm to move %(name)s "
        "from table %(source)d to table %(target)d.", name=moved.registration.player.full_name, source=1, target=2)
    shot(page, "firenze-03-draw-change-confirm")
    assert page.console_errors == []


def test_a_2vs2_day_on_a_phone(live_server, phone, login, shot, organiser, arbiter):
    tournament = TournamentFactory(organiser=organiser, name="Coppa 2vs2 Rahal Maut", format_preset="teams_2vs2")
    tournament.arbiters.add(arbiter)
    regs = [RegistrationFactory(tournament=tournament, player=PlayerFactory(first_name="Gioc", last_name=s))
            for s in SURNAMES[:8]]
    names = ["I Carristi Indomiti di Racalmuto", "Armate Rosse", "Blu", "Lariani"]
    made = [teams.team_create(user=organiser, tournament=tournament, name=n, registrations=regs[2 * i:2 * i + 2],
                              captain=regs[2 * i]) for i, n in enumerate(names)]
    teams.schedule_create(user=organiser, tournament=tournament)
    base, page = live_server.url, phone
    login(page, "arturo")
    # The arbiter enters day 1: the home team holds more territories at the limit.
    for match in TeamMatch.objects.filter(tournament=tournament, round=1):
        page.goto(f"{base}/arbitro/t/{tournament.pk}/incontri-squadre/{match.pk}/")
        page.check("input[name=ending][value=time]")
        page.fill("#id_home_territories", "24")
        page.fill("#id_away_territories", "18")
        page.fill("#id_home_best", "13")
        page.fill("#id_away_best", "10")
        page.click("#save-match")
        page.wait_for_selector(".msg-success")
    page.goto(f"{base}/arbitro/t/{tournament.pk}/squadre/arbitri/")
    page.click("#day-1 button[type=submit]")
    page.wait_for_selector("#day-1 .badge.warn")
    # A 2-point penalty on the first home team.
    home = TeamMatch.objects.filter(tournament=tournament, round=1).order_by("pk").first().home
    page.click("[data-form=team-penalty] summary")
    page.select_option("#id_team", str(home.pk))
    page.fill("#id_points", "2")
    page.fill("#id_reason", "Comunicazione tra compagni")
    page.click("details[open] button[type=submit]")
    page.wait_for_selector(".msg-success")
    shot(page, "teams-01-arbitration")
    page.goto(f"{base}/t/{tournament.pk}/squadre/")
    page.wait_for_selector("#team-standings")
    shot(page, "teams-02-standings-phone")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    rows = page.locator("#team-standings tbody tr")
    assert rows.count() == 4
    text = page.inner_text("#team-standings")
    assert "−2" in text
    until = re.escape(it("Provisional standings · disputes until %(time)s", time="HH:MM"))
    assert re.fullmatch(until.replace("HH:MM", r"\d\d:\d\d"), page.inner_text(".status-badge[data-state=provisional]"))
    assert len(made) == 4
    page.set_viewport_size({"width": 1280, "height": 900})
    shot(page, "teams-03-standings-desktop")
    assert page.console_errors == []
