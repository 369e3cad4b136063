"""The Master (SCORING.md 13.8): an unbeaten Master leader who is absent does not go straight to the final.
The leader alone at the top who won both games goes to the final only when checked in; absent, the base
plan is seated when the semifinals are drawn: the 4 semifinals of the top 16 present, nobody seeded to
the final."""
import pytest
from django.test import Client
from django.urls import reverse

from phases import draw
from tables.standings import selectors as standings_selectors
from tests.phases.helpers import players
from tests.phases.test_master import _qualifying
from tournaments.models import Registration

pytestmark = pytest.mark.django_db

# 17 players, P00 the strongest, every table won by its first player: P00-P03 win round 1, then meet at
# one table of round 2, where P00 wins again. P00 alone has won both games and leads alone.
TP = {i: 40 - 2 * i for i in range(17)}
ROUNDS = [([[0, 4, 8, 12, 16], [1, 5, 9, 13], [2, 6, 10, 14], [3, 7, 11, 15]], TP),
          ([[0, 1, 2, 3], [4, 5, 11, 16], [6, 7, 12, 13], [8, 9, 10, 14, 15]], TP)]


@pytest.fixture
def qualified(tournament, organiser):
    tournament.dispute_window_minutes = 0
    tournament.save()
    regs = players(tournament, 17)
    _qualifying(tournament, organiser, regs, ROUNDS)
    standings = standings_selectors.qualifying_standings(tournament)
    assert (standings[0].player, standings[0].rank, standings[0].wins, standings[1].rank) == (regs[0].pk, 1, 2, 2)
    return regs


def _semifinals(tournament, organiser):
    semi = tournament.phases.get(order=2)
    rnd = draw.phase_draw(user=organiser, phase=semi, seed=1)
    semi.refresh_from_db()
    return semi, sorted(t.seats.count() for t in rnd.tables.all())


def test_an_unbeaten_master_leader_who_is_absent_does_not_go_straight_to_the_final(tournament, organiser,
                                                                                  qualified):
    regs = qualified
    # The organiser checks the leader out on the check-in page (they have not come to the semifinals).
    manager = Client()
    manager.force_login(organiser)
    response = manager.post(reverse("manage:registration_action", args=[tournament.pk, regs[0].pk, "checkin"]))
    assert response.status_code in (200, 302)
    assert not Registration.objects.get(pk=regs[0].pk).present
    semi, tables = _semifinals(tournament, organiser)
    assert semi.settings["master_case"] == "base"
    assert semi.settings["seeded_to_final"] == []
    assert semi.settings["absent"] == [regs[0].pk]
    assert sorted(semi.settings["semifinalists"]) == sorted(r.pk for r in regs[1:17])
    assert tables == [4, 4, 4, 4]


def test_the_same_leader_checked_in_goes_straight_to_the_final(tournament, organiser, qualified):
    regs = qualified
    outcome = standings_selectors.qualifying_outcome(tournament, standings_selectors.composition_of(tournament))
    assert (outcome.case, outcome.result.direct_if_unbeaten, outcome.result.final) == (
        "unbeaten", True, [regs[0].pk])
    semi, tables = _semifinals(tournament, organiser)
    assert semi.settings["seeded_to_final"] == [regs[0].pk]
    assert tables == [4, 4, 4]
