"""The room in a browser: the big screen at 1920x1080 and 1280x720 (type size measured, panels
turning, a dropped network survived), find me and my table on a phone, axe-core on the new pages."""
import time
from pathlib import Path

import pytest
from django.urls import reverse

from tables.clock.services import clock_start
from tests.browser.catalogue import it
from tests.factories import PlayerFactory, RegistrationFactory, report, seat_round

pytestmark = pytest.mark.django_db(transaction=True)

TV = {"width": 1920, "height": 1080}
AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"
SURNAMES = ["Àlbani", "Bruni", "Conti", "Dori", "Esposito", "Ferri", "Galli", "Innocenti", "Lombardi", "Marino",
            "Neri", "Orlando", "Pace", "Quaranta", "Rinaldi", "Sala", "Testa", "Urbani", "Valli", "Zeta"]


def _room(tournament, organiser, players=20):
    """A tournament at its second round: round 1 played, round 2 published with one table reported."""
    tournament.formula = "punti_tavolo"
    tournament.save()
    regs = [RegistrationFactory(tournament=tournament,
                                player=PlayerFactory(first_name=f"Nome{i}", last_name=SURNAMES[i % 20]))
            for i in range(players)]
    r1 = seat_round(tournament, [regs[i:i + 4] for i in range(0, players, 4)], status="closed")
    for n, table in enumerate(r1.tables.order_by("number")):
        report(table, [(80 - n,), (60,), (40,), (0, 1)])
    order = regs[1::2] + regs[0::2]
    r2 = seat_round(tournament, [order[i:i + 4] for i in range(0, players, 4)])
    report(r2.tables.get(number=1), [(90,), (50,), (30,), (0, 1)])
    return regs, r2


def _tv(browser, size=TV):
    context = browser.new_context(viewport=size, device_scale_factor=1, locale="it-IT")
    page = context.new_page()
    page.console_errors = []
    page.on("console", lambda m: page.console_errors.append(m.text)
            if m.type == "error" and not m.text.startswith("Failed to load resource") else None)
    page.on("pageerror", lambda e: page.console_errors.append(str(e)))
    return context, page


def _panel(page):
    return page.get_attribute("body", "data-current-panel")


def _assert_readable(page):
    sizes = page.evaluate("""() => [document.body, ...document.querySelectorAll('[data-panel] *')]
        .filter(e => e.childNodes.length && [...e.childNodes].some(n => n.nodeType === 3 && n.textContent.trim()))
        .map(e => parseFloat(getComputedStyle(e).fontSize))""")
    assert sizes and min(sizes) >= 28, sizes
    dims = page.evaluate("""() => ({sw: document.documentElement.scrollWidth, sh: document.documentElement.scrollHeight,
                                     w: window.innerWidth, h: window.innerHeight})""")
    assert dims["sw"] <= dims["w"] and dims["sh"] <= dims["h"], dims
    cut = page.evaluate("""() => { const box = document.querySelector('[data-panel]').getBoundingClientRect();
        return [...document.querySelectorAll('[data-seat], [data-standing], [data-result]')]
          .filter(e => e.getBoundingClientRect().bottom > box.bottom + 1).length; }""")
    assert cut == 0  # no line cut in half at the bottom of the screen


def test_big_screen_turns_through_its_panels_readable_at_1920(live_server, browser, shot, tournament, organiser):
    regs, r2 = _room(tournament, organiser)
    clock_start(user=organiser, rnd=r2, minutes=90)
    tournament.screen_seconds = 5
    tournament.save()
    context, page = _tv(browser)
    polls = []
    page.on("request", lambda r: polls.append(time.monotonic()) if r.url.endswith("/dati.json") else None)
    page.goto(live_server.url + reverse("public:screen", args=[tournament.pk]))
    seen, counts = [], {}
    deadline = time.monotonic() + 40
    while time.monotonic() < deadline and len(seen) < 4:
        page.wait_for_function("p => document.body.getAttribute('data-current-panel') + '|' + "
                               "document.body.getAttribute('data-current-page') !== p",
                               arg=seen[-1] if seen else "null|null", timeout=8000)
        panel, number = _panel(page), page.get_attribute("body", "data-current-page")
        seen.append(f"{panel}|{number}")
        counts[panel] = page.locator("[data-seat], [data-standing], [data-result], [data-clock-time]").count()
        _assert_readable(page)
        shot(page, f"room-screen-1920-{len(seen)}-{panel}")
    # 20 players: one page of seating with the running clock beside it, one of standings in columns;
    # then round again
    assert seen[:4] == ["seating|1/1", "results|1/1", "standings|1/1", "seating|1/1"]
    assert counts == {"seating": 21, "results": 1, "standings": 20}
    # one request at the start, then one every 15 s: never more
    assert polls and all(b - a >= 14 for a, b in zip(polls, polls[1:]))
    assert page.console_errors == []
    context.close()


def test_big_screen_seating_lists_every_player_by_surname(live_server, browser, shot, tournament, organiser):
    regs, r2 = _room(tournament, organiser)
    tournament.screen_panels = "seating"
    tournament.save()
    context, page = _tv(browser)
    page.goto(live_server.url + reverse("public:screen", args=[tournament.pk]))
    page.wait_for_selector("[data-seat]")
    names = page.locator("[data-seat] .name").all_inner_texts()
    assert len(names) == 20
    assert names[:2] == ["Àlbani Nome0", "Bruni Nome1"]
    _assert_readable(page)
    shot(page, "room-screen-1920-seating")
    context.close()


def test_big_screen_at_720p_keeps_28px_and_no_scroll(live_server, browser, shot, tournament, organiser):
    _room(tournament, organiser)
    tournament.screen_panels = "seating,standings"
    tournament.screen_seconds = 5
    tournament.save()
    context, page = _tv(browser, {"width": 1280, "height": 720})
    page.goto(live_server.url + reverse("public:screen", args=[tournament.pk]))
    page.wait_for_selector("[data-seat]")
    _assert_readable(page)
    shot(page, "room-screen-1280-seating")
    page.wait_for_selector("[data-standing]", timeout=8000)
    rows = page.locator("[data-standing]").count()  # one column at 1280: as many rows as fit
    assert 8 <= rows < 20
    assert page.get_attribute("body", "data-current-page") == f"1/{-(-20 // rows)}"
    _assert_readable(page)
    shot(page, "room-screen-1280-standings")
    context.close()


def test_big_screen_keeps_its_content_offline_and_resumes(live_server, browser, shot, tournament, organiser,
                                                          settings):
    settings.SCREEN_POLL_SECONDS = 2
    regs, r2 = _room(tournament, organiser)
    tournament.screen_panels = "results"
    tournament.save()
    context, page = _tv(browser)
    statuses = []
    page.on("response", lambda r: statuses.append(r.status) if r.url.endswith("/dati.json") else None)
    page.goto(live_server.url + reverse("public:screen", args=[tournament.pk]))
    page.wait_for_selector("[data-result]")
    assert page.get_attribute("body", "data-poll") == "2"
    deadline = time.monotonic() + 8
    while 304 not in statuses and time.monotonic() < deadline:
        page.wait_for_timeout(250)
    assert 304 in statuses, statuses  # nothing changed: answered with no body
    context.set_offline(True)
    page.wait_for_selector("[data-offline]:not([hidden])", timeout=8000)
    assert page.locator("[data-result]").count() == 1  # the last content stays
    shot(page, "room-screen-offline")
    report(r2.tables.get(number=2), [(70,), (50,), (30,), (0, 1)])
    context.set_offline(False)
    page.wait_for_selector("[data-offline]", state="hidden", timeout=8000)
    page.wait_for_function("() => document.querySelectorAll('[data-result]').length === 2", timeout=15000)
    shot(page, "room-screen-resumed")
    assert page.console_errors == []
    context.close()


def test_find_me_filters_as_you_type_and_remembers_me(live_server, phone, shot, tournament, organiser):
    regs, _r2 = _room(tournament, organiser, players=8)
    url = live_server.url + reverse("public:standings", args=[tournament.pk])
    page = phone
    page.goto(url)
    page.get_by_role("searchbox").fill("ALBANI")  # accent and case aside
    visible = page.locator("#standings tr[data-reg]:visible")
    assert visible.count() == 1
    shot(page, "room-find-me-typed")
    page.get_by_role("searchbox").fill("")
    assert visible.count() == 8
    page.locator(f'#standings tr[data-reg="{regs[3].pk}"] a').click()
    page.wait_for_url(f"**/giocatori/{regs[3].pk}/")
    button = page.locator("[data-me-button]")
    button.click()
    assert button.get_attribute("aria-pressed") == "true"
    page.goto(url)
    assert page.locator("tr.is-me").get_attribute("data-reg") == str(regs[3].pk)
    page.reload()
    assert page.locator("tr.is-me").count() == 1
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    shot(page, "room-find-me-highlighted")
    assert page.console_errors == []


def test_my_table_on_a_phone(live_server, phone, shot, tournament, organiser):
    regs, r2 = _room(tournament, organiser, players=8)
    page = phone
    seat = r2.tables.get(number=1).seats.order_by("position").first()
    page.goto(live_server.url + reverse("public:player", args=[tournament.pk, seat.registration_id]))
    box = page.locator("[data-my-table]")
    assert box.locator("h2").inner_text() == it("Round %(r)s — Table %(t)s", r=2, t=1)
    assert box.locator("[data-my-result]").count() == 1
    assert page.locator("svg[data-rank-chart] circle").count() == 2
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    shot(page, "room-my-table-phone")
    box.locator("[data-sheet-link]").click()
    page.locator("[data-territory-sheet]").wait_for()   # the sheet's page, parsed
    assert page.locator("[data-territory-sheet]").count() == 1
    page.goto(live_server.url + reverse("public:tournament", args=[tournament.pk]))
    page.get_by_role("searchbox").fill(regs[2].player.last_name)
    page.get_by_role("searchbox").press("Enter")
    page.wait_for_url("**/turni/2/?q=*")
    assert page.locator(".table-card.found").count() == 1
    shot(page, "room-find-your-table")
    assert page.console_errors == []


@pytest.mark.skipif(not AXE.exists(), reason="axe-core not installed: npm install --no-save axe-core")
def test_new_pages_have_no_serious_accessibility_violations(live_server, browser, tournament, organiser):
    regs, r2 = _room(tournament, organiser, players=8)
    context = browser.new_context(viewport={"width": 390, "height": 844}, bypass_csp=True, locale="it-IT")
    page = context.new_page()
    pages = [reverse("public:standings", args=[tournament.pk]),
             reverse("public:player", args=[tournament.pk, regs[0].pk]),
             reverse("public:tournament", args=[tournament.pk]),
             reverse("public:wall_list", args=[tournament.pk, 2]),
             reverse("public:poster", args=[tournament.pk]),
             reverse("public:table_sheet", args=[tournament.pk, 2, 1]),
             reverse("public:screen", args=[tournament.pk])]
    found = {}
    for path in pages:
        page.goto(live_server.url + path)
        if path.endswith("/schermo/"):
            page.wait_for_selector("[data-seat]")
        page.add_script_tag(path=str(AXE))
        result = page.evaluate("async () => (await axe.run(document)).violations"
                               ".filter(v => ['serious', 'critical'].includes(v.impact))"
                               ".map(v => v.id + ': ' + v.nodes.slice(0, 3).map(n => n.target.join(' ')).join(', '))")
        if result:
            found[path] = result
    assert found == {}
    context.close()


def test_wall_list_and_poster_fit_an_a4_page(live_server, browser, shot, tournament, organiser):
    regs, _r2 = _room(tournament, organiser, players=60)
    context = browser.new_context(viewport={"width": 794, "height": 1123}, device_scale_factor=1, locale="it-IT")
    page = context.new_page()
    page.goto(live_server.url + reverse("public:wall_list", args=[tournament.pk, 2]))
    assert page.locator("[data-wall-list] li").count() == 60
    assert page.evaluate("getComputedStyle(document.querySelector('[data-wall-list]')).columnCount") == "3"
    assert page.evaluate("parseFloat(getComputedStyle(document.querySelector('[data-wall-list] li')).fontSize)") >= 18
    assert page.evaluate("document.documentElement.scrollWidth") <= 794
    shot(page, "room-wall-list-a4")
    page.goto(live_server.url + reverse("public:poster", args=[tournament.pk]))
    codes = page.locator("[data-qr] [role=img]")
    assert codes.count() == 2
    for i in range(2):
        assert codes.nth(i).get_attribute("aria-label").startswith(it("QR code of %(url)s", url="http"))
    assert page.evaluate("document.documentElement.scrollWidth") <= 794
    shot(page, "room-poster-a4")
    context.close()
