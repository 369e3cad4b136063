"""The screens of issue 60's second half, on a phone and at a desk, each checked with axe-core (zero serious)
and photographed: two arbiters each going through their own tables; a final's draft with nothing to draw
again; the what-if with the organiser's own rule in its podiums; the rule form's worked example marking the
discarded results and naming the tie-break at work; the standings saying why every total is 0 after round 1
under "discard the worst"."""
import pytest
from django.urls import reverse

from phases import draw
from phases import services as phase_services
from tests.browser.conftest import PHONE
from tests.browser.test_accessibility import SERIOUS
from tests.browser.test_room_flow import AXE
from tests.factories import RegistrationFactory, UserFactory, report, seat_round
from tests.phases.helpers import play, players, strength_of
from tournaments.club_rules.services import club_rule_create
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db(transaction=True)

DESK = {"width": 1280, "height": 900}
SIZES = pytest.mark.parametrize("size", [PHONE, DESK], ids=["phone", "desk"])


def _page(browser, size):
    phone = size == PHONE
    context = browser.new_context(viewport=size, device_scale_factor=1, is_mobile=phone, has_touch=phone,
                                  locale="it-IT", bypass_csp=True)   # axe-core added as a script of its own
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    return context, page


def _checked(page, shot, name, size):
    """Nothing serious for axe-core, the page no wider than the screen, and its picture."""
    shot(page, f"{name}-{size['width']}")
    assert page.evaluate("() => document.documentElement.scrollWidth") <= size["width"], name
    if AXE.exists():
        page.add_script_tag(path=str(AXE))
        assert page.evaluate(SERIOUS) == [], name
    assert page.errors == []


@SIZES
def test_two_arbiters_each_go_through_their_own_tables(live_server, browser, login, shot, tournament, arbiter,
                                                       size):
    tournament.arbiters.add(UserFactory(username="bea"))
    regs = [RegistrationFactory(tournament=tournament, present=True) for _ in range(12)]
    seat_round(tournament, [regs[0:4], regs[4:8], regs[8:12]])
    context, page = _page(browser, size)
    login(page, arbiter.username)
    page.goto(live_server.url + reverse("arbiter:round", args=[tournament.pk, 1]))
    page.fill("#own-first", "2")
    page.fill("#own-last", "3")
    page.click("#own-tables-save")
    page.wait_for_selector("#own-tables[data-own-tables='2-3']")
    assert page.locator("[data-round-tables] a[data-offline-table]").count() == 2
    _checked(page, shot, "arbiter-own-tables", size)
    page.locator("[data-round-tables] a[data-offline-table]").first.click()
    page.wait_for_url("**/tavoli/2/")
    for i, points in enumerate(("60", "40", "30", "20")):
        page.fill(f"#id_p{i}-table_points", points)
    page.click("#save-result")
    page.wait_for_url("**/tavoli/3/")          # the next of mine, not table 1 nor a colleague's
    for i, points in enumerate(("60", "40", "30", "20")):
        page.fill(f"#id_p{i}-table_points", points)
    page.click("#save-result")
    page.wait_for_url(live_server.url + reverse("arbiter:round", args=[tournament.pk, 1]))   # back to my list
    assert page.locator("[data-round-tables] [data-saved]").count() == 2
    context.close()


@SIZES
def test_a_finals_draft_is_published_as_the_results_made_it(live_server, browser, login, shot, tournament,
                                                            organiser, size):
    regs = players(tournament, 8)
    Tournament.objects.filter(pk=tournament.pk).update(formula="punti_tavolo")
    phase_services.format_apply(user=organiser, tournament=tournament, preset="sum3_final")
    qualifying, final = tournament.phases.order_by("order")
    for i in range(qualifying.rounds):
        play(draw.phase_draw(user=organiser, phase=qualifying, seed=i), strength_of(regs), organiser)
    rnd = draw.phase_draw(user=organiser, phase=final)
    context, page = _page(browser, size)
    login(page, organiser.username)
    page.goto(live_server.url + reverse("manage:round", args=[tournament.pk, rnd.number]))
    page.wait_for_selector("[data-action=publish-seating]")
    assert page.locator("#redraw-method").count() == 0 and page.locator("form[action$='/reseat/']").count() == 0
    _checked(page, shot, "final-draft", size)
    context.close()


@SIZES
def test_the_what_if_under_my_rule_shows_it_among_the_podiums(live_server, browser, login, shot, tournament,
                                                              organiser, size):
    regs = [RegistrationFactory(tournament=tournament, player__last_name=n) for n in "ABCDEFGH"]
    rnd = seat_round(tournament, [regs[:4], regs[4:]])
    report(rnd.tables.get(number=1), [(62,), (48,), (30,), (0, 1)])
    report(rnd.tables.get(number=2), [(40,), (39,), (2,), (1,)])
    rule = club_rule_create(user=organiser, document={"schema": "torneo.rule/1", "name": "Solo punti tavolo",
                                                      "formula": "punti_tavolo", "params": {}})
    context, page = _page(browser, size)
    login(page, organiser.username)
    page.goto(live_server.url + reverse("manage:formulas_compared", args=[tournament.pk]))
    page.select_option("#what-if-rule", rule.key)
    page.click("#what-if-replay")
    page.wait_for_selector("[data-what-if]")
    assert page.locator("#what-if-rule").input_value() == rule.key
    chosen = page.locator(f".podiums [data-column='preset:{rule.key}'][data-chosen]")
    assert chosen.count() == 1 and chosen.locator("ol li").count() == 3
    _checked(page, shot, "what-if-own-rule", size)
    context.close()


@SIZES
def test_the_worked_example_marks_the_discarded_and_names_the_tie_break(live_server, browser, login, shot,
                                                                       organiser, size):
    context, page = _page(browser, size)
    login(page, organiser.username)
    page.goto(live_server.url + reverse("manage:club_rule_create"))
    tie = page.locator("[data-example-tie='Dario-Carla'][data-decided-by='best_results']")
    tie.wait_for()
    assert page.locator("[data-worked-example] [data-dropped]").count() == 0
    page.fill("#id_name", "Serata del Gufo")
    page.fill("#id_discard_worst", "1")
    page.locator("[data-worked-example] [data-dropped]").first.wait_for()
    assert page.locator("[data-worked-example] [data-dropped]").count() == 8   # each player's worse result
    page.fill("#id_discard_worst", "0")
    tie.wait_for()
    page.locator("[data-worked-example]").scroll_into_view_if_needed()
    _checked(page, shot, "rule-form-worked-example", size)
    context.close()


@SIZES
def test_after_round_1_under_discard_the_worst_the_standings_say_why_every_total_is_0(live_server, browser, shot,
                                                                                       tournament, organiser,
                                                                                       size):
    Tournament.objects.filter(pk=tournament.pk).update(discard_worst=1, published=True)
    regs = [RegistrationFactory(tournament=tournament) for _ in range(4)]
    report(seat_round(tournament, [regs]).tables.get(), [(60,), (40,), (30,), (20,)])
    context, page = _page(browser, size)
    page.goto(live_server.url + reverse("public:standings", args=[tournament.pk]))
    page.wait_for_selector("[data-nothing-counted]")
    _checked(page, shot, "standings-nothing-counted", size)
    context.close()


@SIZES
def test_my_six_evening_rule_applied_on_the_formats_page_plays_six_qualifying_rounds(live_server, browser, login,
                                                                                      shot, tournament, organiser,
                                                                                      size):
    six = club_rule_create(user=organiser, document={
        "schema": "torneo.rule/1", "name": "Sei serate", "club": "RCU Nuovo", "formula": "bonus50",
        "params": {"tiebreak": ["wins"]}, "tournament": {"rounds_planned": 6}, "format": {"preset": "evenings_final"}})
    context, page = _page(browser, size)
    login(page, organiser.username)
    page.goto(live_server.url + reverse("manage:formats", args=[tournament.pk]))
    page.click("#club-rule-panel summary")
    page.select_option("#club-rule-panel select[name=club_preset]", six.key)
    page.click("#apply-club-preset")
    page.wait_for_selector("#phase-1[data-phase-kind=qualifying]")
    assert page.locator("#phase-1").get_attribute("data-phase-rounds") == "6"
    _checked(page, shot, "formats-six-evenings", size)
    context.close()
