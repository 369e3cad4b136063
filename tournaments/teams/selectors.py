"""Reads of the 2vs2 team tournament's pages: teams, matches and lineups, team penalties and disputes."""
from django.shortcuts import get_object_or_404

from tournaments.models import Registration, Team, TeamDispute, TeamMatch, TeamPenalty


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


def team_penalties(tournament):
    return list(TeamPenalty.objects.filter(tournament=tournament).select_related("team"))


def team_disputes(tournament):
    return TeamDispute.objects.filter(tournament=tournament).select_related("match__home", "match__away",
                                                                           "penalty__team")


def team_penalty_of(tournament, pk):
    return get_object_or_404(TeamPenalty, pk=pk, tournament=tournament)


def team_dispute_of(tournament, pk):
    return get_object_or_404(TeamDispute.objects.select_related("match__home", "match__away", "penalty__team"),
                             pk=pk, tournament=tournament)
