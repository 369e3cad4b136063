"""The 2vs2 team standings (SCORING.md section 7; seed 001, RisiKo Club Rahal Maut, art. 2): the team
table after each day of the round robin and the state of each day's published standings. Read
through tables.standings.selectors."""
from dataclasses import dataclass

from django.utils import timezone

from scoring import teams as team_rules
from tables.models import TeamDispute, TeamPenalty
from tournaments.models import TeamDay, TeamMatch
from tournaments.teams.selectors import as_rule_match


@dataclass
class TeamRow:
    rank: int
    team: object
    points: int
    played: int
    territories: int
    penalty: int = 0


def team_standings(tournament, day=None):
    """Seed 001: match points less the team's penalties (never below 0), then head to head, then
    total territories (scoring.teams); with `day`, the standings after that day of the round robin."""
    teams = {t.pk: t for t in tournament.teams.prefetch_related("members__registration__player")}
    played = tournament.team_matches.filter(reported_at__isnull=False)
    penalties = TeamPenalty.objects.filter(tournament=tournament, withdrawn=False)
    if day is not None:
        played, penalties = played.filter(round__lte=day), penalties.filter(day__lte=day)
    taken = {}
    for team_id, points in penalties.values_list("team_id", "points"):
        taken[team_id] = taken.get(team_id, 0) + points
    matches = [as_rule_match(m) for m in played]
    rows = [TeamRow(r.rank, teams[r.team], r.points, r.played, r.territories, taken.get(r.team, 0))
            for r in team_rules.team_standings(matches, list(teams), taken)]
    # Teams sharing a rank are listed by name, then id, as players are (scoring.teams lists them by id).
    rows.sort(key=lambda r: (r.rank, r.team.name.casefold(), r.team.pk))
    return rows


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
    day or an earlier one still open."""
    now = now or timezone.now()
    published = {d.number: d for d in TeamDay.objects.filter(tournament=tournament)}
    open_days = list(TeamDispute.objects.filter(tournament=tournament, state=TeamDispute.State.OPEN)
                     .values_list("day", flat=True))
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
