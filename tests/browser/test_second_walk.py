"""The second walk through a club evening (issue 41), one test a point: what a player who glances at
a screen, an organiser or an arbiter still misread or waited for. Screenshots on a phone (390x844)
first, then 1366x768 or 1920x1080."""
from decimal import Decimal

import pytest
from django.urls import reverse

from tests.browser.catalogue import it, it_n
from tests.browser.conftest import PHONE
from tests.factories import PlayerFactory, RegistrationFactory, report, seat_round

pytestmark = pytest.mark.django_db(transaction=True)
LAPTOP = {"width": 1366, "height": 768}
TV = {"width": 1920, "height": 1080}
SURNAMES = ["Rossi", "Bianchi", "Ferrari", "Romano", "Colombo", "Ricci", "Marino", "Greco"]


def _context(browser, viewport=PHONE):
    phone = viewport == PHONE
    context = browser.new_context(viewport=viewport, device_scale_factor=1, locale="it-IT", is_mobile=phone,
                                  has_touch=phone)
    page = context.new_page()
    page.set_default_timeout(8000)
    page.console_errors = []
    page.on("pageerror", lambda e: page.console_errors.append(str(e)))
    page.on("console", lambda m: page.console_errors.append(m.text) if m.type == "error"
            and not m.text.startswith("Failed to load resource") else None)
    return page


def _login(page, live_server, username):
    page.goto(live_server.url + "/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", "pw-for-tests-123")
    page.click("main button[type=submit]")
    page.wait_for_url(lambda url: "/accounts/login/" not in url)


def _players(tournament, n=8):
    return [RegistrationFactory(tournament=tournament, present=True,
                                player=PlayerFactory(first_name=f"Nome{i}", last_name=SURNAMES[i % 8]))
            for i in range(n)]


@pytest.fixture
def two_rounds_one_discarded(tournament):
    """Two rounds played and closed, the worst result of each player discarded: Rossi scores 80 then
    150,36, a total of 150,36."""
    tournament.formula = "punti_tavolo"
    tournament.discard_worst = 1
    tournament.save()
    regs = _players(tournament, 4)
    r1 = seat_round(tournament, [regs], status="closed")
    report(r1.tables.get(), [(80,), (60,), (40,), (0, 1)])
    r2 = seat_round(tournament, [regs], status="closed")
    report(r2.tables.get(), [(Decimal("150.36"),), (50,), (30,), (0, 1)])
    return regs


def test_a_result_that_does_not_count_is_struck_through_in_every_standings_view(
        browser, live_server, tournament, two_rounds_one_discarded, shot):
    rossi = two_rounds_one_discarded[0]
    rule = it("Total: %(rule)s; struck-through results do not count.",
              rule=it_n("the worst result is discarded", "the worst %(n)s results are discarded", 1))
    page = _context(browser)
    page.goto(live_server.url + reverse("public:player", args=[tournament.pk, rossi.pk]))
    assert page.inner_text("[data-counting]") == rule
    assert page.locator("[data-dropped] s").all_inner_texts() == ["80"]
    assert page.inner_text("[data-dropped] .badge") == it("not counted")
    shot(page, "walk1-player-390")
    page.context.close()

    page = _context(browser, LAPTOP)
    page.goto(live_server.url + reverse("public:standings", args=[tournament.pk]))
    row = page.locator(f"tr[data-reg='{rossi.pk}']")
    assert row.locator("td.total").inner_text() == "150,36"
    assert row.locator("td[data-dropped] s").all_inner_texts() == ["80"]
    assert page.locator("td[data-dropped]").count() == 4            # one a player
    assert page.inner_text("[data-counting]") == rule
    shot(page, "walk1-standings-1366")
    page.goto(live_server.url + reverse("public:standings_print", args=[tournament.pk]))
    assert page.locator(f"tr[data-reg='{rossi.pk}'] td[data-dropped] s").all_inner_texts() == ["80"]
    assert page.inner_text("[data-counting]") == rule
    page.context.close()

    tournament.screen_panels = "standings"
    tournament.save()
    page = _context(browser, TV)
    page.goto(live_server.url + reverse("public:screen", args=[tournament.pk]))
    page.wait_for_selector("[data-standing]")
    assert page.inner_text("[data-counting]") == it(
        "Total: %(rule)s.", rule=it_n("the worst result is discarded", "the worst %(n)s results are discarded", 1))
    shot(page, "walk1-screen-1920")
    assert page.console_errors == []
    page.context.close()


# point 2: B and C share rank 2 on their counted games (90 + 80) and B's third game decides; J and K
# share the best game (95) among those left and K's second game takes the repêchage seat.
EVENINGS = {"A": [100, 100, 100], "B": [90, 80, 50], "C": [90, 80, 40], "D": [75, 75, 75], "E": [74, 74, 74],
            "F": [73, 73, 73], "G": [72, 72, 72], "H": [71, 71, 71], "I": [70, 70, 70], "J": [95, 30, 20],
            "K": [10, 95, 40], "L": [50, 40, 30]}
EVENING_TABLES = [["A", "B", "D", "E"], ["C", "F", "G", "H"], ["I", "J", "K", "L"]]
# the surnames sort the other way round from the decided order, so that the table cannot agree by chance
EVENING_NAMES = {"B": "Zanetti", "C": "Bassi", "J": "Amato", "K": "Zucchi"}


@pytest.fixture
def three_evenings(tournament, organiser):
    from phases import services as phase_services
    from tables.rounds import services as round_services
    tournament.formula = "punti_tavolo"
    tournament.save()
    regs = {key: RegistrationFactory(tournament=tournament, present=True,
                                     player=PlayerFactory(first_name=key, last_name=EVENING_NAMES.get(key, key * 3)))
            for key in EVENINGS}
    phase_services.format_apply(user=organiser, tournament=tournament, preset="evenings_top2_repechage", games=3,
                                discards=1)
    tournament.refresh_from_db()
    for n in range(3):
        rnd = seat_round(tournament, [[regs[k] for k in keys] for keys in EVENING_TABLES])
        for table, keys in zip(rnd.tables.order_by("number"), EVENING_TABLES):
            report(table, [(EVENINGS[k][n],) for k in keys], user=organiser)
        round_services.round_close(user=organiser, rnd=rnd)
    return regs


def test_the_cut_lines_are_in_the_standings_table_and_agree_with_the_zones_on_ties(
        browser, live_server, tournament, three_evenings, shot):
    regs = three_evenings
    ids = {str(r.pk): k for k, r in regs.items()}
    for viewport, name in ((PHONE, "390"), (LAPTOP, "1366")):
        page = _context(browser, viewport)
        page.goto(live_server.url + reverse("public:standings", args=[tournament.pk]))
        rows = page.locator("tr[data-reg]")
        order = [ids[r] for r in rows.evaluate_all("rs => rs.map(r => r.dataset.reg)")]
        assert order == list("ABCDEFGHIKJL")                         # B before C, K before J: as decided
        zones = dict(zip(order, rows.evaluate_all("rs => rs.map(r => r.dataset.zone || '')")))
        assert [k for k in order if zones[k] == "final"] == ["A", "B"]
        assert [k for k in order if zones[k] == "semifinal"] == list("CDEFGHI")
        assert [k for k in order if zones[k] == "repechage"] == ["K"]
        assert page.locator("tr.cut-final").get_attribute("data-reg") == str(regs["B"].pk)
        assert page.locator("tr.cut-semifinal").get_attribute("data-reg") == str(regs["I"].pk)
        assert page.locator(f"tr[data-reg='{regs['K'].pk}'] .zone-tag").inner_text() == it("Repêchage")
        # the zone lists: the same order and the same shared ranks as the table
        table_ranks = dict(zip(order, rows.locator("td:first-child").all_inner_texts()))
        for zone, keys in (("final", "AB"), ("semifinal", "CDEFGHI")):
            items = page.locator(f"ol[data-zone={zone}] li")
            assert [ids[i] for i in items.evaluate_all("ls => ls.map(l => l.dataset.registration)")] == list(keys)
            assert items.evaluate_all("ls => ls.map(l => String(l.value))") == [table_ranks[k] for k in keys]
        b, c, j, k = (regs[x].player.full_name for x in "BCJK")
        assert page.inner_text("[data-tie-note=final]") == it(
            "%(ahead)s and %(behind)s share rank %(rank)s: %(ahead)s is ahead by %(rule)s.",
            ahead=b, behind=c, rank=2, rule=it("the %(n)sth best game", n=3))
        assert page.inner_text("[data-tie-note=repechage]") == it(
            "%(ahead)s and %(behind)s have the same best game (%(best)s): the repêchage seat goes to "
            "%(ahead)s by %(rule)s.", ahead=k, behind=j, best="95", rule=it("the second-best game"))
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
        shot(page, f"walk2-standings-{name}")
        assert page.console_errors == []
        page.context.close()


def test_the_widget_shows_the_standings_that_the_json_gives_and_both_say_which(
        browser, live_server, tournament, organiser, shot):
    from tables.rounds.services import round_close, standings_publish
    tournament.formula = "punti_tavolo"
    tournament.save()
    regs = _players(tournament, 4)
    r1 = seat_round(tournament, [regs])
    report(r1.tables.get(), [(80,), (60,), (40,), (0, 1)])
    round_close(user=organiser, rnd=r1)
    standings_publish(user=organiser, rnd=r1)
    r2 = seat_round(tournament, [regs])                            # in play: Bianchi leads, not yet published
    report(r2.tables.get(), [(0, 1), (120,), (40,), (30,)])
    page = _context(browser)
    page.goto(live_server.url + reverse("public:standings_widget", args=[tournament.pk]))
    data = page.request.get(live_server.url + reverse("public:standings_json", args=[tournament.pk])).json()
    assert (data["status"], data["after_round"]) == ("published", 1)
    assert page.locator("[data-widget] tbody tr td:nth-child(2)").all_inner_texts() == [r["player"] for r in data["rows"]]
    assert data["rows"][0]["player"] == regs[0].player.full_name
    assert page.inner_text("[data-status]") == it("Provisional standings")
    live = page.request.get(live_server.url + reverse("public:standings_json", args=[tournament.pk]) + "?live=1").json()
    assert (live["status"], live["after_round"], live["rows"][0]["player"]) == (
        "provisional", 2, regs[1].player.full_name)
    shot(page, "walk3-widget-390")
    page.context.close()


def test_find_your_table_suggests_names_marks_the_player_and_remembers_them(
        browser, live_server, tournament, organiser, shot):
    from tests.browser.test_room_flow import _room
    regs, r2 = _room(tournament, organiser)
    lombardi = regs[8]                                           # "Nome8 Lombardi", low in the standings
    table = r2.tables.get(seats__registration=lombardi).number
    page = _context(browser)
    page.goto(live_server.url + reverse("public:round", args=[tournament.pk, 2]))
    assert page.locator("#tables ol").count() == 0               # names, not numbers read as seats
    page.fill("#find", "Lombardy")
    page.press("#find", "Enter")
    page.wait_for_selector("[data-not-found]")
    assert page.locator("[data-suggestion]").all_inner_texts()[0] == lombardi.player.display_name
    shot(page, "walk4-not-found-390")
    page.click("[data-suggestion] >> nth=0")
    found = page.locator("li[data-found]")
    found.wait_for()
    assert found.count() == 1
    assert found.locator("a[data-player-link]").get_attribute("href") == reverse(
        "public:player", args=[tournament.pk, lombardi.pk])
    found.locator("[data-me-button]").click()
    banner = page.locator("[data-your-table] a")
    banner.wait_for()
    words = it("Your table: Round {round} — Table {table}").replace("{round}", "2").replace("{table}", str(table))
    assert banner.inner_text() == words
    shot(page, "walk4-found-390")
    page.goto(live_server.url + reverse("public:tournament", args=[tournament.pk]))
    banner.wait_for()
    assert banner.inner_text() == words
    assert page.locator("[data-your-table]").bounding_box()["y"] < page.locator("main h1").bounding_box()["y"]
    shot(page, "walk4-tournament-390")
    page.goto(live_server.url + reverse("public:standings", args=[tournament.pk]))
    me = page.locator(f"tr.is-me[data-reg='{lombardi.pk}']")
    me.wait_for()
    page.wait_for_function("() => window.scrollY > 0")
    box = me.bounding_box()
    assert 0 <= box["y"] and box["y"] + box["height"] <= PHONE["height"]
    assert page.console_errors == []
    page.context.close()


def test_the_round_clock_starts_from_the_round_page_and_shows_on_the_results_dashboard(
        browser, live_server, tournament, organiser, shot):
    from tests.browser.test_room_flow import _room
    _regs, r2 = _room(tournament, organiser, players=8)
    page = _context(browser)
    _login(page, live_server, "olga")
    page.goto(live_server.url + reverse("manage:round_dashboard", args=[tournament.pk, 2]))
    assert page.inner_text("#start-clock") == it("Start the clock")
    shot(page, "walk5-dashboard-390")
    page.goto(live_server.url + reverse("manage:round", args=[tournament.pk, 2]))
    assert page.inner_text("#clock-box-title") == it("Round clock")
    page.fill("#clock-minutes", "75")
    page.click("#start-clock")
    page.wait_for_selector("#round-clock[data-deadline]")
    assert page.url.endswith(reverse("manage:round", args=[tournament.pk, 2]))
    r2.refresh_from_db()
    assert r2.clock_started_at is not None and r2.clock_minutes == 75
    shot(page, "walk5-round-running-390")
    page.goto(live_server.url + reverse("manage:round_dashboard", args=[tournament.pk, 2]))
    page.wait_for_selector("#round-clock[data-deadline]")
    assert page.locator("#start-clock").count() == 0
    assert page.console_errors == []
    page.context.close()


def test_the_big_screen_turns_in_a_minute_with_120_players_and_files_surnames_as_typed(
        browser, live_server, tournament, organiser, shot):
    from tables.clock.services import clock_start
    from tests.browser.test_room_flow import _assert_readable
    surnames = ["Abate", "Bruni", "Conti", "Dori", "Esposito", "Ferri", "Galli", "Innocenti", "Lombardi", "Marino",
                "Neri", "Orlando", "Pace", "Quaranta", "Rinaldi", "Sala", "Testa", "Urbani", "Valli", "Zeta"]
    regs = [RegistrationFactory(tournament=tournament, present=True,
                                player=PlayerFactory(first_name=f"Nome{i}", last_name=surnames[i % 20]))
            for i in range(119)]
    # pasted as "Giovanni Della Torre di Montebello" and split at the wrong word by an older list
    della = RegistrationFactory(tournament=tournament, present=True, player=PlayerFactory(
        first_name="Giovanni Della Torre", last_name="di Montebello", created_by=organiser))
    regs.insert(0, della)
    tournament.formula = "punti_tavolo"
    tournament.save()
    rnd = seat_round(tournament, [regs[i:i + 4] for i in range(0, 120, 4)])
    report(rnd.tables.get(number=1), [(90,), (50,), (30,), (0, 1)])
    clock_start(user=organiser, rnd=rnd, minutes=90)

    page = _context(browser)                                      # the organiser corrects the split
    _login(page, live_server, "olga")
    page.goto(live_server.url + reverse("manage:player_edit", args=[della.player.pk]))
    page.check("input[name=surname_from][value='1']")
    shot(page, "walk6-player-card-390")
    page.click("form.stack button[type=submit]")
    page.wait_for_url("**/giocatori/")
    della.player.refresh_from_db()
    assert (della.player.first_name, della.player.last_name) == ("Giovanni", "Della Torre di Montebello")
    page.context.close()

    page = _context(browser, TV)
    page.goto(live_server.url + reverse("public:screen", args=[tournament.pk]))
    page.wait_for_selector("[data-seat]")
    # the clock beside the seating, not a page of its own; a whole turn within a minute
    assert page.get_attribute("body", "data-current-panel") == "seating"
    assert page.locator(".screen-seating [data-clock-time]").count() == 1
    assert int(page.get_attribute("body", "data-turn-seconds")) <= 60
    _assert_readable(page)
    heads = page.locator("[data-seating-col]").evaluate_all("cs => cs.map(c => c.dataset.seatingCol)")
    assert len(heads) == 3 and all(heads)
    title = page.inner_text("[data-panel-title]")
    first, last = heads[0].split(" – ")[0], heads[-1].split(" – ")[-1]
    assert title == f"{it('Round')} 1 · {it('Seating')} · {first} – {last} · {it('page')} 1/2"
    names = page.locator("[data-seat] .name").all_inner_texts()
    assert "Della Torre di Montebello Giovanni" in names
    assert names.index("Della Torre di Montebello Giovanni") < names.index("Dori Nome3")
    shot(page, "walk6-screen-seating-1920")
    # the latest results: a long name ends with an ellipsis, its points stay in the box
    from tournaments.services import tournament_room_save
    tournament_room_save(user=organiser, tournament=tournament, data={"screen_panels": ["results"]})
    page.reload()
    page.wait_for_selector("[data-result]")
    fits = page.locator("[data-result] li").evaluate_all("""ls => ls.map(l => {
        const s = l.querySelector('span'), p = l.querySelector('strong');
        return p.getBoundingClientRect().right <= l.getBoundingClientRect().right + 0.5
               && getComputedStyle(s).textOverflow === 'ellipsis'; })""")
    assert fits and all(fits)
    shot(page, "walk6-screen-results-1920")
    assert page.console_errors == []
    page.context.close()


def _pdf_pages(page):
    import re
    return len(re.findall(rb"/Type\s*/Page[^s]", page.pdf(format="A4")))


def test_printing_sheets_with_their_addresses_values_at_9pt_and_wall_pages_with_letters(
        browser, live_server, tournament, organiser, shot):
    surnames = SURNAMES + ["Della Torre di Montebello"]
    regs = [RegistrationFactory(tournament=tournament, present=True, player=PlayerFactory(
        first_name="Giovanni Battista" if i == 5 else f"Nome{i}", last_name=surnames[i % 9])) for i in range(100)]
    rnd = seat_round(tournament, [regs[i:i + 4] for i in range(0, 100, 4)])
    page = _context(browser, LAPTOP)
    _login(page, live_server, "olga")
    page.goto(live_server.url + reverse("manage:sheets", args=[tournament.pk, rnd.number]))
    page.emulate_media(media="print")
    urls = page.locator("[data-qr-url]").all_inner_texts()
    assert urls[0] == live_server.url + reverse("arbiter:table", args=[tournament.pk, rnd.number, 1])
    assert len(urls) == 25
    sizes = page.locator(".tv-grid li").evaluate_all("ls => ls.map(l => parseFloat(getComputedStyle(l).fontSize))")
    assert min(sizes) >= 12                                       # 9 pt
    shot(page, "walk7-table-sheets-1366")
    # the public sheet of one table: one A4 page, without the site's navigation
    page.goto(live_server.url + reverse("public:table_sheet", args=[tournament.pk, rnd.number, 2]))
    assert page.locator(".site-header").is_hidden()
    sizes = page.locator(".tv-grid li").evaluate_all("ls => ls.map(l => parseFloat(getComputedStyle(l).fontSize))")
    assert min(sizes) >= 12
    assert _pdf_pages(page) == 1
    shot(page, "walk7-public-table-sheet-print-1366")
    # the wall list: every name on one line, each page says its letter range
    page.goto(live_server.url + reverse("public:wall_list", args=[tournament.pk, rnd.number]))
    ranges = page.locator("[data-wall-page]").evaluate_all("ps => ps.map(p => p.dataset.letters)")
    assert len(ranges) == 2 and ranges[0].startswith("B") and ranges[-1].endswith("R")
    assert page.locator("[data-wall-range]").all_inner_texts() == ranges
    one_line = page.locator(".wall-name").evaluate_all("""ns => ns.map(n => n.getClientRects().length === 1
        && n.scrollWidth <= n.clientWidth + 1 && n.getBoundingClientRect().height < 40)""")
    assert len(one_line) == 100 and all(one_line)
    assert _pdf_pages(page) == 2
    shot(page, "walk7-wall-list-print-1366")
    page.context.close()


def test_numbers_read_in_italian_on_forms_and_the_preview_counts_tables(
        browser, live_server, tournament, organiser, arbiter, shot):
    from circuits.models import Circuit, CircuitTournament
    tournament.entry_fee = Decimal("12.50")
    tournament.save()
    circuit = Circuit.objects.create(name="Stagione", season="2026", organiser=organiser,
                                     participation=Decimal("1.50"))
    CircuitTournament.objects.create(circuit=circuit, tournament=tournament, weight=Decimal("1.50"))
    regs = _players(tournament, 9)
    first = seat_round(tournament, [regs[:5], regs[5:]], status="closed")
    report(first.tables.get(number=1), [(Decimal("12.5"),), (60,), (40,), (20,), (0, 1)])
    seat_round(tournament, [regs[:5], regs[5:]], status="draft")  # the same five at the table of 5 again

    page = _context(browser)
    _login(page, live_server, "arturo")
    page.goto(live_server.url + reverse("arbiter:table", args=[tournament.pk, 1, 1]))
    assert page.input_value("#id_p0-table_points") == "12,5"      # as typed, never 12.50
    shot(page, "walk8-correction-390")
    page.context.close()

    page = _context(browser)
    _login(page, live_server, "olga")
    page.goto(live_server.url + reverse("manage:circuit", args=[circuit.pk]))
    assert page.input_value("#id_participation") == "1,5"
    assert page.input_value("#id_weight") == "1"
    page.fill("#id_participation", "2,5")
    page.click("#id_participation >> xpath=ancestor::form//button[@type='submit']")
    page.wait_for_load_state()
    circuit.refresh_from_db()
    assert circuit.participation == Decimal("2.5")
    page.goto(live_server.url + reverse("manage:tournament_edit", args=[tournament.pk]))
    assert page.input_value("#id_entry_fee") == "12,5"
    page.goto(live_server.url + reverse("manage:round", args=[tournament.pk, 2]))
    assert page.get_attribute("[data-repeat-five-tables]", "data-repeat-five-tables") == "1"
    assert page.inner_text("[data-repeat-five-tables]") == it_n(
        "<strong>%(n)s</strong> repeat 5-player table", "<strong>%(n)s</strong> repeat 5-player tables", 1)
    shot(page, "walk8-preview-390")
    assert page.console_errors == []
    page.context.close()


def test_the_organisers_screens_copy_paste_format_and_the_arbiters_landing(
        browser, live_server, tournament, organiser, arbiter, shot):
    from tests.factories import TournamentFactory
    from tournaments.models import Registration
    earlier = TournamentFactory(organiser=organiser, name="Serata di ottobre")
    page = _context(browser)
    _login(page, live_server, "olga")
    page.goto(live_server.url + reverse("manage:tournament_create") + f"?copia={earlier.pk}")
    assert page.input_value("#id_name") == ""                     # last month's name is not taken along
    # a pasted list with a name twice and a line in error: the messages and the box agree
    page.goto(live_server.url + reverse("manage:registrations", args=[tournament.pk]))
    page.evaluate("document.querySelector('#import-panel').open = true")
    page.fill("#id_names", "Anna Neri\nMarco Verdi\nMarco Verdi\nCher")
    page.click("#preview-import")
    page.wait_for_selector("[data-register-valid]")
    page.click("#confirm-import")
    page.wait_for_selector("[data-import-errors]")
    assert page.locator("ul.messages li").all_inner_texts() == [
        it_n("%(n)d player registered", "%(n)d players registered", 2) + " (" + it_n("%(n)d new", "%(n)d new", 2) + ").",
        it_n("The line with an error is left in the box: correct it and preview again.",
             "The %(n)d lines with errors are left in the box: correct them and preview again.", 1)]
    assert page.get_attribute("[data-import-errors]", "data-import-errors") == "1"
    assert page.input_value("#id_names") == "Cher"
    assert Registration.objects.filter(tournament=tournament).count() == 2
    shot(page, "walk9-pasted-left-over-390")
    # the format page: the chosen format's help and the composer close below; restated once saved
    page.goto(live_server.url + reverse("manage:formats", args=[tournament.pk]))
    assert page.locator("[data-composition]").is_hidden()
    page.check("#preset-evenings_top2_repechage")
    assert page.locator("[data-composition]").is_visible()
    assert page.locator(".preset-choice .help:visible").count() == 2   # its help and its decisions only
    page.fill("#id_games", "4")
    page.fill("#id_discards", "1")
    page.click("#apply-format")
    page.wait_for_selector("[data-composed-summary]")
    lines = page.locator("[data-composed-summary] li").all_inner_texts()
    assert len(lines) == 2 and lines[0].startswith(it("Up to %(n)s participants", n=24))
    shot(page, "walk9-format-saved-390")
    page.context.close()
    # the arbiter lands on the tournament in play
    regs = _players(tournament, 4)
    seat_round(tournament, [regs])
    page = _context(browser)
    _login(page, live_server, "arturo")
    assert page.url == live_server.url + reverse("arbiter:home", args=[tournament.pk])
    assert page.console_errors == []
    page.context.close()


def _had_its_chance_to_move(page, kept=True):
    """Whatever could move the form has happened: the phone kept the round for offline use (the worker's
    answer, #offline-status[data-kept], the last thing the page does once open), every animation
    ended and two frames were drawn since."""
    if kept:
        page.wait_for_selector("#offline-status[data-kept]", state="attached")
    page.evaluate("""() => Promise.all(document.getAnimations().map((a) => a.finished)).then(
        () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))))""")


def test_the_arbiters_form_after_a_refusal_saves_from_the_keypad_and_keeps_still(
        browser, live_server, tournament, organiser, arbiter, shot):
    from tables.models import Seat
    regs = _players(tournament, 8)
    rnd = seat_round(tournament, [regs[:4], regs[4:]])
    page = _context(browser)
    _login(page, live_server, "arturo")
    page.goto(live_server.url + reverse("arbiter:table", args=[tournament.pk, rnd.number, 1]))
    first = page.locator("form.result-form").bounding_box()
    _had_its_chance_to_move(page)                                 # the phone keeps the round for offline use
    assert page.locator("form.result-form").bounding_box() == first
    for i, typed in enumerate(["62", "4x", "30", "0"]):
        page.fill(f"#id_p{i}-table_points", typed)
    page.fill("#id_p3-eliminated", "1")
    page.click("#save-result")
    page.wait_for_selector(".has-error .field-error")
    card = page.locator("form.result-form")
    before = card.bounding_box()
    _had_its_chance_to_move(page)                                 # nothing moves while the arbiter reads it
    assert card.bounding_box() == before
    shot(page, "walk10-refused-390")
    page.keyboard.type("48")                                      # the field in error has the cursor
    for _ in range(3):                                            # the keypad's "next", and on the last player
        page.keyboard.press("Enter")
    page.wait_for_url("**/tavoli/2/")
    points = list(Seat.objects.filter(table__round=rnd, table__number=1).order_by("position")
                  .values_list("table_points", flat=True))
    assert points == [62, 48, 30, 0]
    # offline, a row waiting to be sent shows that state alone
    page.goto(live_server.url + reverse("arbiter:home", args=[tournament.pk]))
    page.wait_for_selector("#offline-status[data-kept]", state="attached")
    page.context.set_offline(True)
    page.reload()
    page.click("a[data-offline-table] >> nth=1")
    page.wait_for_selector("form.result-form")
    for i, typed in enumerate(["55", "41", "20", "0"]):
        page.fill(f"#id_p{i}-table_points", typed)
    page.fill("#id_p3-eliminated", "1")
    page.click("#save-result")
    page.wait_for_url("**?in-attesa=1")
    row = page.locator("a[data-offline-table]").nth(1)
    row.locator(".queued:not([hidden])").wait_for()
    states = row.locator(".badge:visible, .queued:visible").all_inner_texts()
    assert len(states) == 1, states
    shot(page, "walk10-offline-row-390")
    page.click("a[data-offline-table] >> nth=0")                 # a result waits: the card still keeps still
    page.wait_for_selector("form.result-form")
    first = page.locator("form.result-form").bounding_box()
    _had_its_chance_to_move(page, kept=False)                     # offline: the round is not kept again
    assert page.locator("form.result-form").bounding_box() == first
    assert page.console_errors == []
    page.context.close()


MISSING_REFERENCES = """() => [...document.querySelectorAll('[aria-describedby]')].flatMap(e =>
    e.getAttribute('aria-describedby').split(/\\s+/).filter(id => id && !document.getElementById(id))
     .map(id => (e.id || e.name) + ' -> ' + id))"""


def _checked(page, where):
    """Every aria-describedby names an element of the page, and axe finds nothing serious or critical."""
    from tests.browser.test_accessibility import SERIOUS
    from tests.browser.test_room_flow import AXE
    missing = page.evaluate(MISSING_REFERENCES)
    page.add_script_tag(path=str(AXE))
    return {where: (missing, page.evaluate(SERIOUS))} if missing or page.evaluate(SERIOUS) else {}


def test_pages_in_error_states_point_to_what_describes_their_fields_and_pass_axe(
        browser, live_server, tournament, organiser, arbiter, shot):
    from tests.browser.test_room_flow import AXE
    if not AXE.exists():
        pytest.skip("axe-core not installed: make node_modules/.installed")
    regs = _players(tournament, 8)
    rnd = seat_round(tournament, [regs[:4], regs[4:]])
    found = {}
    context = browser.new_context(viewport=PHONE, bypass_csp=True, locale="it-IT")
    page = context.new_page()
    page.set_default_timeout(8000)
    _login(page, live_server, "olga")
    page.goto(live_server.url + reverse("manage:tournament_create"))
    page.click("form.stack button[type=submit]")
    page.wait_for_selector(".field-error")
    found.update(_checked(page, "new tournament, refused"))
    shot(page, "walk11-new-tournament-refused-390")
    page.goto(live_server.url + reverse("manage:formats", args=[tournament.pk]))
    page.check("#preset-evenings_top2_repechage")
    page.fill("#id_semifinal_from", "3")
    page.click("#apply-format")
    page.wait_for_selector(".field-error")
    found.update(_checked(page, "format, refused"))
    page.goto(live_server.url + reverse("arbiter:penalties", args=[tournament.pk]))
    page.evaluate("document.querySelector('details.panel').open = true")
    page.click("form.stack button[type=submit]")
    page.wait_for_selector(".field-error")
    found.update(_checked(page, "penalty, refused"))
    page.goto(live_server.url + reverse("arbiter:table", args=[tournament.pk, rnd.number, 1]))
    for i, typed in enumerate(["62", "4x", "30", "0"]):
        page.fill(f"#id_p{i}-table_points", typed)
    page.click("#save-result")
    page.wait_for_selector(".has-error .field-error")
    found.update(_checked(page, "table result, refused"))
    shot(page, "walk11-result-refused-390")
    context.close()
    assert found == {}
