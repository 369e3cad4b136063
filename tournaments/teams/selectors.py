"""Reads of the 2vs2 team tournament's pages: teams, matches and lineups, the schedule and each match's points
(the team standings and the state of each day are read by tables.standings.selectors)."""
from dataclasses import dataclass

from django.shortcuts import get_object_or_404

from scoring import teams as team_rules
from tournaments.models import Registration, Team, TeamMatch


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


def as_rule_match(match):
    """The plain scoring.teams.TeamMatch of a stored match with a result."""
    return team_rules.TeamMatch(
        round=match.round, home=match.home_id, away=match.away_id, ending=match.ending,
        team=match.decided_by_id, territories=(match.home_territories, match.away_territories),
        best_player_territories=(match.home_best, match.away_best),
        territory_points=(match.home_territory_points, match.away_territory_points))


def match_points(match):
    """{team id: points} of a reported match, or None."""
    if not match.reported:
        return None
    return team_rules.match_points(as_rule_match(match))


@dataclass
class ScheduleRound:
    number: int
    matches: list
    bye: object = None


def team_schedule(tournament):
    """The rounds of the round robin, each match with its points once reported, and who rests."""
    teams = list(tournament.teams.all())
    matches = list(tournament.team_matches.select_related("home", "away", "decided_by")
                   .prefetch_related("home_lineup__player", "away_lineup__player").order_by("round", "pk"))
    rounds = {}
    for match in matches:
        points = match_points(match)
        match.home_points = points[match.home_id] if points else None
        match.away_points = points[match.away_id] if points else None
        rounds.setdefault(match.round, []).append(match)
    out = []
    for number, items in sorted(rounds.items()):
        playing = {m.home_id for m in items} | {m.away_id for m in items}
        bye = next((t for t in teams if t.pk not in playing), None)
        out.append(ScheduleRound(number, items, bye))
    return out
