"""Seed 000 rule 4 through the draw service: table 1 of a Como evening is the current top five."""
from tables import services
from tables.selectors import tournament_standings
from tests.factories import RegistrationFactory, report, seat_round


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
