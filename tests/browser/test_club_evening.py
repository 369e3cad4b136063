"""A club evening set up in minutes: the organiser's actions from "Nuovo torneo" to round 1 published for
23 players (their CSV included), and the arbiter's taps per table typing table points. Both printed;
the test fails above 15 organiser actions or 7 taps per table (counting the tap a phone may need to
open its keypad on the first field)."""
import pytest

from tests.browser.catalogue import expect_import_preview, expect_message, it, it_n, registered_from_list
from tests.browser.conftest import CHROMIUM, PHONE  # noqa: F401 (the device the figures are taken on)
from tournaments.models import Registration, Tournament

pytestmark = pytest.mark.django_db(transaction=True)

CLUB_CSV = "nome;cognome;club\n" + "".join(
    f"{first};{last};RisiKo Club Forlì\n" for first, last in [
        ("Niccolò", "Bianchi"), ("Marco", "Rossi"), ("Giulia", "Ferrari"), ("Luca", "Esposito"),
        ("Anna", "Romano"), ("Paolo", "Colombo"), ("Sara", "Ricci"), ("Davide", "Marino"),
        ("Elena", "Greco"), ("Matteo", "Bruno"), ("Chiara", "Gallo"), ("Andrea", "Conti"),
        ("Marta", "De Luca"), ("Simone", "Mancini"), ("Laura", "Costa"), ("Fabio", "Giordano"),
        ("Irene", "Rizzo"), ("Pietro", "Forlì"), ("Alessia", "Lombardi"), ("Stefano", "Moretti"),
        ("Valentina", "Barbieri"), ("Giorgio", "Fontana"), ("Silvia", "Santoro")])


class Counter:
    """Every click, fill, file choice or key press on the page is one action."""

    def __init__(self, page):
        self.page, self.n = page, 0

    def click(self, selector):
        self.n += 1
        self.page.click(selector)

    def fill(self, selector, value):
        self.n += 1
        self.page.fill(selector, value)

    def files(self, selector, payload):
        self.n += 1
        self.page.set_input_files(selector, payload)

    def press(self, selector, key):
        self.n += 1
        self.page.press(selector, key)


def test_club_evening_in_at_most_15_actions_and_7_taps_per_table(live_server, browser, phone, login, shot,
                                                                 organiser, arbiter, tmp_path):
    page = phone
    login(page, "olga")
    act = Counter(page)
    act.click("[data-action=new-tournament]")
    act.fill("#id_name", "Serata di club")
    act.fill("#id_start_date", "2026-12-01")
    act.click("#save-tournament")
    expect_message(page, it("Tournament created."))
    act.click(".subnav [data-nav=players]")
    csv_file = tmp_path / "club.csv"
    csv_file.write_text(CLUB_CSV, encoding="utf-8")
    act.files("#id_file", str(csv_file))
    act.click("#preview-import")
    expect_import_preview(page, 23)
    shot(page, "club-evening-01-preview")
    act.click("#confirm-import")
    expect_message(page, registered_from_list(23, new=23))
    act.click("#all-present")
    expect_message(page, it_n("%(n)d player checked in.", "%(n)d players checked in.", 23))
    shot(page, "club-evening-02-players")
    act.click(".subnav [data-nav=rounds]")
    act.click("main form button.btn-primary")
    page.wait_for_selector("[data-action=publish-seating]")
    act.click("[data-action=publish-seating]")
    expect_message(page, it("Seating published."))
    shot(page, "club-evening-03-published")
    tournament = Tournament.objects.get(name="Serata di club")
    rnd = tournament.rounds.get(number=1)
    assert rnd.status == "published"
    assert sum(t.seats.count() for t in rnd.tables.all()) == 23
    assert tournament.registrations.filter(status=Registration.Status.CONFIRMED, present=True).count() == 23
    organiser_actions = act.n
    assert page.console_errors == []

    tournament.arbiters.add(arbiter)
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, locale="it-IT")
    page = context.new_page()
    login(page, "arturo")
    page.goto(f"{live_server.url}/arbitro/t/{tournament.pk}/")
    taps = []
    for table in rnd.tables.order_by("number"):
        act = Counter(page)
        if table.number == 1:
            act.click(f"a.table-button[href$='/tavoli/{table.number}/']")
        else:   # saving a table opens the next one still without a result
            page.wait_for_url(f"**/tavoli/{table.number}/")
        n = table.seats.count()
        page.wait_for_selector("#id_p0-table_points")
        if not page.evaluate("document.activeElement.id") == "id_p0-table_points":
            act.click("#id_p0-table_points")
        for i, tp in enumerate([90, 70, 50, 30, 10][:n]):
            page.keyboard.type(str(tp))   # typing the figures on the keypad
            act.press(f"#id_p{i}-table_points", "Enter")   # "next", and "done" on the last one saves
        expect_message(page, it("Result of table %(t)d saved.", t=table.number))
        if table.number == 2:
            shot(page, "club-evening-04-next-table")
        taps.append((table.number, n, act.n))
    shot(page, "club-evening-04-results")
    context.close()
    assert all(t.reported for t in rnd.tables.all())
    print(f"\nORGANISER ACTIONS from 'Nuovo torneo' to round 1 published, 23 players: {organiser_actions}")
    for number, n, count in taps:
        print(f"ARBITER TAPS table {number} ({n} players): {count} "
              f"(the first field is focused on opening; {count + 1} where a phone's keypad needs a tap on it)")
    assert organiser_actions <= 15, f"{organiser_actions} organiser actions: at most 15"
    worst = max(count + 1 for _, _, count in taps)   # + the tap a phone's keypad may need on the first field
    assert worst <= 7, f"{worst} taps on a table: at most 7"
