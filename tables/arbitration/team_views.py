"""Arbiters' pages of the 2vs2 team tournament (seed 001): team penalties, publishing a day's
standings, disputes within their window."""
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tables.arbitration import selectors as arbitration_selectors
from tables.arbitration import services as team_arbitration
from tables.arbitration.forms import TeamDisputeDecisionForm, TeamDisputeForm, TeamPenaltyForm
from tables.arbitration.kinds import MATCH
from tables.standings.selectors import team_days
from tournaments.feedback import run_with_message
from tournaments.forms import add_service_errors
from tournaments.rules import staff_role, tournament_for_arbiter
from tournaments.teams import selectors as team_selectors


@login_required
def team_arbitration_page(request, pk):
    """One page on the arbiter's phone: publish a day, give a penalty, record a dispute."""
    tournament = tournament_for_arbiter(request.user, pk)
    which = request.POST.get("form") if request.method == "POST" else None
    teams = list(team_selectors.tournament_teams(tournament))
    days = team_days(tournament)
    matches = team_selectors.tournament_matches(tournament)
    penalties = arbitration_selectors.tournament_penalties(tournament, MATCH)
    penalty_form = TeamPenaltyForm(request.POST if which == "penalty" else None, teams=teams,
                                   days=[d.number for d in days])
    about_match = request.GET.get("incontro", "")
    dispute_form = TeamDisputeForm(request.POST if which == "dispute" else None, matches=matches,
                                   penalties=[p for p in penalties if not p.withdrawn],
                                   initial={"about": "result", "match": about_match} if about_match else None)
    if which == "penalty" and penalty_form.is_valid():
        data = penalty_form.cleaned_data
        try:
            team_arbitration.team_penalty_give(
                user=request.user, tournament=tournament, team=next(t for t in teams if str(t.pk) == data["team"]),
                points=data["points"], reason=data["reason"], day=data["day"])
        except ValidationError as exc:
            add_service_errors(penalty_form, exc)
        else:
            messages.success(request, _("Penalty recorded."))
            return redirect("arbiter:team_arbitration", pk=pk)
    elif which == "dispute" and dispute_form.is_valid():
        data = dispute_form.cleaned_data
        try:
            team_arbitration.team_dispute_record(
                user=request.user, tournament=tournament, about=data["about"], raised_by=data["raised_by"],
                text=data["text"], match=next((m for m in matches if str(m.pk) == data["match"]), None),
                penalty=next((p for p in penalties if str(p.pk) == data["penalty"]), None))
        except ValidationError as exc:
            add_service_errors(dispute_form, exc)
        else:
            messages.success(request, _("Dispute recorded."))
            return redirect("arbiter:team_arbitration", pk=pk)
    errors = which and (penalty_form.errors or dispute_form.errors)
    return render(request, "formats/team_arbitration.html", {
        "tournament": tournament, "days": days, "penalty_form": penalty_form, "dispute_form": dispute_form,
        "penalties": penalties, "role": staff_role(request.user, tournament), "open_dispute": bool(about_match),
        "disputes": arbitration_selectors.tournament_disputes(tournament, MATCH)},
        status=400 if errors else 200)


@login_required
@require_POST
def team_day_publish(request, pk, number):
    tournament = tournament_for_arbiter(request.user, pk)
    try:
        day = team_arbitration.team_day_publish(user=request.user, tournament=tournament, number=number)
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
    else:
        closes = arbitration_selectors.dispute_window_closes(tournament, day)
        messages.success(request, _("Standings of day %(n)d published: disputes until %(time)s.") % {
            "n": number, "time": timezone.localtime(closes).strftime("%H:%M")})
    return redirect("arbiter:team_arbitration", pk=pk)


@login_required
@require_POST
def team_penalty_withdraw(request, pk, penalty_pk):
    tournament = tournament_for_arbiter(request.user, pk)
    penalty = arbitration_selectors.penalty_of(tournament, penalty_pk, MATCH)
    run_with_message(request, team_arbitration.penalty_withdraw, _("Penalty withdrawn."), user=request.user,
                     penalty=penalty, reason=request.POST.get("reason", ""))
    return redirect("arbiter:team_arbitration", pk=pk)


@login_required
def team_dispute_decide(request, pk, dispute_pk):
    tournament = tournament_for_arbiter(request.user, pk)
    dispute = arbitration_selectors.dispute_of(tournament, dispute_pk, MATCH)
    form = TeamDisputeDecisionForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            team_arbitration.team_dispute_decide(user=request.user, dispute=dispute, state=form.cleaned_data["state"],
                                                 decision=form.cleaned_data["decision"])
        except ValidationError as exc:
            add_service_errors(form, exc)
        else:
            messages.success(request, _("Decision recorded."))
            return redirect("arbiter:team_arbitration", pk=pk)
    return render(request, "formats/team_dispute.html", {
        "tournament": tournament, "dispute": dispute, "form": form, "role": staff_role(request.user, tournament)},
        status=400 if form.errors else 200)
