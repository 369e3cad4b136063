"""The teams of the national team championship (SCORING.md 13.10, format `team_championship`).

Players play ordinary individual games; each club enters teams of 4 of its own registered players
(tournaments.models.Team, no captain), and a team's total is the sum of its members' best results
(tables.standings.championship, through scoring.team_championship). A player is in one team at
most (TeamMember.registration is one to one); a player in no team plays and counts for no team.
Teams are composed and dissolved before the first result, renamed at any time. Every write is
a service with its audit entry; the reads are in championship_selectors.
"""
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models.functions import Lower
from django.utils.translation import gettext as _

from tournaments.audit.services import audit
from tournaments.models import Registration, Team, TeamMember, Tournament
from tournaments.teams.championship_selectors import TEAM_SIZE, results_entered


def _names(regs):
    return [r.player.full_name for r in regs]


def _club(reg):
    return reg.player.club


def _check_name(tournament, name, team=None):
    name = (name or "").strip()
    if not name:
        raise ValidationError({"name": _("Give the team a name.")})
    same = Team.objects.annotate(lname=Lower("name")).filter(tournament=tournament, lname=name.lower())
    if team is not None:
        same = same.exclude(pk=team.pk)
    if same.exists():
        raise ValidationError({"name": _("A team with this name already exists.")})
    return name


def free_team_name(tournament, base):
    """`base`, or "`base` 2", "`base` 3"... the first no team of the tournament bears (case aside)."""
    taken = {n.casefold() for n in Team.objects.filter(tournament=tournament).values_list("name", flat=True)}
    name, n = base, 1
    while name.casefold() in taken:
        n += 1
        name = f"{base} {n}"
    return name


def _check_open(tournament):
    if results_entered(tournament):
        raise ValidationError(_("Results are entered: teams can no longer be composed or dissolved."))
    if tournament.team_matches.exists():
        raise ValidationError(_("The 2vs2 schedule is made: teams can no longer change."))


@transaction.atomic
def championship_team_create(*, user, tournament, name, registrations):
    """A team of exactly 4 confirmed players of the tournament, all of one club, none already in a team."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    _check_open(tournament)
    if (name or "").strip():
        name = _check_name(tournament, name)
    wanted = {r.pk for r in registrations}
    regs = list(Registration.objects.filter(pk__in=wanted, tournament=tournament,
                                            status=Registration.Status.CONFIRMED)
                .select_related("player", "player__club").order_by("pk"))
    if len(regs) != len(wanted):
        raise ValidationError({"players": _("Choose confirmed players of this tournament.")})
    if len(regs) != TEAM_SIZE:
        raise ValidationError({"players": _("A team has exactly %(size)d players: %(n)d chosen.")
                               % {"size": TEAM_SIZE, "n": len(regs)}})
    clubless = [r for r in regs if _club(r) is None]
    if clubless:
        raise ValidationError({"players": _("A team is of one club, and these players belong to none: %(names)s.")
                               % {"names": ", ".join(_names(clubless))}})
    clubs = sorted({_club(r).name for r in regs}, key=str.casefold)
    if len(clubs) > 1:
        raise ValidationError({"players": _("The 4 players of a team are of one club; these are of %(clubs)s.")
                               % {"clubs": ", ".join(clubs)}})
    taken = [r for r in regs if TeamMember.objects.filter(registration=r).exists()]
    if taken:
        raise ValidationError({"players": _("Already in a team: %(names)s.") % {"names": ", ".join(_names(taken))}})
    if not (name or "").strip():  # no name given: the club's, numbered from its second team on
        name = free_team_name(tournament, clubs[0])
    team = Team.objects.create(tournament=tournament, name=name)
    TeamMember.objects.bulk_create([TeamMember(team=team, registration=r) for r in regs])
    audit(user=user, action="championship_team.create", obj=team, tournament=tournament,
          after={"name": name, "club": clubs[0], "players": _names(regs)})
    return team


@transaction.atomic
def championship_team_rename(*, user, team, name):
    tournament = Tournament.objects.select_for_update().get(pk=team.tournament_id)
    team = Team.objects.select_for_update().get(pk=team.pk)
    name = _check_name(tournament, name, team)
    if name == team.name:
        return team
    before = team.name
    team.name = name
    team.save(update_fields=["name"])
    audit(user=user, action="championship_team.rename", obj=team, tournament=tournament,
          before={"name": before}, after={"name": name})
    return team


@transaction.atomic
def championship_team_dissolve(*, user, team):
    """The team goes; its players stay registered, free to join another team."""
    tournament = Tournament.objects.select_for_update().get(pk=team.tournament_id)
    _check_open(tournament)
    members = list(team.members.select_related("registration__player").order_by("registration__pk"))
    before = {"name": team.name, "players": _names(m.registration for m in members)}
    team.members.all().delete()
    audit(user=user, action="championship_team.dissolve", obj=team, tournament=tournament, before=before)
    team.delete()
