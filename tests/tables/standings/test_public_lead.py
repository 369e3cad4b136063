"""The main public standings page (the one of the QR codes and of the auto-refresh) leads with the
final order after a final, and with who is still in during a knockout (SCORING.md section 6, 4.13)."""
import csv
import io

from django.test import Client
from django.urls import reverse

from tables.rounds import services as table_services
from tests.phases.helpers import players, report_by_strength, strength_of
from tests.html import attr, one, select, text, tr


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
    page = client.get(reverse("public:standings", args=[tournament.pk]))
    lead = one(page, "#final-standings")
    status = one(lead, "#lead-status")
    assert (status["data-state"], text(status)) == ("final", tr("Standings final"))
    assert attr(lead, "tr[data-registration]", "data-registration")[:5] == [
        str(r.pk) for r in (regs[3], regs[2], regs[1], regs[0], regs[4])]
    assert one(lead, "a[href='#qualifying']") and lead.find_next(id="qualifying") is not None   # the lead first
    formats = client_for(organiser).get(reverse("manage:formats", args=[tournament.pk]))
    assert tr("After the final (and the finalina) the public standings page, its JSON and the CSV export lead with "
              "the final order, then the qualifying ranking; the page says \"definitive\" once every round is "
              "closed, its standings published and the dispute window over.") in text(
        one(formats, "#decisions-sum3_final"))
    qualifying = attr(page, "table.standings tr[data-reg]", "data-reg")
    assert qualifying.index(str(regs[0].pk)) < qualifying.index(str(regs[3].pk))
    printed = client.get(reverse("public:standings_print", args=[tournament.pk]))
    assert one(printed, f"#final-standings tr[data-registration='{regs[3].pk}']")
    assert one(printed, "#final-standings").find_next(id="qualifying") is not None
    # The auto-refresh swaps the same block, final first.
    swap = client.get(reverse("public:standings", args=[tournament.pk]), HTTP_HX_REQUEST="true")
    assert one(swap, "#final-standings").find_next(id="qualifying") is not None


def test_the_csv_and_the_json_carry_the_final(client_for, client, tournament, organiser):
    regs = _final_played_upside_down(client_for(organiser), organiser, tournament)
    text = client.get(reverse("manage:standings_csv", args=[tournament.pk])).content.decode("utf-8-sig")
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0][:4] == [tr("Final position"), tr("Decided by"), tr("Rank"), tr("Player")]
    final, qualifying = tr("final"), tr("qualifying")
    assert [(r[0], r[1], r[2], r[3]) for r in rows[1:6]] == [
        ("1", final, "4", regs[3].player.full_name), ("2", final, "3", regs[2].player.full_name),
        ("3", final, "2", regs[1].player.full_name), ("4", final, "1", regs[0].player.full_name),
        ("5", qualifying, "5", regs[4].player.full_name)]
    client.logout()
    data = client.get(reverse("public:standings_json", args=[tournament.pk])).json()["rows"]
    assert [(d["position"], d["decided_by"], d["rank"], d["player"]) for d in data[:5]] == [
        (int(r[0]), r[1], int(r[2]), r[3]) for r in rows[1:6]]


def test_a_knockout_page_shows_who_is_still_in_and_who_went_out_where(client_for, tournament, organiser,
                                                                    django_capture_on_commit_callbacks):
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
    game_1, final_phase = [p.name for p in tournament.phases.order_by("order")]
    page = client.get(reverse("public:standings", args=[tournament.pk]))
    lead = one(page, "#knockout-standings")
    status = one(lead, "#lead-status")
    assert status["data-state"] == "provisional" and text(status).startswith(tr("Provisional standings"))
    assert select(page, "table.standings") == []          # no conversion-150 ranking
    assert text(one(page, "[data-formula]")) == tournament.name   # and no formula named
    printed = client.get(reverse("public:standings_print", args=[tournament.pk]))
    assert one(printed, "#knockout-standings") and select(printed, ".sheet-table") == []
    rows = select(lead, "tr[data-registration]")
    assert [(r["data-ko"], r["data-phase"]) for r in rows].count(("in", game_1)) == 4
    assert [(r["data-ko"], r["data-phase"]) for r in rows].count(("out", game_1)) == 12
    assert {text(one(r, ".ko-status")) for r in rows if r["data-ko"] == "in"} == {f'{tr("still in")} {game_1}'}
    assert {text(one(r, ".ko-status")) for r in rows if r["data-ko"] == "out"} == {tr("out in %(phase)s",
                                                                                        phase=game_1)}
    order = [r["data-registration"] for r in rows]
    assert order.index(str(regs[0].pk)) < order.index(str(regs[15].pk))
    data = client.get(reverse("public:standings_json", args=[tournament.pk])).json()["rows"]
    winners = {max((s.registration for s in t.seats.all()), key=lambda r: strength[r.pk]).player.full_name
               for t in first.tables.all()}
    assert {d["player"] for d in data if (d["status"], d["phase"]) == ("in", "Knockout game 1")} == winners
    assert len([d for d in data if (d["status"], d["phase"]) == ("out", "Knockout game 1")]) == 12
    # The final: the winner, then everyone by the game they went out in.
    final = _play_phase_round(manager, tournament, 2, strength)
    with django_capture_on_commit_callbacks(execute=True):
        table_services.standings_publish(user=organiser, rnd=final)
    lead = one(client.get(reverse("public:standings", args=[tournament.pk])), "#knockout-standings")
    status = one(lead, "#lead-status")
    assert (status["data-state"], text(status)) == ("final", tr("Standings final"))
    outcomes = [(r["data-ko"], r["data-phase"]) for r in select(lead, "tr[data-registration]")]
    assert outcomes[0] == ("winner", final_phase) and text(one(lead, "tr[data-ko=winner] .badge")) == tr("winner")
    assert outcomes.count(("out", final_phase)) == 3 and outcomes.count(("out", game_1)) == 12


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
