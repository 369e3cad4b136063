"""A club evening without a stumble, in the browser: the arbiter's round list after a queued save is
sent, the cursor on the field in error, numbers typed on an Italian phone keypad, the questions
before saving a table at 0 or a tie, the disabled look of "Close the round" and the new tournament's
short first screen; screenshots on a phone (390x844) and a desktop."""
from decimal import Decimal

import pytest
from playwright.sync_api import expect

from tables.models import Seat
from tests.browser.catalogue import expect_message, it, it_n, registered_from_list
from tests.browser.conftest import PHONE
from tests.factories import RegistrationFactory, report, seat_round

pytestmark = pytest.mark.django_db(transaction=True)
DESKTOP = {"width": 1280, "height": 900}
NAMES = ["Rossi", "Bianchi", "Ferrari", "Romano", "Colombo", "Ricci", "Marino", "Greco"]


@pytest.fixture
def two_tables(tournament):
    regs = [RegistrationFactory(tournament=tournament, player__first_name="Gioc", player__last_name=n, present=True)
            for n in NAMES]
    return seat_round(tournament, [regs[:4], regs[4:]])


def _page(browser, live_server, username, viewport=PHONE):
    context = browser.new_context(viewport=viewport, locale="it-IT", is_mobile=viewport == PHONE,
                                  has_touch=viewport == PHONE)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error"
            and not m.text.startswith("Failed to load resource") else None)
    page.console_errors = errors
    page.goto(live_server.url + "/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", "pw-for-tests-123")
    page.click("main button[type=submit]")
    page.wait_for_url(lambda url: "/accounts/login/" not in url)  # home, or an arbiter's tournament in play
    return page


def _points(table):
    return list(Seat.objects.filter(table=table).order_by("position").values_list("table_points", flat=True))


def test_after_a_queued_save_is_sent_the_round_list_shows_every_saved_table_and_says_so(
        browser, live_server, tournament, organiser, two_tables, shot):
    page = _page(browser, live_server, "arturo")
    page.goto(f"{live_server.url}/arbitro/t/{tournament.pk}/")
    page.wait_for_selector("#offline-status[data-kept]", state="attached")   # the list is kept on the phone
    first, second = two_tables.tables.order_by("number")
    report(first, [(62,), (48,), (30,), (0, 1)], user=organiser)   # saved online meanwhile, by someone else
    page.context.set_offline(True)
    page.reload()                                                  # the phone's copy: table 1 still "to enter"
    page.click("a[data-offline-table] >> nth=1")
    page.wait_for_selector("form.result-form")
    for i, tp in enumerate(["55", "41", "20", "0"]):
        page.fill(f"#id_p{i}-table_points", tp)
    page.fill("#id_p3-eliminated", "1")
    page.click("#save-result")
    page.wait_for_url("**?in-attesa=1")
    assert page.locator("a[data-offline-table] [data-saved]").count() == 0
    page.context.set_offline(False)
    page.wait_for_selector("#offline-sent:not([hidden])")
    # A locator's wait, not a JavaScript predicate: the page's CSP allows no eval.
    expect(page.locator("a[data-offline-table] [data-saved]")).to_have_count(2)
    assert page.inner_text("#offline-sent") == it(
        "The result of table {tables} kept on this phone was sent: it is saved on the server.").replace("{tables}", "2")
    assert page.locator("a[data-offline-table] .queued:not([hidden])").count() == 0
    shot(page, "evening-offline-sent-390")
    second.refresh_from_db()
    assert _points(second) == [55, 41, 20, 0] and second.version == 1
    assert page.console_errors == []
    page.context.close()


def test_numbers_on_an_italian_phone_keypad(browser, live_server, tournament, two_tables, shot):
    page = _page(browser, live_server, "arturo")
    page.goto(f"{live_server.url}/arbitro/t/{tournament.pk}/turni/1/tavoli/1/")
    assert page.evaluate("document.activeElement.id") == "id_p0-table_points"
    for i, typed in enumerate(["12,5", "7a", "30", "0"]):
        page.focus(f"#id_p{i}-table_points")
        page.keyboard.type(typed)
    page.fill("#id_p3-eliminated", "1")
    assert page.input_value("#id_p1-table_points") == "7a"          # letters stay where they were typed
    page.click("#save-result")
    page.wait_for_selector(".has-error .field-error")
    assert page.inner_text(".has-error .field-error") == \
        it("Write the table points in digits, e.g. 62 or 12,5: “%(value)s” is not a number.", value="7a")
    # After the refused save the cursor is on the field in error, not on player 1.
    assert page.evaluate("document.activeElement.id") == "id_p1-table_points"
    shot(page, "evening-letters-refused-390")
    page.keyboard.type("7")                                      # its content is selected: typing replaces it
    assert page.input_value("#id_p1-table_points") == "7"
    page.click("#save-result")
    page.wait_for_url(f"**/tavoli/2/")
    assert _points(two_tables.tables.get(number=1)) == [Decimal("12.5"), Decimal(7), Decimal(30), Decimal(0)]
    assert page.console_errors == []
    page.context.close()


def test_a_table_at_0_and_a_tie_without_places_are_asked_first(browser, live_server, tournament, two_tables, shot):
    page = _page(browser, live_server, "arturo")
    table = two_tables.tables.get(number=1)
    page.goto(f"{live_server.url}/arbitro/t/{tournament.pk}/turni/1/tavoli/1/")
    for i in range(4):
        page.fill(f"#id_p{i}-table_points", "0")
    page.click("#save-result")
    page.wait_for_selector("[data-result-question]")
    assert _points(table) == [None] * 4
    shot(page, "evening-question-zero-390")
    for i, tp in enumerate(["50", "50", "30", "0"]):
        page.fill(f"#id_p{i}-table_points", tp)
    page.fill("#id_p3-eliminated", "1")
    page.click("#save-result")
    tie = it("%(n)d players are level on %(points)s table points and no place is given.", n=2, points="50")
    asked_tie = page.locator("[data-result-question] p").filter(has_text=tie)
    asked_tie.wait_for()
    assert asked_tie.inner_text() == tie
    assert _points(table) == [None] * 4
    page.click("#confirm-result")
    page.wait_for_url("**/tavoli/2/")
    assert _points(table) == [50, 50, 30, 0]
    # Offline the phone asks itself before keeping the save.
    page.wait_for_selector("#offline-status[data-kept]", state="attached")
    page.context.set_offline(True)
    for i in range(4):
        page.fill(f"#id_p{i}-table_points", "0")
    asked = []
    page.once("dialog", lambda d: (asked.append(d.message), d.dismiss()))
    with page.expect_event("dialog"):
        page.click("#save-result")
    assert asked == [it("Every player has 0 table points.") + " " + it("Save it as it is?")]
    assert "/tavoli/2/" in page.url                                  # dismissed: nothing kept, still here
    page.context.close()


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_close_the_round_looks_disabled_and_names_the_missing_tables(browser, live_server, tournament, organiser,
                                                                     two_tables, shot, viewport):
    report(two_tables.tables.get(number=1), [(62,), (48,), (30,), (0, 1)])
    page = _page(browser, live_server, "olga", viewport)
    page.goto(f"{live_server.url}/gestione/t/{tournament.pk}/turni/1/risultati/")
    button = page.locator("#close-round")
    assert button.is_disabled()
    assert page.inner_text("#close-round-why") == \
        it_n("Table %(tables)s is missing.", "Tables %(tables)s are missing.", 1, tables="2")
    style = button.evaluate("b => [getComputedStyle(b).backgroundColor, getComputedStyle(b).cursor]")
    assert style == ["rgb(228, 230, 235)", "not-allowed"]
    shot(page, f"evening-close-disabled-{viewport['width']}")
    report(two_tables.tables.get(number=2), [(62,), (48,), (30,), (0, 1)])
    page.reload()
    asked = []
    page.once("dialog", lambda d: (asked.append(d.message), d.accept()))
    page.click("#close-round")
    page.wait_for_selector("#reopen-round")
    assert asked == [it("Close round %(n)s? Results can then only be corrected after reopening it.", n=1)]
    two_tables.refresh_from_db()
    assert two_tables.status == "closed"
    page.once("dialog", lambda d: d.accept())
    page.click("#reopen-round")
    page.wait_for_selector("#close-round")
    two_tables.refresh_from_db()
    assert two_tables.status == "published"
    page.context.close()


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_new_tournament_short_first_screen_and_formula_fields(browser, live_server, organiser, shot, viewport):
    page = _page(browser, live_server, "olga", viewport)
    page.goto(f"{live_server.url}/gestione/tornei/nuovo/")
    controls = page.locator("form[method=post] .field").locator("input, select, textarea")
    visible = [controls.nth(i).get_attribute("name") for i in range(controls.count()) if controls.nth(i).is_visible()]
    assert visible == ["name", "start_date", "formula"]
    assert page.is_checked("#id_published")
    page.select_option("#id_formula", "spartaco")
    assert page.is_visible("#id_spartaco_malus") and not page.is_visible("#id_bonus")
    page.select_option("#id_formula", "bonus50")
    assert page.is_visible("#id_bonus") and not page.is_visible("#id_spartaco_malus")
    shot(page, f"evening-new-tournament-{viewport['width']}")
    page.context.close()


def test_the_fixed_plan_box_shows_only_for_the_fixed_method(browser, live_server, tournament, shot):
    for _ in range(8):
        RegistrationFactory(tournament=tournament, present=True)
    page = _page(browser, live_server, "olga")
    page.goto(f"{live_server.url}/gestione/t/{tournament.pk}/turni/")
    assert not page.is_visible("#id_plan")
    assert page.locator("details[data-show-when]").is_hidden()
    page.select_option("#id_method", "fixed")
    assert page.is_visible("#id_plan") and page.locator("details[data-show-when]").is_visible()
    page.context.close()


def test_round_2_is_not_offered_while_round_1_is_open(browser, live_server, tournament, organiser, two_tables, shot):
    report(two_tables.tables.get(number=1), [(62,), (48,), (30,), (0, 1)])
    page = _page(browser, live_server, "olga")
    page.goto(f"{live_server.url}/gestione/t/{tournament.pk}/turni/")
    assert page.locator("#id_method").count() == 0
    assert "1/2" in page.inner_text("[data-draw-blocked]")
    shot(page, "evening-round-open-390")
    page.context.close()


def test_the_5_player_form_fits_a_phone_with_save_in_reach(browser, live_server, tournament, shot):
    regs = [RegistrationFactory(tournament=tournament, player__first_name="Gioc", player__last_name=n) for n in NAMES[:5]]
    seat_round(tournament, [regs])
    page = _page(browser, live_server, "arturo")
    page.goto(f"{live_server.url}/arbitro/t/{tournament.pk}/turni/1/tavoli/1/")
    height = page.evaluate("document.querySelector('form.result-form').getBoundingClientRect().height")
    assert height < 1.2 * PHONE["height"], f"the form is {height:.0f} px high"   # it was 2.5 screens
    box = page.locator("#save-result").bounding_box()                # "Save" in view without scrolling
    assert 0 <= box["y"] and box["y"] + box["height"] <= PHONE["height"]
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]   # nothing sideways
    shot(page, "evening-five-players-390")
    page.context.close()


def test_a_pasted_list_with_a_duplicate_keeps_its_text_and_registers_the_valid_rows(browser, live_server,
                                                                                   tournament, shot):
    names = "\n".join(f"Gioc {n}" for n in NAMES) + "\nGioc Rossi\n"      # 9 lines, line 9 repeats line 1
    page = _page(browser, live_server, "olga")
    page.goto(f"{live_server.url}/gestione/t/{tournament.pk}/iscritti/")
    page.fill("#id_names", names)
    page.click("#preview-import")
    page.wait_for_selector("[data-import-errors]")
    assert page.input_value("#id_names") == names.rstrip("\n") or page.input_value("#id_names") == names
    assert page.locator("tr[data-row-error]").count() == 1
    assert page.locator("tr[data-row-error]").get_attribute("data-line") == "9"
    shot(page, "evening-pasted-list-errors-390")
    page.click("[data-register-valid]")
    expect_message(page, registered_from_list(8, new=8))
    # the repeated line named a player now registered: nothing is left to correct, and no message
    # says otherwise
    assert page.locator("ul.messages li").count() == 1
    assert page.locator("[data-import-errors]").count() == 0
    assert tournament.registrations.count() == 8
    page.context.close()
