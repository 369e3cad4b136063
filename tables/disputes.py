"""When standings are final: every round closed and published, no dispute open, the window over."""
from datetime import timedelta

from django.utils import timezone

from tables.models import Dispute, Round


def dispute_deadline(tournament):
    """Disputes are accepted until this moment (seed 001 art. 2: 2 hours after publication)."""
    last = (Round.objects.filter(tournament=tournament, standings_published_at__isnull=False)
            .order_by("-standings_published_at").values_list("standings_published_at", flat=True).first())
    if last is None:
        return None
    return last + timedelta(minutes=tournament.dispute_window_minutes)


def standings_are_final(tournament, now=None):
    now = now or timezone.now()
    rounds = list(Round.objects.filter(tournament=tournament).values_list("status", "standings_published_at"))
    if not rounds or any(status != Round.Status.CLOSED or published is None for status, published in rounds):
        return False
    if Dispute.objects.filter(tournament=tournament, state=Dispute.State.OPEN).exists():
        return False
    deadline = dispute_deadline(tournament)
    return deadline is not None and now >= deadline
