"""Circuits in the app (SCORING.md section 11): services, the organiser's pages, the public ranking
page, JSON and CSV, updates when a tournament's standings change, merged players counted once, and
each player's public history."""
import csv
import io
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from circuits import services
from circuits.models import Circuit
from circuits.selectors import circuit_standings, final_order
from tables.rounds import services as table_services
from tests.factories import OrganiserFactory, PlayerFactory, RegistrationFactory, TournamentFactory, report, seat_round
from tests.html import attr, field_errors, one, select, text, texts, tr
from tournaments.models import AuditLog
from tournaments.registration.services import player_merge

NOTICE = "RisiKo! è un marchio registrato ® Editrice Giochi Srl - Tutti i diritti riservati."


def play(tournament, players, points, publish=True):
    """One round of one table: `players` in seat order score `points` table points."""
    regs = [RegistrationFactory(tournament=tournament, player=p) for p in players]
    rnd = seat_round(tournament, [regs])
    report(rnd.tables.get(), [(tp,) for tp in points])
    if publish:
        table_services.round_close(user=tournament.organiser, rnd=rnd)
        table_services.standings_publish(user=tournament.organiser, rnd=rnd)
    return rnd


@pytest.fixture
def season(organiser):
    """T1: Anna, Bruno, Carla, Dario (in that order); T2 (weight 2): Bruno, Anna, Elena, Carla.
    Rule: table 10/6/4/3 plus 1 for taking part, best 1 result, ranked from 2 tournaments."""
    p = {n: PlayerFactory(first_name=n, last_name="Rossi") for n in ("Anna", "Bruno", "Carla", "Dario", "Elena")}
    t1 = TournamentFactory(organiser=organiser, name="Martedì 1")
    t2 = TournamentFactory(organiser=organiser, name="Domenica 1", start_date=t1.start_date.replace(day=28))
    play(t1, [p["Anna"], p["Bruno"], p["Carla"], p["Dario"]], [60, 40, 30, 10])
    play(t2, [p["Bruno"], p["Anna"], p["Elena"], p["Carla"]], [60, 40, 30, 10])
    circuit = services.circuit_create(user=organiser, data={
        "name": "Stagione del club", "season": "2026-2027", "rule": "table", "points_table": "10, 6, 4, 3",
        "participation": Decimal("1"), "best_of": 1, "min_tournaments": 2})
    services.circuit_tournament_add(user=organiser, circuit=circuit, tournament=t1, weight=Decimal("1"))
    services.circuit_tournament_add(user=organiser, circuit=circuit, tournament=t2, weight=Decimal("2"))
    return circuit, t1, t2, p


def test_final_order_is_the_published_standings_as_a_competition_ranking(season):
    _circuit, t1, t2, p = season
    assert [(r.rank, r.player.first_name) for r in final_order(t1).rows] == [
        (1, "Anna"), (2, "Bruno"), (3, "Carla"), (4, "Dario")]
    assert final_order(t2).participants == 4


def test_json_ranks_every_player_with_counted_and_discarded_results(season, client):
    circuit, t1, t2, p = season
    data = client.get(reverse("public:circuit_json", args=[circuit.pk])).json()
    assert data["circuit"]["points_table"] == [10.0, 6.0, 4.0, 3.0] and data["circuit"]["best_of"] == 1
    assert [(t["name"], t["weight"], t["participants"]) for t in data["tournaments"]] == [
        ("Martedì 1", 1.0, 4), ("Domenica 1", 2.0, 4)]
    rows = [(r["rank"], r["player"], r["total"], r["counted"], r["played"], r["wins"]) for r in data["standings"]]
    # T1: Anna 11, Bruno 7, Carla 5, Dario 4; T2 (x2): Bruno 22, Anna 14, Elena 10, Carla 8
    assert rows == [(1, "Bruno Rossi", 22.0, [22.0], 2, 1), (2, "Anna Rossi", 14.0, [14.0], 2, 1),
                    (3, "Carla Rossi", 8.0, [8.0], 2, 0)]
    assert [(r["player"], r["total"], "rank" in r) for r in data["unranked"]] == [
        ("Elena Rossi", 10.0, False), ("Dario Rossi", 4.0, False)]
    anna = data["standings"][1]["results"]
    assert [(c["name"], c["rank"], c["participants"], c["points"], c["counted"]) for c in anna] == [
        ("Martedì 1", 1, 4, 11.0, False), ("Domenica 1", 2, 4, 14.0, True)]


def test_public_page_shows_counted_and_discarded_results_and_links_each_history(season, client):
    circuit, t1, t2, p = season
    response = client.get(reverse("public:circuit", args=[circuit.pk]))
    assert response.status_code == 200 and text(one(response, "[data-trademark]")) == NOTICE
    assert (len(select(response, "[data-counted]")), len(select(response, "[data-discarded]"))) == (5, 3)
    assert one(response, f"tr[data-player='{p['Anna'].pk}'] a")["href"] == reverse("public:player_history",
                                                                                    args=[p["Anna"].pk])
    order = attr(response, "tr[data-player]", "data-player")
    assert order.index(str(p["Bruno"].pk)) < order.index(str(p["Anna"].pk))
    assert select(response, "[data-unranked] tr[data-player]")


def test_csv_in_the_italian_excel_format(season, client):
    circuit, *_ = season
    response = client.get(reverse("public:circuit_csv", args=[circuit.pk]) + "?format=excel-it")
    text = response.content.decode("utf-8-sig")
    rows = list(csv.reader(io.StringIO(text), delimiter=";"))
    assert response["Content-Type"].startswith("text/csv")
    assert len(rows[0]) == 6 + 2 * 2
    assert rows[1][:6] == ["1", "Bruno Rossi", rows[1][2], "22,00", "2", "1"]
    assert rows[2][6:] == ["11,00", rows[2][7], "14,00", rows[2][9]] and rows[2][7] != rows[2][9]
    assert rows[4][0] == rows[5][0] != "" and rows[4][1] == "Elena Rossi"


def test_ranking_updates_when_a_tournament_publishes_new_standings_and_is_cached_meanwhile(
        season, client, django_capture_on_commit_callbacks):
    circuit, t1, t2, p = season
    url = reverse("public:circuit_json", args=[circuit.pk])
    first = client.get(url)
    assert client.get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    # T1 plays a second round: Dario wins it by far and becomes T1's first
    regs = list(t1.registrations.order_by("player__first_name"))
    rnd = seat_round(t1, [[regs[3], regs[0], regs[1], regs[2]]])
    report(rnd.tables.get(), [(100,), (0, 1), (0, 2), (0, 3)])
    assert client.get(url).json() == first.json()  # not published yet: the ranking is unchanged
    with django_capture_on_commit_callbacks(execute=True):
        table_services.round_close(user=t1.organiser, rnd=rnd)
        table_services.standings_publish(user=t1.organiser, rnd=rnd)
    second = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert second.status_code == 200
    assert [r["player"] for r in second.json()["unranked"]] == ["Dario Rossi", "Elena Rossi"]
    assert second.json()["unranked"][0]["counted"] == [11.0]


def test_a_circuit_setting_changed_changes_the_ranking(season, client, organiser):
    circuit, *_ = season
    url = reverse("public:circuit_json", args=[circuit.pk])
    assert len(client.get(url).json()["standings"]) == 3
    services.circuit_update(user=organiser, circuit=circuit, data={"min_tournaments": 1, "best_of": None})
    data = client.get(url).json()
    assert [(r["player"], r["total"]) for r in data["standings"]] == [
        ("Bruno Rossi", 29.0), ("Anna Rossi", 25.0), ("Carla Rossi", 13.0), ("Elena Rossi", 10.0),
        ("Dario Rossi", 4.0)]


def test_merged_players_count_once(organiser, client, django_capture_on_commit_callbacks):
    keep = PlayerFactory(first_name="Gina", last_name="Bassi", created_by=organiser)
    drop = PlayerFactory(first_name="Gina", last_name="Bassi ", created_by=organiser)
    others = [PlayerFactory() for _ in range(3)]
    t1, t2 = TournamentFactory(organiser=organiser), TournamentFactory(organiser=organiser)
    play(t1, [keep, *others], [60, 40, 30, 10])
    play(t2, [drop, *others], [60, 40, 30, 10])
    circuit = services.circuit_create(user=organiser, data={"name": "C", "season": "2026", "rule": "participants"})
    for t in (t1, t2):
        services.circuit_tournament_add(user=organiser, circuit=circuit, tournament=t, weight=Decimal("1"))
    url = reverse("public:circuit_json", args=[circuit.pk])
    before = {r["player_id"]: r["played"] for r in client.get(url).json()["standings"]}
    assert (before[keep.pk], before[drop.pk], len(before)) == (1, 1, 5)
    with django_capture_on_commit_callbacks(execute=True):
        player_merge(user=organiser, keep=keep, drop=drop)
    rows = client.get(url).json()["standings"]
    assert rows[0]["player_id"] == keep.pk and rows[0]["played"] == 2 and rows[0]["total"] == 8.0
    assert len(rows) == 4 and drop.pk not in [r["player_id"] for r in rows]
    assert client.get(reverse("public:player_history", args=[drop.pk])).url == reverse(
        "public:player_history", args=[keep.pk])


def test_every_write_is_audited_and_bumps_the_revision(season, organiser):
    circuit, t1, t2, p = season
    assert list(AuditLog.objects.filter(action__startswith="circuit.").order_by("pk").values_list(
        "action", "tournament_id")) == [("circuit.create", None), ("circuit.tournament_add", t1.pk),
                                        ("circuit.tournament_add", t2.pk)]
    revision = Circuit.objects.get(pk=circuit.pk).revision
    services.circuit_tournament_add(user=organiser, circuit=circuit, tournament=t2, weight=Decimal("1.5"))
    entry = AuditLog.objects.latest("pk")
    assert (entry.action, entry.before, entry.after) == (
        "circuit.weight", {"tournament": "Domenica 1", "weight": "2"}, {"tournament": "Domenica 1", "weight": "1.5"})
    services.circuit_tournament_remove(user=organiser, entry=circuit.entries.get(tournament=t1))
    assert AuditLog.objects.latest("pk").action == "circuit.tournament_remove"
    assert Circuit.objects.get(pk=circuit.pk).revision == revision + 2


def test_only_the_organisers_own_tournaments_join(season, organiser):
    circuit, *_ = season
    stranger = TournamentFactory(organiser=OrganiserFactory())
    with pytest.raises(ValidationError):
        services.circuit_tournament_add(user=organiser, circuit=circuit, tournament=stranger, weight=Decimal("1"))
    assert not circuit.entries.filter(tournament=stranger).exists()


def test_organiser_creates_a_circuit_and_adds_a_tournament_through_the_pages(client_for, organiser, tournament):
    client = client_for(organiser)
    response = client.post(reverse("manage:circuits"), {
        "name": "Lega del martedì", "season": "2026-2027", "rule": "table", "points_table": "25, 20, 12.5",
        "participation": "0", "best_of": "", "min_tournaments": "1"})
    circuit = Circuit.objects.get(name="Lega del martedì")
    assert response.url == reverse("manage:circuit", args=[circuit.pk]) and circuit.table_values == [
        Decimal(25), Decimal(20), Decimal("12.5")]
    response = client.post(reverse("manage:circuit", args=[circuit.pk]),
                           {"action": "add", "tournament": tournament.pk, "weight": "1.5"})
    assert response.status_code == 302 and circuit.entries.get().weight == Decimal("1.5")


@pytest.mark.parametrize("table, message, bad", [
    ("25, venti, 16", "“%(v)s” is not a number: write the points separated by commas, decimals with a point (12.5).",
     "venti"),
    ("25, -3", "“%(v)s”: points go from 0 to 10000.", "-3"),
    ("", "The points-table rule needs the points of at least the 1st.", None)])
def test_a_bad_points_table_is_refused_on_the_form(client_for, organiser, english_messages, table, message, bad):
    response = client_for(organiser).post(reverse("manage:circuits"), {
        "name": "X", "season": "2026", "rule": "table", "points_table": table, "participation": "0",
        "min_tournaments": "1"})
    assert response.status_code == 400
    assert (tr(message, v=bad) if bad else tr(message)) in field_errors(response, "points_table")
    assert not Circuit.objects.exists()


def test_another_organiser_cannot_open_the_circuit(season, client_for):
    circuit, *_ = season
    client = client_for(OrganiserFactory(username="otto2"))
    assert client.get(reverse("manage:circuit", args=[circuit.pk])).status_code == 404
    assert client.post(reverse("manage:circuit_tournament_remove",
                               args=[circuit.pk, circuit.entries.first().pk])).status_code == 404
    assert circuit.entries.count() == 2


def test_player_history_lists_every_tournament_and_circuit(season, client):
    circuit, t1, t2, p = season
    response = client.get(reverse("public:player_history", args=[p["Anna"].pk]))
    assert response.status_code == 200 and text(one(response, "[data-trademark]")) == NOTICE
    assert attr(response, "tr[data-tournament]", "data-tournament") == [str(t2.pk), str(t1.pk)]  # newest first
    assert texts(response, "tr[data-tournament] [data-rank]") == [
        tr("%(r)s° of %(n)s", r=2, n=4), tr("%(r)s° of %(n)s", r=1, n=4)]
    placing = one(response, f"[data-circuit='{circuit.pk}']")
    assert text(one(placing, "strong")) == "2°" and f"2° {tr('of %(n)s', n=3)} · " in text(placing)


def test_tournament_player_page_links_to_the_history(season, client):
    circuit, t1, t2, p = season
    reg = t1.registrations.get(player=p["Anna"])
    page = client.get(reverse("public:player", args=[t1.pk, reg.pk]))
    assert one(page, "a[data-player-history]")["href"] == reverse("public:player_history", args=[p["Anna"].pk])


def test_history_of_a_player_with_nothing_public_is_404(db, client):
    assert client.get(reverse("public:player_history", args=[PlayerFactory().pk])).status_code == 404


def test_a_tournament_of_a_circuit_is_exported_without_the_circuit(season):
    import io
    import json

    from django.core.management import call_command
    circuit, t1, t2, p = season
    out = io.StringIO()
    call_command("export_tournament", t1.pk, stdout=out)
    text = out.getvalue()
    assert '"circuits.' not in text and json.loads(text)  # the circuit belongs to no single tournament


def test_circuits_are_reached_from_the_home_pages(client_for, organiser):
    client = client_for(organiser)
    assert one(client.get(reverse("manage:home")), "a[data-circuits-link]")["href"] == reverse("manage:circuits")
    assert one(client.get(reverse("public:home")), "a[data-circuits-link]")["href"] == reverse("public:circuits")
