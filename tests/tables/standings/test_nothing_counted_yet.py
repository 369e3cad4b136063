"""Under "discard the worst", after round 1 every result is the one discarded: the standings say why every
total is 0, until a round's result can count."""
import pytest
from django.urls import reverse

from tests.factories import RegistrationFactory, report, seat_round
from tests.html import select, text, texts, tr
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def _explained(client, tournament):
    page = client.get(reverse("public:standings", args=[tournament.pk]))
    assert page.status_code == 200
    return [text(p) for p in select(page, "[data-nothing-counted]")], texts(page, "[data-total]") or None


@pytest.mark.parametrize("discards", [1, 2])
def test_every_total_is_0_and_the_standings_say_why_until_a_result_counts(client, tournament, discards,
                                                                          django_capture_on_commit_callbacks):
    Tournament.objects.filter(pk=tournament.pk).update(discard_worst=discards, formula="punti_tavolo",
                                                       published=True)
    tournament.refresh_from_db()
    regs = [RegistrationFactory(tournament=tournament) for _ in range(4)]
    why = tr("Each player's worst result is discarded, and so far it is their only one: every total is 0 until "
             "round %(next)s is played.",
             plural="Each player's %(n)s worst results are discarded, and so far nobody has more: every total is 0 "
                    "until round %(next)s is played.", count=discards, n=discards, next=discards + 1)
    for number in range(1, discards + 2):
        rnd = seat_round(tournament, [regs], number=number)
        with django_capture_on_commit_callbacks(execute=True):   # a new results version, as a request commits
            report(rnd.tables.get(), [(60,), (40,), (30,), (20,)])
        rnd.status = "closed"
        rnd.save(update_fields=["status"])
        shown, _totals = _explained(client, tournament)
        assert shown == ([why] if number <= discards else []), number


def test_without_discards_nothing_is_said(client, tournament):
    Tournament.objects.filter(pk=tournament.pk).update(published=True)
    regs = [RegistrationFactory(tournament=tournament) for _ in range(4)]
    report(seat_round(tournament, [regs]).tables.get(), [(60,), (40,), (30,), (20,)])
    assert _explained(client, tournament)[0] == []
