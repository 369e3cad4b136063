"""An organiser new to the site writes their club's rules themselves, counting every action: a club rule
of their own started blank on a phone (its worked example recomputed as they type), then offered on
the new-tournament screen and replayed on a tournament's side-by-side page; and RCU Barletta's
"Giocatore dell'anno" composed as a circuit's season rule at a desk, its Master points 150 + 109.1.
Printed: the actions and the minutes; axe-core finds nothing serious on the new pages, each carrying
the site's footer."""
import time

import pytest

from circuits.models import Circuit
from circuits.selectors import circuit_standings
from tests.browser.catalogue import expect_message, it
from tests.browser.conftest import PHONE
from tests.browser.test_accessibility import SERIOUS
from tests.browser.test_club_evening import Counter
from tests.browser.test_room_flow import AXE
from tests.circuits.test_games_circuit import publish
from tests.factories import PlayerFactory, RegistrationFactory, TournamentFactory, report, seat_round
from tournaments.models import ClubRule, Tournament

pytestmark = pytest.mark.django_db(transaction=True)

DESK = {"width": 1280, "height": 900}
MINUTES = 10


class Actions(Counter):
    def select(self, selector, value):
        self.n += 1
        self.page.select_option(selector, value)


def checked(page, shot, name):
    """The page carries the site's footer and axe-core finds nothing serious on it."""
    assert page.locator("footer.site-footer").count() == 1
    shot(page, name)
    if AXE.exists():
        page.add_script_tag(path=str(AXE))
        assert page.evaluate(SERIOUS) == [], name


def context_of(browser, viewport, phone):
    context = browser.new_context(viewport=viewport, device_scale_factor=1, is_mobile=phone, has_touch=phone,
                                  locale="it-IT", bypass_csp=True)   # axe-core added as a script of its own
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    return context, page


def test_a_club_rule_of_their_own_on_a_phone(live_server, browser, login, shot, organiser, tournament):
    regs = [RegistrationFactory(tournament=tournament) for _ in range(8)]
    rnd = seat_round(tournament, [regs[:4], regs[4:]])
    report(rnd.tables.get(number=1), [(62,), (48,), (30,), (0, 1)])
    report(rnd.tables.get(number=2), [(40,), (39,), (2,), (1,)])
    context, page = context_of(browser, PHONE, True)
    login(page, organiser.username)
    started, act = time.monotonic(), Actions(page)
    act.click("[data-club-rules-link]")
    checked(page, shot, "club_rules_list_phone")
    act.click("#new-club-rule")
    act.fill("#id_name", "Serata del Gufo")
    act.fill("#id_club", "RCU Nuovo")
    act.select("#id_formula", "bonus50")
    act.fill("#id_bonus", "30")
    # the worked example follows: Anna wins her first game with 62 (+30), is second in the next with 35
    page.wait_for_function("() => document.querySelector("
                           "'[data-example-standings] tr[data-player=Anna] [data-total]')?.textContent.trim() === '127'")
    checked(page, shot, "club_rule_form_phone")
    act.click("#save-club-rule")
    expect_message(page, it("Rule saved as your club's."))
    rule = ClubRule.objects.get(owner=organiser)
    assert (rule.document["formula"], rule.document["params"]["bonus"]) == ("bonus50", 30)
    # offered on the new-tournament screen beside the published ones
    page.goto(f"{live_server.url}/gestione/tornei/nuovo/")
    act.select("#club-rule", rule.key)
    page.wait_for_selector(f"[data-club-rule-filled={rule.key}]")
    assert page.input_value("#id_formula") == "bonus50" and page.input_value("#id_bonus") == "30"
    act.fill("#id_name", "Serata di dicembre")
    act.fill("#id_start_date", "2026-12-08")
    act.click("#save-tournament")
    expect_message(page, it("Tournament created."))
    assert Tournament.objects.get(name="Serata di dicembre").club_preset == rule.key
    # what if the evening already played had been scored under it
    page.goto(f"{live_server.url}/gestione/t/{tournament.pk}/formule/")
    act.select("#what-if-rule", rule.key)
    act.click("#what-if-replay")
    page.wait_for_selector("[data-what-if] [data-podium-changed]")
    checked(page, shot, "what_if_phone")
    minutes = (time.monotonic() - started) / 60
    print(f"\nORGANISER ACTIONS, a club rule of their own from the list to a tournament and a replay: {act.n}"
          f" ({minutes:.1f} min)")
    assert act.n <= 16 and minutes < MINUTES
    page.set_viewport_size(DESK)   # the same pages at a desk
    checked(page, shot, "what_if_desk")
    page.goto(f"{live_server.url}/gestione/regolamenti/{rule.pk}/")
    checked(page, shot, "club_rule_form_desk")
    page.goto(f"{live_server.url}/gestione/regolamenti/{ClubRule.objects.get(key='master').pk}/")
    assert page.locator("[data-published-rule]").count() == 1
    checked(page, shot, "club_rule_published_desk")
    assert page.errors == []
    context.close()


def played_master(organiser):
    """A Master in millesimi: Pace wins a game with 50 and loses one with 41 (1.091), Quinto wins both; both
    tournaments final once published (no dispute window), so a season rule counts them."""
    pace, quinto, others = PlayerFactory(last_name="Pace"), PlayerFactory(last_name="Quinto"), PlayerFactory.create_batch(6)
    master = TournamentFactory(organiser=organiser, formula="millesimi", published=True, name="Master di primavera",
                                dispute_window_minutes=0)
    regs = {p.pk: RegistrationFactory(tournament=master, player=p) for p in [pace, quinto, *others]}
    for tables, tps in (([[pace, *others[:3]], [quinto, *others[3:6]]], [[50, 30, 20, 10], [60, 30, 20, 10]]),
                        ([[quinto, pace, *others[:2]], others[2:6]], [[70, 41, 5, 1], [40, 30, 20, 10]])):
        rnd = seat_round(master, [[regs[p.pk] for p in players] for players in tables])
        for number, points in enumerate(tps, start=1):
            report(rnd.tables.get(number=number), [(tp,) for tp in points])
        publish(rnd)
    club = TournamentFactory(organiser=organiser, formula="punti_tavolo", published=True, name="Sociale di maggio",
                              dispute_window_minutes=0)
    rnd = seat_round(club, [[RegistrationFactory(tournament=club, player=p) for p in [pace, quinto, *others[:2]]]])
    report(rnd.tables.get(), [(62,), (48,), (30,), (1,)])
    publish(rnd)
    return pace, master, club


def test_the_barletta_ranking_composed_at_a_desk(live_server, browser, login, shot, organiser):
    pace, master, club = played_master(organiser)
    context, page = context_of(browser, DESK, False)
    login(page, organiser.username)
    started, act = time.monotonic(), Actions(page)
    act.click("[data-circuits-link]")
    act.fill("#id_name", "Giocatore dell'anno")
    act.fill("#id_season", "2026")
    act.click("[data-circuit-form] button[type=submit]")
    act.click("#season-rule-link")
    page.wait_for_selector("[data-started-from=settings]")
    checked(page, shot, "season_rule_form_desk")
    act.fill("#id_name", "Giocatore dell'anno RCU Barletta")
    act.fill("#id_cat-0-key", "master")
    act.fill("#id_cat-0-rank_table", "")
    for field, value in (("winner", "2000"), ("final", "1000"), ("semifinal", "500"), ("per_round", "75"),
                         ("own_points", "100")):
        act.fill(f"#id_cat-0-{field}", value)
    act.fill("#id_cat-1-key", "ufficiale")
    act.fill("#id_cat-1-per_game", "50")
    act.fill("#id_cat-1-winner_bonus", "100")
    act.fill("#id_cat-2-key", "club")
    act.fill("#id_cat-2-own_points", "1")
    act.click("#save-season-rule")
    expect_message(page, it("Season rule saved: the circuit is ranked by it."))
    for tournament, category in ((master, "master"), (club, "club")):
        act.select("#id_tournament", str(tournament.pk))
        act.select("#id_category", category)
        act.click("[data-circuit-add] button[type=submit]")
        page.wait_for_selector(f"[data-entry='{tournament.pk}'] [data-category]")
    checked(page, shot, "circuit_with_season_rule_desk")
    minutes = (time.monotonic() - started) / 60
    print(f"\nORGANISER ACTIONS, RCU Barletta's ranking composed and its tournaments added: {act.n} ({minutes:.1f} min)")
    assert act.n <= 30 and minutes < MINUTES
    circuit = Circuit.objects.get(name="Giocatore dell'anno")
    row = next(r for r in circuit_standings(circuit).rows if r.player.pk == pace.pk)
    assert [str(c.points.normalize()) for c in row.cells] == ["259.1", "62"]   # 150 + 109.1; the club's 62
    page.goto(f"{live_server.url}/circuiti/{circuit.pk}/")
    assert page.locator("[data-circuit-rule=season]").count() == 1
    checked(page, shot, "circuit_season_rule_public_desk")
    page.set_viewport_size(PHONE)   # the same pages on a phone
    checked(page, shot, "circuit_season_rule_public_phone")
    page.goto(f"{live_server.url}/gestione/circuiti/{circuit.pk}/regola/")
    checked(page, shot, "season_rule_form_phone")
    assert page.errors == []
    context.close()
