"""The main public standings page (the one of the QR codes and of the auto-refresh) leads with the
final order after a final, and with who is still in during a knockout (SCORING.md section 6, 4.13)."""
import csv
import io

from django.test import Client
from django.urls import reverse

from tables.rounds import services as table_services
from tests.formats.helpers import players, report_by_strength, strength_of


def _phase_post(client, tournament, order, action):
    return client.post(reverse("manage:phase_action", args=[tournament.pk, order, action]))


def _play_phase_round(client, tournament, order, strength, close=True):
    assert _phase_post(client, tournament, order, "draw").status_code == 302
    _phase_post(client, tournament, order, "publish")
    rnd = tournament.rounds.order_by("-number").first()
    report_by_strength(rnd, strength)
    if close:
        _phase_post(client, tournament, order, "close")
    return rnd


def _final_played_upside_down(client, organiser, tournament):
    """sum3_final, 8 players: the final is won by the 4th of the qualifying (strength reversed at the
    final table), so the final order differs from the qualifying ranking."""
    tournament.formula = "punti_tavolo"  # the qualifying order follows the strength whatever the draw
    tournament.dispute_window_minutes = 0  # published standings are final at once
    tournament.save()
    regs = players(tournament, 8)
    strength = strength_of(regs)
    client.post(reverse("manage:formats", args=[tournament.pk]), {"form": "format", "preset": "sum3_final"})
    tournament.refresh_from_db()
    for _i in range(3):
        _play_phase_round(client, tournament, 1, strength)
    upside_down = {pk: -s for pk, s in strength.items()}
    _play_phase_round(client, tournament, 2, {pk: 20 + s for pk, s in upside_down.items()})
    for rnd in tournament.rounds.order_by("number"):
        table_services.standings_publish(user=organiser, rnd=rnd)
    return regs


def test_after_the_final_the_standings_page_leads_with_the_final_order(client_for, client, tournament, organiser):
    regs = _final_played_upside_down(client_for(organiser), organiser, tournament)
    client.logout()
    html = client.get(reverse("public:standings", args=[tournament.pk])).content.decode()
    lead = html[html.index('id="final-standings"'):html.index('id="qualifying"')]
    assert 'id="lead-status">Definitive standings<' in lead
    order = [lead.index(f"{r.player.full_name}<") for r in (regs[3], regs[2], regs[1], regs[0], regs[4])]
    assert order == sorted(order)
    assert 'href="#qualifying"' in lead
    formats = client_for(organiser).get(reverse("manage:formats", args=[tournament.pk])).content.decode()
    assert "lead with the final order" in formats.split('id="decisions-sum3_final">')[1].split("</span>")[0]
    qualifying = html[html.index('id="qualifying"'):]
    assert qualifying.index(regs[0].player.full_name) < qualifying.index(regs[3].player.full_name)
    printed = client.get(reverse("public:standings_print", args=[tournament.pk])).content.decode()
    assert printed.index(f"{regs[3].player.full_name}<") < printed.index('id="qualifying"')
    # The auto-refresh swaps the same block, final first.
    swap = client.get(reverse("public:standings", args=[tournament.pk]), HTTP_HX_REQUEST="true").content.decode()
    assert swap.index('id="final-standings"') < swap.index('id="qualifying"')


def test_the_csv_and_the_json_carry_the_final(client_for, client, tournament, organiser):
    regs = _final_played_upside_down(client_for(organiser), organiser, tournament)
    text = client.get(reverse("manage:standings_csv", args=[tournament.pk])).content.decode("utf-8-sig")
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0][:4] == ["Final position", "Decided by", "Rank", "Player"]
    assert [(r[0], r[1], r[2], r[3]) for r in rows[1:6]] == [
        ("1", "final", "4", regs[3].player.full_name), ("2", "final", "3", regs[2].player.full_name),
        ("3", "final", "2", regs[1].player.full_name), ("4", "final", "1", regs[0].player.full_name),
        ("5", "qualifying", "5", regs[4].player.full_name)]
    client.logout()
    data = client.get(reverse("public:standings_json", args=[tournament.pk])).json()
    assert [(d["position"], d["decided_by"], d["rank"], d["player"]) for d in data[:5]] == [
        (int(r[0]), r[1], int(r[2]), r[3]) for r in rows[1:6]]


def test_a_knockout_page_shows_who_is_still_in_and_who_went_out_where(client_for, tournament, organiser):
    tournament.dispute_window_minutes = 0
    tournament.save()
    regs = players(tournament, 16)
    strength = strength_of(regs)
    manager = client_for(organiser)
    manager.post(reverse("manage:formats", args=[tournament.pk]), {"form": "format", "preset": "knockout"})
    tournament.refresh_from_db()
    first = _play_phase_round(manager, tournament, 1, strength)
    table_services.standings_publish(user=organiser, rnd=first)
    client = Client()  # the public, beside the organiser's session
    page = client.get(reverse("public:standings", args=[tournament.pk]))
    html = page.content.decode()
    assert 'id="knockout-standings"' in html and "Knockout in play" in html
    assert 'class="list standings' not in html          # no conversion-150 ranking
    assert "Conversion 150" not in html
    printed = client.get(reverse("public:standings_print", args=[tournament.pk])).content.decode()
    assert 'id="knockout-standings"' in printed and "sheet-table" not in printed
    lead = html[html.index('id="knockout-standings"'):]
    still_in = lead.count('<span class="badge ok">still in</span> Knockout game 1')
    went_out = lead.count("out in Knockout game 1")
    assert (still_in, went_out) == (4, 12)
    assert lead.index(regs[0].player.full_name) < lead.index(regs[15].player.full_name)
    data = client.get(reverse("public:standings_json", args=[tournament.pk])).json()
    winners = {max((s.registration for s in t.seats.all()), key=lambda r: strength[r.pk]).player.full_name
               for t in first.tables.all()}
    assert {d["player"] for d in data if (d["status"], d["phase"]) == ("in", "Knockout game 1")} == winners
    assert len([d for d in data if (d["status"], d["phase"]) == ("out", "Knockout game 1")]) == 12
    # The final: the winner, then everyone by the game they went out in.
    final = _play_phase_round(manager, tournament, 2, strength)
    table_services.standings_publish(user=organiser, rnd=final)
    html = client.get(reverse("public:standings", args=[tournament.pk])).content.decode()
    lead = html[html.index('id="knockout-standings"'):]
    assert "Definitive standings" in lead
    assert lead.index('<span class="badge ok">winner</span>') < lead.index("out in Final")
    assert lead.count("out in Final") == 3 and lead.count("out in Knockout game 1") == 12


def test_a_finalina_places_5th_to_8th_on_the_standings_page(client_for, tournament, organiser):
    tournament.formula = "punti_tavolo"
    tournament.save()
    regs = players(tournament, 10)
    strength = strength_of(regs)
    client = client_for(organiser)
    client.post(reverse("manage:formats", args=[tournament.pk]), {
        "form": "format", "preset": "evenings_final", "games": "4", "discards": "0", "finalina": "on"})
    tournament.refresh_from_db()
    for _i in range(4):
        _play_phase_round(client, tournament, 1, strength)
    _play_phase_round(client, tournament, 2, {pk: 20 - s for pk, s in strength.items()})
    lead = Client().get(reverse("public:standings", args=[tournament.pk])).context["lead"]
    assert [(r.position, r.phase, r.registration.pk) for r in lead.final_rows] == [
        (1, "final", regs[3].pk), (2, "final", regs[2].pk), (3, "final", regs[1].pk), (4, "final", regs[0].pk),
        (5, "finalina", regs[7].pk), (6, "finalina", regs[6].pk), (7, "finalina", regs[5].pk),
        (8, "finalina", regs[4].pk), (9, "qualifying", regs[8].pk), (10, "qualifying", regs[9].pk)]


def test_knockout_players_sharing_a_position_are_listed_by_name(client_for, tournament, organiser):
    """After the final, the players knocked out at the same place of the first game share a position:
    listed by surname, whatever their registration order."""
    regs = players(tournament, 16)
    for i, reg in enumerate(regs):  # surnames run against the registration order
        reg.player.last_name = f"N{15 - i:02d}"
        reg.player.save()
    strength = strength_of(regs)
    manager = client_for(organiser)
    manager.post(reverse("manage:formats", args=[tournament.pk]), {"form": "format", "preset": "knockout"})
    tournament.refresh_from_db()
    _play_phase_round(manager, tournament, 1, strength)
    _play_phase_round(manager, tournament, 2, strength)
    rows = Client().get(reverse("public:standings", args=[tournament.pk])).context["lead"].final_rows
    for position in {r.position for r in rows}:
        group = [r.registration.player.last_name for r in rows if r.position == position]
        assert group == sorted(group, key=str.casefold)
    assert len([r for r in rows if r.position == 5]) == 4
