"""The pictures of the organisers' and arbiters' guides (docs/organiser/, docs/arbiter/), taken on a phone
from the demo tournament as a club evening goes: every run of the browser tests saves them again into
docs/img/, so the guides show the pages as they are."""
import datetime
import io
import re
import struct
from pathlib import Path

import pytest
from django.core.management import call_command
from django.urls import reverse

from tables.models import Round
from tables.rounds import services as rounds
from tests.browser.conftest import PHONE
from tests.factories import report
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db(transaction=True)

DOCS = Path(__file__).resolve().parents[2] / "docs"
IMG = DOCS / "img"
DEMO_PASSWORD = "torneo-demo"


def _png_size(path):
    head = path.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n", f"{path.name} is not a PNG"
    return struct.unpack(">II", head[16:24])


def _pictures_the_guides_show():
    shown = set()
    for guide in [*(DOCS / "organiser").glob("*.md"), *(DOCS / "arbiter").glob("*.md")]:
        shown |= set(re.findall(r"\]\(\.\./img/([\w-]+\.png)\)", guide.read_text(encoding="utf-8")))
    return shown


def _table_results(table):
    """Every seat's table points, the last player eliminated: a result the service accepts."""
    points = [62, 48, 30, 20, 12][:table.seats.count() - 1]
    return [(p,) for p in points] + [(0, 1)]


@pytest.fixture
def take(phone):
    IMG.mkdir(parents=True, exist_ok=True)
    taken = []

    def do(url, name, ready):
        phone.goto(url)
        phone.wait_for_selector(ready)
        phone.wait_for_load_state("networkidle")
        path = IMG / f"{name}.png"
        phone.screenshot(path=str(path), full_page=False)
        taken.append(name + ".png")
    do.taken = taken
    return do


def test_the_guides_pictures_are_taken_from_the_demo_evening_on_a_phone(live_server, phone, login, take):
    call_command("load_demo", stdout=io.StringIO())
    tournament = Tournament.objects.get(name="Torneo del Martedì (demo)")
    # One date and one draw every time: the pictures change only when the pages do.
    Tournament.objects.filter(pk=tournament.pk).update(start_date=datetime.date(2026, 3, 10))
    organiser = tournament.organiser
    base = live_server.url

    login(phone, "organizzatore", DEMO_PASSWORD)
    take(base + reverse("manage:tournament_create"), "organizzatore-nuovo-torneo", "main form")
    take(base + reverse("manage:tournament", args=[tournament.pk]), "organizzatore-torneo", "main h1")
    take(base + reverse("manage:checkin", args=[tournament.pk]), "organizzatore-presenze", "main form")

    rnd = rounds.round_create(user=organiser, tournament=tournament, seed=52)
    take(base + reverse("manage:round", args=[tournament.pk, rnd.number]), "organizzatore-sorteggio", "main h1")
    rounds.round_publish(user=organiser, rnd=rnd)
    tables = list(rnd.tables.order_by("number"))
    for table in tables[:-1]:
        report(table, _table_results(table))
    take(base + reverse("manage:round_dashboard", args=[tournament.pk, rnd.number]),
         "organizzatore-risultati", "main h1")
    take(base + reverse("manage:formats", args=[tournament.pk]), "organizzatore-formato", "main form")
    take(base + reverse("manage:past_import"), "organizzatore-importa", "main form")
    take(base + reverse("manage:club_rules"), "organizzatore-regolamenti", "main h1")

    phone.context.clear_cookies()
    login(phone, "arbitro", DEMO_PASSWORD)
    take(base + reverse("arbiter:home", args=[tournament.pk]), "arbitro-turno", "main h1")
    last = tables[-1]
    take(base + reverse("arbiter:table", args=[tournament.pk, rnd.number, last.number]),
         "arbitro-risultato", "main form")
    report(last, _table_results(last))
    rnd.refresh_from_db()
    rounds.round_close(user=organiser, rnd=rnd)
    rounds.standings_publish(user=organiser, rnd=Round.objects.get(pk=rnd.pk))
    take(base + reverse("arbiter:penalties", args=[tournament.pk]), "arbitro-penalita", "main h1")

    phone.context.clear_cookies()
    take(base + reverse("public:standings", args=[tournament.pk]), "pubblico-classifica", "main table")

    for name in take.taken:
        assert _png_size(IMG / name) == (PHONE["width"], PHONE["height"]), name
    # Every picture a guide shows is one this test takes (so none goes stale), and each is shown.
    assert _pictures_the_guides_show() == set(take.taken)
    assert phone.console_errors == []
