"""Como (seed 000, rules 4-5 and art. 44.1) set up from the format page and scored on the public pages."""
from django.urls import reverse

from tables.rounds import services
from tests.factories import report, seat_round
from tables.standings.selectors import tournament_standings
from tests.phases.helpers import players, report_by_strength
from tests.html import one, text, tr


def _apply_como(client, tournament):
    response = client.post(reverse("manage:formats", args=[tournament.pk]), {"form": "format", "preset": "como"})
    assert response.status_code == 302
    tournament.refresh_from_db()
    return tournament


def test_the_como_format_defaults_to_the_lariana_end_roll_and_says_so(client_for, tournament, organiser):
    client = client_for(organiser)
    tournament = _apply_como(client, tournament)
    assert tournament.end_roll_variant == "lariana"
    page = client.get(reverse("manage:formats", args=[tournament.pk]))
    assert text(one(page, "label[for=preset-como] .help:not(.decisions)")) == tr(
        "F.I.RK. rules, Como tournament: 4 evenings at tables of 5; table 1 = the top 5 of the standings when at least "
        "9 are present; the other tables take 3 to 6 players and their points get the correctives 3/5, 4/5, 6/5 "
        "(tables of 5 are unchanged); the best 3 results count; ties by best, then second-best result; timed games "
        "end with the Lariana roll (art. 44.1: 3 more rounds, then 4, then 4 or 7), which can be changed below.")
    assert tr("With the top 5 at table 1, the other players sit at the preferred table size: 11 present play 5+6 "
              "preferring 5, 5+3+3 preferring 4; 12 play 5+4+3; 16 play 5+6+5 or 5+4+4+3. Table 1 is never of 6.") \
        in text(one(page, "#decisions-como"))
    assert page.context["roll_form"].initial == {"variant": "lariana"}
    # The organiser may still choose another variant afterwards.
    client.post(reverse("manage:formats", args=[tournament.pk]), {"form": "endroll", "variant": "standard"})
    tournament.refresh_from_db()
    assert tournament.end_roll_variant == "standard"


def test_como_correctives_apply_to_the_tables_not_of_five(client_for, tournament, organiser, client):
    """11 present: 5 + 3 + 3. The table of 5 keeps its points, the tables of 3 get 3/5 (seed 000 rule 5);
    then 5 + 6: the table of 6 gets 6/5."""
    regs = players(tournament, 11)
    tournament = _apply_como(client_for(organiser), tournament)
    r1 = seat_round(tournament, [regs[:5], regs[5:8], regs[8:]])
    five, three_a, three_b = r1.tables.order_by("number")
    report(five, [(80,), (60,), (40,), (20,), (10,)])
    report(three_a, [(50,), (30,), (10,)])
    report(three_b, [(100, None, True), (20,), (0, 1)])
    services.round_close(user=organiser, rnd=r1)
    services.standings_publish(user=organiser, rnd=r1)
    r2 = seat_round(tournament, [regs[:5], regs[5:]])
    five, six = r2.tables.order_by("number")
    report(five, [(10,), (10,), (10,), (10,), (10,)])
    report(six, [(80,), (60,), (40,), (20,), (10,), (5,)])
    services.round_close(user=organiser, rnd=r2)
    services.standings_publish(user=organiser, rnd=r2)
    rows = {r["player"].split()[-1]: r["rounds"] for r in
            client.get(reverse("public:standings_json", args=[tournament.pk])).json()["rows"]}
    assert rows["P00"] == [80.0, 10.0]
    assert rows["P05"] == [30.0, 96.0]    # 50 x 3/5, then 80 x 6/5
    assert rows["P06"] == [18.0, 72.0]    # 30 x 3/5, then 60 x 6/5
    assert rows["P08"] == [60.0, 24.0]    # RisiKo! 100 x 3/5, then 20 x 6/5
    assert rows["P10"] == [0.0, 6.0]


def test_the_como_evening_drawn_from_the_format_page_seats_the_top_5_at_table_1(client_for, tournament, organiser):
    """Seed 000 rule 4: 11 present, from the second evening table 1 is exactly the top 5 of the
    standings (never a table of 6), the other 6 play at the other tables."""
    regs = players(tournament, 11)
    client = client_for(organiser)
    tournament = _apply_como(client, tournament)
    strength = {r.pk: 11 - i for i, r in enumerate(regs)}
    for evening in range(2):
        response = client.post(reverse("manage:phase_action", args=[tournament.pk, 1, "draw"]))
        assert response.status_code == 302
        client.post(reverse("manage:phase_action", args=[tournament.pk, 1, "publish"]))
        rnd = tournament.rounds.order_by("-number").first()
        if evening == 0:
            report_by_strength(rnd, strength)
            client.post(reverse("manage:phase_action", args=[tournament.pk, 1, "close"]))
    top = [row.registration_id for row in tournament_standings(tournament).rows[:5]]
    tables = [[s.registration_id for s in t.seats.all()] for t in rnd.tables.order_by("number")]
    assert sorted(tables[0]) == sorted(top)
    assert sorted(len(t) for t in tables[1:]) in ([6], [3, 3])
