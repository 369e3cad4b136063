"""Reads of the 2vs2 team tournament's pages: teams, matches and lineups, the published days and their state."""
from dataclasses import dataclass

from django.shortcuts import get_object_or_404
from django.utils import timezone

from tournaments.models import Registration, Team, TeamDay, TeamMatch

# tables.models.TeamDispute.State.OPEN (the team disputes live in the tables app, above this one).
OPEN = "open"


def unteamed_registrations(tournament):
    """Confirmed players in no team yet (those a new team may take)."""
    return list(tournament.registrations.filter(status=Registration.Status.CONFIRMED, team_membership__isnull=True)
                .select_related("player"))


def tournament_teams(tournament):
    return tournament.teams.prefetch_related("members__registration__player")


def has_schedule(tournament):
    return tournament.team_matches.exists()


def team_of(tournament, pk):
    return get_object_or_404(Team, pk=pk, tournament=tournament)


def match_of(tournament, pk):
    return get_object_or_404(TeamMatch.objects.select_related("home", "away", "decided_by"), pk=pk,
                             tournament=tournament)


def team_members(team):
    return list(team.members.select_related("registration__player"))


def lineup_ids(match, side):
    """The registrations (ids as text) of the `side` ("home" or "away") lineup of a match."""
    return [str(r.pk) for r in getattr(match, f"{side}_lineup").all()]


def registrations_by_ids(tournament, ids):
    """The tournament's registrations of these ids (as posted), with their players."""
    return list(tournament.registrations.filter(pk__in=ids).select_related("player"))


def tournament_matches(tournament):
    return list(tournament.team_matches.select_related("home", "away").order_by("round", "pk"))


@dataclass
class DayView:
    number: int
    matches: int
    reported: int
    published_at: object = None
    closes_at: object = None
    status: str = "playing"   # "playing", "ready" (every result in), "provisional", "final"


def team_days(tournament, now=None):
    """Each day of the schedule with its publication and the state of its standings: provisional
    until the dispute window (Tournament.dispute_window_closes) has closed with no dispute about that
    day still open (the team disputes are tables.models.TeamDispute, read here by their relation)."""
    now = now or timezone.now()
    published = {d.number: d for d in TeamDay.objects.filter(tournament=tournament)}
    open_days = list(tournament.team_disputes.filter(state=OPEN).values_list("day", flat=True))
    counts = {}
    for number, reported in TeamMatch.objects.filter(tournament=tournament).values_list("round", "reported_at"):
        total, done = counts.get(number, (0, 0))
        counts[number] = (total + 1, done + (reported is not None))
    days = []
    for number, (total, done) in sorted(counts.items()):
        day = published.get(number)
        view = DayView(number, total, done)
        if day is not None:
            view.published_at = day.standings_published_at
            view.closes_at = tournament.dispute_window_closes(day.standings_published_at)
            settled = now >= view.closes_at and not any(d <= number for d in open_days)
            view.status = "final" if settled else "provisional"
        elif done == total:
            view.status = "ready"
        days.append(view)
    return days
