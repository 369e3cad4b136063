"""The organiser creates a circuit on a phone, adds the demo's two tournaments, and the public
circuit page and a player's history read well at 390x844."""
import io

import pytest
from django.core.management import call_command

from circuits.models import Circuit
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db(transaction=True)


def test_circuit_created_on_a_phone_and_its_public_pages(live_server, phone, login, shot):
    call_command("load_demo", stdout=io.StringIO())
    demo = Circuit.objects.get(name="Stagione del Martedì (demo)")
    login(phone, "organizzatore", "torneo-demo")
    phone.goto(live_server.url + "/gestione/circuiti/")
    form = phone.locator("form[data-circuit-form]")
    form.locator("[name=name]").fill("Circuito di prova")
    form.locator("[name=season]").fill("2026")
    form.locator("[name=points_table]").fill("10, 6, 4, 3")
    form.locator("[name=min_tournaments]").fill("2")
    shot(phone, "circuit_new_phone")
    form.locator("button[type=submit]").click()
    phone.wait_for_url("**/gestione/circuiti/*/")
    circuit = Circuit.objects.get(name="Circuito di prova")
    for entry in demo.entries.all():
        add = phone.locator("form[data-circuit-add]")
        add.locator("select[name=tournament]").select_option(str(entry.tournament_id))
        add.locator("button[type=submit]").click()
        phone.wait_for_load_state()
    assert circuit.entries.count() == 2
    assert phone.locator("[data-circuit-entries] li[data-entry]").count() == 2
    shot(phone, "circuit_manage_phone")

    phone.goto(live_server.url + f"/circuiti/{circuit.pk}/")
    rows = phone.locator("table[data-circuit-standings] tbody tr[data-player]")
    assert rows.count() == 20
    assert phone.locator("[data-unranked] tr[data-player]").count() == 8  # played one tournament of two
    assert phone.locator("[data-discarded]").count() == 0  # every result counts
    assert "RisiKo! è un marchio registrato" in phone.content()
    shot(phone, "circuit_public_phone")
    scroll = phone.evaluate("document.documentElement.scrollWidth")
    assert scroll <= 390, "the page itself does not scroll sideways (the table scrolls in its box)"

    rows.first.get_by_role("link").first.click()
    phone.wait_for_url("**/giocatori/*/")
    # the demo's past season imported from workbooks adds its tournaments and circuit to some histories
    player = int(phone.url.rstrip("/").rsplit("/", 1)[1])
    played = Tournament.objects.filter(published=True, rounds__tables__seats__registration__player_id=player).distinct()
    assert phone.locator("table[data-history] tr[data-tournament]").count() == played.count() >= 2
    circuits = Circuit.objects.filter(entries__tournament__in=played).distinct().count()
    assert phone.locator("[data-history-circuits] li[data-circuit]").count() == circuits >= 2
    shot(phone, "player_history_phone")
    assert phone.console_errors == []
