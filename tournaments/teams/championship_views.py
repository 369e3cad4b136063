"""The organiser's page of the national team championship's teams (SCORING.md 13.10): compose a team of
4 players of one club, rename it, dissolve it before the first result (the team table is
tables.standings.championship_views)."""
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournaments.feedback import run_with_message
from tournaments.forms import add_service_errors
from tournaments.rules import tournament_for_organiser
from tournaments.teams import championship_selectors as selectors
from tournaments.teams import championship_services as services
from tournaments.teams.forms import ChampionshipTeamForm, TeamNameForm


@login_required
def championship_teams(request, pk):
    """The teams entered, the players still free by club, and the form composing a new team."""
    tournament = tournament_for_organiser(request.user, pk)
    confirmed = selectors.confirmed_registrations(tournament)
    form = ChampionshipTeamForm(request.POST or None, registrations=confirmed)
    if request.method == "POST" and form.is_valid():
        by_pk = {str(r.pk): r for r in confirmed}
        try:
            services.championship_team_create(user=request.user, tournament=tournament, name=form.cleaned_data["name"],
                                              registrations=[by_pk[i] for i in form.cleaned_data["players"]])
        except ValidationError as exc:
            add_service_errors(form, exc)
        else:
            messages.success(request, _("Team registered."))
            return redirect("manage:championship_teams", pk=pk)
    teams = selectors.championship_teams(tournament)
    return render(request, "formats/championship_teams.html", {
        "tournament": tournament, "form": form, "teams": [(team, selectors.team_club(team)) for team in teams],
        "free": selectors.free_by_club(tournament), "open": selectors.composition_open(tournament),
        "team_size": selectors.TEAM_SIZE, "chosen": set(form["players"].value() or ())},
        status=400 if form.errors else 200)


@login_required
@require_POST
def championship_team_rename(request, pk, team_pk):
    tournament = tournament_for_organiser(request.user, pk)
    team = selectors.championship_team_of(tournament, team_pk)
    form = TeamNameForm(request.POST, prefix="rename")
    if not form.is_valid():
        messages.error(request, " ".join(e for errors in form.errors.values() for e in errors))
    else:
        run_with_message(request, services.championship_team_rename, _("Team renamed."), user=request.user,
                         team=team, name=form.cleaned_data["name"])
    return redirect("manage:championship_teams", pk=pk)


@login_required
@require_POST
def championship_team_dissolve(request, pk, team_pk):
    tournament = tournament_for_organiser(request.user, pk)
    team = selectors.championship_team_of(tournament, team_pk)
    run_with_message(request, services.championship_team_dissolve, _("Team dissolved: its players are free."),
                     user=request.user, team=team)
    return redirect("manage:championship_teams", pk=pk)
