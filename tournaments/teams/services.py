"""2vs2 team tournament (SCORING.md section 7; seed 001, RisiKo Club Rahal Maut, art. 2, 4-7).

Teams of 2 to 3 registered players; the captain picks the two who play each match; a single round
robin; match points 3/2/1/0 computed by scoring.teams. Every write is a service with its audit entry;
the matches are read by tournaments.teams.selectors, the team standings by tables.standings.selectors.
"""
from decimal import Decimal

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import F
from django.db.models.functions import Lower
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scoring import teams as team_rules
from scoring.errors import ScoringError
from tournaments.audit.services import audit
from tournaments.models import Registration, Team, TeamMatch, TeamMember, Tournament
from tournaments.teams.championship_services import free_team_name

MIN_MEMBERS, MAX_MEMBERS, PLAYING = 2, 3, 2

# scoring.teams rule codes in the interface's language.
MATCH_MESSAGES = {
    "team": gettext_lazy("Say which team eliminated the other, made RisiKo! or was present."),
    "territories": gettext_lazy("Territories are whole numbers adding up to at most 42."),
    "best_player_territories": gettext_lazy("A player cannot hold more territories than their team, "
                                            "and at most 42."),
    "territory_points": gettext_lazy("Territory points cannot be negative."),
}


def _names(regs):
    return [r.player.full_name for r in regs]


@transaction.atomic
def team_create(*, user, tournament, name, registrations, captain):
    """A team of 2 to 3 confirmed players of the tournament, none already in a team (seed 001 art. 7)."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    name = (name or "").strip()
    if tournament.team_matches.exists():
        raise ValidationError(_("The schedule is made: teams can no longer change."))
    regs = list(Registration.objects.filter(pk__in=[r.pk for r in registrations], tournament=tournament,
                                            status=Registration.Status.CONFIRMED).select_related("player"))
    if len(regs) != len(registrations) or not MIN_MEMBERS <= len(regs) <= MAX_MEMBERS:
        raise ValidationError({"players": _("A team has 2 or 3 confirmed players of this tournament.")})
    taken = [r for r in regs if TeamMember.objects.filter(registration=r).exists()]
    if taken:
        raise ValidationError({"players": _("Already in a team: %(names)s.") % {"names": ", ".join(_names(taken))}})
    if captain is None or captain.pk not in {r.pk for r in regs}:
        raise ValidationError({"captain": _("The captain is one of the team's players.")})
    if not name:  # no name given: the players' surnames, in the order ticked
        name = free_team_name(tournament, " – ".join(r.player.last_name for r in sorted(regs, key=lambda r: r.pk)))
    if Team.objects.annotate(lname=Lower("name")).filter(tournament=tournament, lname=name.lower()).exists():
        raise ValidationError({"name": _("A team with this name already exists.")})
    team = Team.objects.create(tournament=tournament, name=name)
    TeamMember.objects.bulk_create([TeamMember(team=team, registration=r, captain=r.pk == captain.pk)
                                    for r in regs])
    audit(user=user, action="team.create", obj=team, tournament=tournament,
          after={"name": name, "players": _names(regs), "captain": captain.player.full_name})
    return team


@transaction.atomic
def team_delete(*, user, team):
    tournament = Tournament.objects.select_for_update().get(pk=team.tournament_id)
    if tournament.team_matches.exists():
        raise ValidationError(_("The schedule is made: teams can no longer change."))
    members = list(team.members.select_related("registration__player"))
    before = {"name": team.name, "players": _names(m.registration for m in members)}
    team.members.all().delete()
    audit(user=user, action="team.delete", obj=team, tournament=tournament, before=before)
    team.delete()


@transaction.atomic
def schedule_create(*, user, tournament):
    """The single round robin ("girone all'italiana di sola andata", seed 001 art. 2)."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if tournament.team_matches.exists():
        raise ValidationError(_("The schedule is already made."))
    teams = list(tournament.teams.order_by("pk").prefetch_related("members"))
    if len(teams) < 2:
        raise ValidationError(_("Register at least 2 teams first."))
    by_pk = {t.pk: t for t in teams}
    rounds = team_rules.round_robin([t.pk for t in teams])
    for pairing in rounds:
        for home, away in pairing.matches:
            match = TeamMatch.objects.create(tournament=tournament, round=pairing.round, home=by_pk[home],
                                             away=by_pk[away])
            # A team of exactly two has no choice to make.
            for team, lineup in ((by_pk[home], match.home_lineup), (by_pk[away], match.away_lineup)):
                members = list(team.members.all())
                if len(members) == PLAYING:
                    lineup.set([m.registration_id for m in members])
    audit(user=user, action="teams.schedule", obj=tournament, tournament=tournament,
          after={"rounds": [{"round": p.round, "matches": [f"{by_pk[h]} - {by_pk[a]}" for h, a in p.matches],
                             "bye": str(by_pk[p.bye]) if p.bye else None} for p in rounds]})
    return rounds


@transaction.atomic
def lineup_set(*, user, match, team, registrations):
    """The captain's choice of the two players of `team` for `match` (seed 001 art. 7)."""
    match = TeamMatch.objects.select_for_update().select_related("home", "away").get(pk=match.pk)
    if team.pk not in (match.home_id, match.away_id):
        raise ValidationError(_("This team does not play this match."))
    if match.reported:
        raise ValidationError(_("The match has its result: the players can no longer change."))
    ids = {r.pk for r in registrations}
    members = set(TeamMember.objects.filter(team=team).values_list("registration_id", flat=True))
    if len(ids) != PLAYING or not ids <= members:
        raise ValidationError({"players": _("Choose 2 players of the team.")})
    lineup = match.home_lineup if team.pk == match.home_id else match.away_lineup
    before = sorted(lineup.values_list("player__last_name", flat=True))
    lineup.set(ids)
    audit(user=user, action="team.lineup", obj=match, tournament=match.tournament, before={"team": team.name,
          "players": before}, after={"team": team.name, "players": sorted(r.player.last_name for r in registrations)})
    return match


RESULT_FIELDS = ("ending", "decided_by_id", "home_territories", "away_territories", "home_best", "away_best",
                 "home_territory_points", "away_territory_points")


class StaleMatch(Exception):
    def __init__(self, match):
        super().__init__("stale match result")
        self.match = match


@transaction.atomic
def match_result_submit(*, user, match, ending, decided_by=None, territories=(0, 0), best=(0, 0),
                        territory_points=(Decimal(0), Decimal(0)), version):
    """Seed 001 art. 5-6: wipeout before the limit 3-0; at the limit more territories 2-1 (ties: the
    best single player's territories, then territory points, then 1-1); RisiKo! loses 0-3; forfeit
    3-0 to the team present. Refuses a save made on an older version of the match."""
    match = TeamMatch.objects.select_related("home", "away", "tournament").get(pk=match.pk)
    if ending != TeamMatch.Ending.FORFEIT:
        for lineup in (match.home_lineup, match.away_lineup):
            if lineup.count() != PLAYING:
                raise ValidationError(_("Choose the 2 players of each team before entering the result."))
    if ending == TeamMatch.Ending.TIME:
        decided_by = None
    rule_match = team_rules.TeamMatch(
        round=match.round, home=match.home_id, away=match.away_id, ending=ending,
        team=decided_by.pk if decided_by else None, territories=tuple(territories),
        best_player_territories=tuple(best), territory_points=tuple(territory_points))
    try:
        points = team_rules.match_points(rule_match)
    except ScoringError as exc:
        raise ValidationError({exc.field if exc.field in MATCH_MESSAGES else "__all__":
                               str(MATCH_MESSAGES.get(exc.code, exc.detail))}) from None
    updated = TeamMatch.objects.filter(pk=match.pk, version=version).update(
        version=F("version") + 1, reported_at=timezone.now(), reported_by=user)
    if updated != 1:
        match.refresh_from_db()
        raise StaleMatch(match)
    before = {f: getattr(match, f) for f in RESULT_FIELDS} if match.reported else None
    match.ending = ending
    match.decided_by = decided_by
    match.home_territories, match.away_territories = territories
    match.home_best, match.away_best = best
    match.home_territory_points, match.away_territory_points = territory_points
    match.save(update_fields=["ending", "decided_by", "home_territories", "away_territories", "home_best",
                              "away_best", "home_territory_points", "away_territory_points"])
    audit(user=user, action="team.result.correct" if before else "team.result", obj=match,
          tournament=match.tournament, table_label=f"{match.round}: {match}", before=before,
          after={**{f: getattr(match, f) for f in RESULT_FIELDS},
                 "points": {match.home.name: points[match.home_id], match.away.name: points[match.away_id]}})
    match.refresh_from_db()
    return match
