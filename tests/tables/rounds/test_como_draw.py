"""Seed 000 rule 4 through the draw service and the draw page: table 1 of a Como evening is the current top five."""
from django.urls import reverse

from tables.rounds import services
from tables.standings.selectors import tournament_standings
from tests.factories import RegistrationFactory, report, seat_round
from tests.html import alerts, tr


def test_the_top_five_of_the_standings_sit_at_table_one_with_eleven_present(tournament, organiser):
    tournament.table_size = 5
    tournament.save(update_fields=["table_size"])
    regs = [RegistrationFactory(tournament=tournament, present=True) for _ in range(11)]
    first = seat_round(tournament, [regs[:6], regs[6:]])
    report(first.tables.get(number=1), [(60,), (50,), (40,), (30,), (20,), (10,)])
    report(first.tables.get(number=2), [(55,), (45,), (35,), (25,), (15,)])
    services.round_close(user=organiser, rnd=first)
    rank = {row.registration_id: row.rank for row in tournament_standings(tournament).rows}
    rnd = services.round_create(user=organiser, tournament=tournament, method="seeded_top", seed=2)
    tables = [list(t.seats.values_list("registration_id", flat=True)) for t in rnd.tables.order_by("number")]
    # Players tied at the cut are drawn among: nobody outside table 1 ranks above anyone in it.
    assert max(rank[r] for r in tables[0]) <= min(rank[r] for r in tables[1])
    assert [len(t) for t in tables] == [5, 6]


def test_the_greek_draw_moves_players_on_from_the_previous_round(tournament, organiser):
    """Seed-free rule of SEATING.md section 2: each winner stays, the 2nd moves one table on, the 3rd two..."""
    regs = [RegistrationFactory(tournament=tournament, present=True) for _ in range(12)]
    first = seat_round(tournament, [regs[:4], regs[4:8], regs[8:]])
    for table in first.tables.order_by("number"):
        report(table, [(40,), (30,), (20,), (10,)])
    services.round_close(user=organiser, rnd=first)
    rnd = services.round_create(user=organiser, tournament=tournament, method="greek", seed=1)
    tables = [set(t.seats.values_list("registration_id", flat=True)) for t in rnd.tables.order_by("number")]
    place = {r.pk: (i // 4, i % 4) for i, r in enumerate(regs)}  # (table, place) in round 1
    assert tables == [{r.pk for r in regs if (place[r.pk][0] + place[r.pk][1]) % 3 == t} for t in range(3)]


def test_the_organiser_chooses_5_3_3_on_the_draw_page_but_never_a_6_at_table_one(client, tournament, organiser):
    """Seed 000 rule 4 on the draw page, 11 present with standings: sizes 6+5 are refused with the rule
    and nothing is drawn; 5+3+3 seats the top five at table 1 and the others at two tables of 3."""
    regs = [RegistrationFactory(tournament=tournament, present=True) for _ in range(11)]
    first = seat_round(tournament, [regs[:6], regs[6:]])
    report(first.tables.get(number=1), [(60,), (50,), (40,), (30,), (20,), (10,)])
    report(first.tables.get(number=2), [(55,), (45,), (35,), (25,), (15,)])
    services.round_close(user=organiser, rnd=first)
    client.force_login(organiser)
    url = reverse("manage:rounds", args=[tournament.pk])
    response = client.post(url, {"method": "seeded_top", "sizes": "6,5", "seed": 1})
    assert tr("Table 1 seats the top five of the standings: its size must be 5, not %(size)s.", size=6) \
        in alerts(response)
    assert tournament.rounds.count() == 1
    assert client.post(url, {"method": "seeded_top", "sizes": "5,3,3", "seed": 1}).status_code == 302
    rnd = tournament.rounds.get(number=2)
    tables = [list(t.seats.values_list("registration_id", flat=True)) for t in rnd.tables.order_by("number")]
    rank = {row.registration_id: row.rank for row in tournament_standings(tournament).rows}
    assert [len(t) for t in tables] == [5, 3, 3]
    # Players tied at the cut are drawn among: nobody outside table 1 ranks above anyone in it.
    assert max(rank[r] for r in tables[0]) <= min(rank[r] for r in tables[1] + tables[2])
