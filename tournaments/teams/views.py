"""Pages of the 2vs2 team tournament (seed 001): teams, round robin, match results (the team standings page is
tables.standings.views.team_standings)."""
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_safe, require_POST

from tournaments.teams import selectors as team_selectors
from tournaments.teams import services as teams
from tournaments.feedback import run_with_message
from tournaments.forms import add_service_errors, posted_version
from tournaments.rules import staff_role, tournament_for_arbiter, tournament_for_organiser
from tournaments.teams.forms import LineupForm, MatchResultForm, TeamForm


@login_required
def teams_page(request, pk):
    """Register teams (2-3 players, a captain) and make the round robin schedule."""
    tournament = tournament_for_organiser(request.user, pk)
    free = team_selectors.unteamed_registrations(tournament)
    form = TeamForm(request.POST or None, registrations=free)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        by_pk = {str(r.pk): r for r in free}
        try:
            teams.team_create(user=request.user, tournament=tournament, name=data["name"],
                              registrations=[by_pk[i] for i in data["players"]],
                              captain=by_pk.get(data["captain"]))
        except ValidationError as exc:
            add_service_errors(form, exc)
        else:
            messages.success(request, _("Team registered."))
            return redirect("manage:teams", pk=pk)
    return render(request, "formats/teams.html", {
        "tournament": tournament, "form": form, "teams": team_selectors.tournament_teams(tournament), "free": free,
        "scheduled": team_selectors.has_schedule(tournament)}, status=400 if form.errors else 200)


@login_required
@require_POST
def team_schedule(request, pk):
    tournament = tournament_for_organiser(request.user, pk)
    try:
        rounds = teams.schedule_create(user=request.user, tournament=tournament)
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
        return redirect("manage:teams", pk=pk)
    messages.success(request, ngettext("Schedule made: %(n)d round.", "Schedule made: %(n)d rounds.", len(rounds))
                     % {"n": len(rounds)})
    return redirect("arbiter:team_matches", pk=pk)


@login_required
@require_POST
def team_delete(request, pk, team_pk):
    tournament = tournament_for_organiser(request.user, pk)
    team = team_selectors.team_of(tournament, team_pk)
    run_with_message(request, teams.team_delete, _("Team deleted."), user=request.user, team=team)
    return redirect("manage:teams", pk=pk)


@login_required
@require_safe
def team_matches(request, pk):
    """The schedule by round, with lineups and results, for arbiters."""
    tournament = tournament_for_arbiter(request.user, pk)
    return render(request, "formats/team_matches.html", {
        "tournament": tournament, "rounds": team_selectors.team_schedule(tournament),
        "role": staff_role(request.user, tournament)})


def _saved_result(match):
    """The result form's values as saved on the match."""
    return {"ending": match.ending or None, "decided_by": str(match.decided_by_id or ""),
            "home_territories": match.home_territories, "away_territories": match.away_territories,
            "home_best": match.home_best, "away_best": match.away_best,
            "home_territory_points": match.home_territory_points,
            "away_territory_points": match.away_territory_points}


@login_required
def team_match(request, pk, match_pk):
    """One match: the two players of each team (captain's choice), then the result."""
    tournament = tournament_for_arbiter(request.user, pk)
    match = team_selectors.match_of(tournament, match_pk)
    which = request.POST.get("form") if request.method == "POST" else None
    lineups = _lineup_forms(request, match, which)
    result_form = MatchResultForm(request.POST if which == "result" else None, match=match,
                                  initial=_saved_result(match))
    conflict = None
    if which in lineups and lineups[which].is_valid():
        if _save_lineup(request, tournament, match, lineups[which]):
            return redirect("arbiter:team_match", pk=pk, match_pk=match.pk)
    elif which == "result" and result_form.is_valid():
        result_form, conflict = _save_result(request, match, result_form)
        if result_form is None:
            return redirect("arbiter:team_matches", pk=pk)
    errors = which and (result_form.errors or any(f.errors for f in lineups.values()))
    points = team_selectors.match_points(match)
    return render(request, "formats/team_match.html", {
        "tournament": tournament, "match": match, "lineups": lineups, "result_form": result_form,
        "conflict": conflict, "points": points,
        "home_points": points[match.home_id] if points else None,
        "away_points": points[match.away_id] if points else None,
        "role": staff_role(request.user, tournament)}, status=409 if conflict else (400 if errors else 200))


def _lineup_forms(request, match, which):
    """Each team's lineup form ({"home": form, "away": form}), the one sent (`which`) holding what was posted."""
    lineups = {}
    for side, team in (("home", match.home), ("away", match.away)):
        lineups[side] = LineupForm(request.POST if which == side else None, prefix=side,
                                   members=team_selectors.team_members(team),
                                   initial={"players": team_selectors.lineup_ids(match, side)})
        lineups[side].team = team
    return lineups


def _save_lineup(request, tournament, match, form):
    """Save a valid lineup form: True once saved, else False with the refusal on the form."""
    regs = team_selectors.registrations_by_ids(tournament, form.cleaned_data["players"])
    try:
        teams.lineup_set(user=request.user, match=match, team=form.team, registrations=regs)
    except ValidationError as exc:
        add_service_errors(form, exc)
        return False
    messages.success(request, _("Players saved."))
    return True


def _save_result(request, match, form):
    """Save a valid result form: (None, None) once saved, else the form to show again and the match as
    someone else saved it meanwhile (or None)."""
    try:
        teams.match_result_submit(user=request.user, match=match, version=posted_version(request.POST),
                                  **form.result())
    except teams.StaleMatch as exc:
        # The form now holds what the other arbiter saved, not the rejected values: saving again
        # on the new version is a choice, never a silent overwrite.
        return MatchResultForm(None, match=exc.match, initial=_saved_result(exc.match)), exc.match
    except ValidationError as exc:
        add_service_errors(form, exc)
        return form, None
    messages.success(request, _("Result saved."))
    return None, None
