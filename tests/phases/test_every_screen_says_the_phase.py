"""Every screen says where the tournament stands: the phase of a table for players, a player straight to
the final told to wait, the final order with the final's place and the qualifying total in their own
labelled columns (big screen, widget, standings page and print, JSON), the lead's badge once every
phase is played."""
import json
import re
from pathlib import Path

import jsonschema
import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from phases import draw
from tables.rounds import services as table_services
from tests.html import attr, one, select, text, texts
from tests.phases.helpers import sum3_final_played
from tests.phases.test_master import master_qualified
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def master_semifinals(tournament, organiser):
    """A published Master of 16 whose P00 won both games alone: straight to the final; the 3
    semifinals of 2nd-13th seated and published (round 3)."""
    regs = master_qualified(tournament, organiser)
    rnd = draw.phase_draw(user=organiser, phase=tournament.phases.get(order=2))
    table_services.round_publish(user=organiser, rnd=rnd)
    return regs, rnd


def test_semifinal_tables_carry_their_phase_for_the_players(client, tournament, master_semifinals):
    _regs, rnd = master_semifinals
    page = client.get(reverse("public:round", args=[tournament.pk, rnd.number]))
    assert text(one(page, "h1[data-round-label]")) == "Round 3 — Semifinals: tables"
    assert texts(page, "[data-table-label]") == [f"Semifinal — Table {n}" for n in (1, 2, 3)]
    screen = client.get(reverse("public:screen_data", args=[tournament.pk])).json()
    assert (screen["round"], screen["round_label"]) == (3, "Round 3 — Semifinals")


def test_a_player_straight_to_the_final_is_told_to_wait_by_find_my_table(client, tournament, master_semifinals):
    regs, rnd = master_semifinals
    page = client.get(reverse("public:round", args=[tournament.pk, rnd.number]), {"q": "P00"})
    assert attr(page, "[data-waiting-final]", "data-waiting-final") == [str(regs[0].pk)]
    assert text(one(page, "[data-waiting-final] strong")) == regs[0].player.display_name
    assert select(page, "[data-not-found]") == []
    # Someone seated in a semifinal finds her table as before.
    page = client.get(reverse("public:round", args=[tournament.pk, rnd.number]), {"q": "P05"})
    assert select(page, "[data-waiting-final]") == [] and len(select(page, "[data-found]")) == 1


def test_a_player_straight_to_the_final_is_told_to_wait_on_her_page(client, tournament, master_semifinals):
    regs, _rnd = master_semifinals
    page = client.get(reverse("public:player", args=[tournament.pk, regs[0].pk]))
    assert text(one(page, "[data-waiting-final]")) == "In the final: wait for the end of the semifinals."
    assert select(page, "[data-my-table]") == []
    data = client.get(reverse("public:player_json", args=[tournament.pk, regs[0].pk])).json()
    assert (data["current_table"], data["straight_to_final"]) == (None, True)
    seated_json = client.get(reverse("public:player_json", args=[tournament.pk, regs[5].pk])).json()
    assert seated_json["current_table"]["label"] == f"Semifinal — Table {seated_json['current_table']['table']}"
    seated = client.get(reverse("public:player", args=[tournament.pk, regs[5].pk]))
    assert select(seated, "[data-waiting-final]") == []
    assert text(one(seated, "[data-my-table] [data-table-label]")).startswith("Semifinal — Table ")


@pytest.fixture
def final_played(tournament, organiser):
    """sum3 and a final: 8 players of known strength, the top 4 to the final, won by the 4th;
    every round's standings published."""
    return sum3_final_played(tournament, organiser)


def test_the_big_screen_shows_the_finals_place_and_the_qualifying_total_apart(client, tournament, final_played):
    regs = final_played
    data = client.get(reverse("public:screen_data", args=[tournament.pk])).json()
    assert data["final_order"] is True
    rows = data["standings"]
    assert [(r["rank"], r["name"], r["final"]) for r in rows[:5]] == [
        (1, regs[3].player.full_name, "Final · 1°"), (2, regs[1].player.full_name, "Final · 2°"),
        (3, regs[0].player.full_name, "Final · 3°"), (4, regs[2].player.full_name, "Final · 4°"),
        (5, regs[4].player.full_name, "")]
    # The 1st of the final has a lower qualifying total than the 3rd: both are shown, in their column.
    assert float(rows[0]["total"].replace(",", ".")) < float(rows[2]["total"].replace(",", "."))


def test_the_widget_shows_the_finals_place_and_the_qualifying_total_apart(client, tournament, final_played):
    page = client.get(reverse("public:standings_widget", args=[tournament.pk]))
    assert attr(page, "[data-widget] th[data-col]", "data-col") == ["final", "qualifying"]
    assert texts(page, "[data-widget] td[data-final-place]")[:5] == [
        "Final · 1°", "Final · 2°", "Final · 3°", "Final · 4°", ""]
    assert len(select(page, "[data-widget] td[data-qualifying-total]")) == 8


def test_the_json_labels_the_finals_place_and_the_qualifying_total(client, tournament, final_played):
    regs = final_played
    rows = client.get(reverse("public:standings_json", args=[tournament.pk])).json()["rows"]
    assert [(r["position"], r["decided_by"], r.get("place")) for r in rows[:6]] == [
        (1, "final", 1), (2, "final", 2), (3, "final", 3), (4, "final", 4), (5, "qualifying", None),
        (6, "qualifying", None)]
    assert all(r["qualifying_total"] == r["total"] for r in rows)
    assert rows[0]["player"] == regs[3].player.full_name
    data = client.get(reverse("public:standings_json", args=[tournament.pk])).json()
    schema = json.loads((Path(settings.BASE_DIR) / "docs" / "api" / "v1" / "standings.schema.json").read_text())
    jsonschema.validate(data, schema)   # the final's rows as the published schema describes them


def test_the_standings_page_and_print_give_the_qualifying_total_its_own_column(client, tournament, final_played):
    for name in ("public:standings", "public:standings_print"):
        page = client.get(reverse(name, args=[tournament.pk]))
        lead = one(page, "#final-standings")
        assert attr(lead, "th[data-col]", "data-col") == ["qualifying"]
        assert len(select(lead, "td[data-qualifying-total]")) == 8
        assert text(select(lead, "tbody tr")[0].select("td")[-1]) == "final, 1°"


def test_once_every_phase_is_played_the_badge_says_so_while_the_window_runs(client, tournament, final_played):
    Tournament.objects.filter(pk=tournament.pk).update(dispute_window_minutes=120)
    page = Client().get(reverse("public:standings", args=[tournament.pk]))
    badge = one(page, "#lead-status")
    assert badge["data-state"] == "window"
    assert re.fullmatch(r"Definitive at \d\d:\d\d unless a dispute is raised · updates by itself", text(badge))


def test_the_tournament_page_names_the_format_and_the_phase_of_each_round(client, tournament, master_semifinals):
    _regs, rnd = master_semifinals
    page = client.get(reverse("public:tournament", args=[tournament.pk]))
    assert text(one(page, "#format-phases")) == "Qualifying rounds (2) · Semifinals · Final"
    assert texts(page, "[data-round-link]") == ["Tables of round 1", "Tables of round 2",
                                                "Tables of round 3 — Semifinals"]
