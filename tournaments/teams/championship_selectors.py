"""Reads of the national team championship's teams (SCORING.md 13.10): the teams with their members and
clubs, the players still free by club, whether teams may still change (their writes:
tournaments.teams.championship_services; the team table: tables.standings.championship)."""
from django.shortcuts import get_object_or_404

from tournaments.models import Registration, Team

TEAM_SIZE = 4   # "squadre di 4 giocatori"
BEST = 9        # "solo le migliori nove partite della squadra" (3 rounds: 3 discards)


def results_entered(tournament):
    return tournament.rounds.filter(tables__reported_at__isnull=False).exists()


def championship_teams(tournament):
    """The tournament's teams with their members (and the members' players and clubs), in the order
    they were entered."""
    return list(tournament.teams.order_by("pk").prefetch_related("members__registration__player__club"))


def team_club(team):
    """The club of a team's players (one, since a team is composed of one club's players)."""
    members = list(team.members.all())
    club = members[0].registration.player.club if members else None
    return club.name if club else ""


def free_by_club(tournament):
    """[(club name, [registrations])]: the confirmed players in no team, by club (those of no club
    last, under an empty name: they cannot be in a team)."""
    regs = (tournament.registrations.filter(status=Registration.Status.CONFIRMED, team_membership__isnull=True)
            .select_related("player", "player__club"))
    groups = {}
    for reg in regs:
        groups.setdefault(reg.player.club.name if reg.player.club else "", []).append(reg)
    return sorted(groups.items(), key=lambda item: (item[0] == "", item[0].casefold()))


def confirmed_registrations(tournament):
    return list(tournament.registrations.filter(status=Registration.Status.CONFIRMED).select_related("player"))


def championship_team_of(tournament, pk):
    return get_object_or_404(Team, pk=pk, tournament=tournament)


def composition_open(tournament):
    """Whether teams may still be composed and dissolved (no result entered yet)."""
    return not results_entered(tournament) and not tournament.team_matches.exists()
