"""Arbiter-only screens: penalties and disputes of games and of 2vs2 matches, and the publication of a
2vs2 day's standings. Only the tournament's arbiters and organiser get in. A withdrawal and a decision
are one view for both kinds of play (`of`, given by the URL); the pages that list and record differ."""
from dataclasses import dataclass

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe, require_POST

from tables.arbitration import services as arbitration
from tables.arbitration import selectors as arbitration_selectors
from tables.arbitration.forms import (DisputeDecisionForm, DisputeForm, PenaltyForm, PenaltyWithdrawForm,
                                      TeamDisputeDecisionForm, TeamDisputeForm, TeamPenaltyForm, game_label)
from tables.arbitration.kinds import GAME, MATCH
from tables.models import Dispute, Penalty
from tables.standings import selectors as standings_selectors
from tables.standings.selectors import team_days
from tournaments.feedback import run_with_message
from tournaments.forms import add_service_errors
from tournaments.rules import staff_role, tournament_for_arbiter
from tournaments.teams import selectors as team_selectors


@dataclass(frozen=True)
class Pages:
    """Where a kind of play's arbitration lives: the page a withdrawal and a decision return to, and the
    decision's form and page."""
    penalties: str
    disputes: str
    decision_form: type
    decision_template: str


PAGES = {
    GAME.name: Pages("arbiter:penalties", "arbiter:disputes", DisputeDecisionForm, "tables/dispute_decide.html"),
    MATCH.name: Pages("arbiter:team_arbitration", "arbiter:team_arbitration", TeamDisputeDecisionForm,
                      "formats/team_dispute.html"),
}


@login_required
def penalties(request, pk):
    tournament = tournament_for_arbiter(request.user, pk)
    form = PenaltyForm(request.POST or None, tournament=tournament)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            penalty = arbitration.penalty_give(
                user=request.user, tournament=tournament, registration=data["registration"], kind=data["kind"],
                reason=data["reason"], points=data["points"], seat=data["seat"],
                internal_note=data["internal_note"], void_past_results=data["void_past_results"])
        except ValidationError as exc:
            add_service_errors(form, exc)
        else:
            messages.success(request, _("Penalty recorded."))
            if penalty.kind == Penalty.Kind.WARNING and arbitration_selectors.warnings_in_game(penalty) >= 2:
                messages.warning(request, _("This is the player's second warning in this game: "
                                            "you may escalate it to a points penalty or a disqualification."))
            return redirect("arbiter:penalties", pk=pk)
    items = arbitration_selectors.tournament_penalties(tournament, GAME)
    return render(request, "tables/penalties.html", {
        "tournament": tournament, "form": form, "penalties": items, "role": staff_role(request.user, tournament),
        "withdraw_form": PenaltyWithdrawForm()}, status=400 if form.errors else 200)


@login_required
@require_safe
def penalty_games(request, pk):
    """The <option>s of the chosen player's games (htmx, when the player changes)."""
    tournament = tournament_for_arbiter(request.user, pk)
    reg = arbitration_selectors.registration_or_none(tournament, request.GET.get("registration", ""))
    games = [(seat.pk, game_label(seat)) for seat in arbitration_selectors.player_games(reg)]
    return render(request, "tables/penalties.html#game-options", {"games": games})


@login_required
@require_POST
def penalty_withdraw(request, pk, penalty_pk, of=GAME):
    tournament = tournament_for_arbiter(request.user, pk)
    penalty = arbitration_selectors.penalty_of(tournament, penalty_pk, of)
    form = PenaltyWithdrawForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Write why the penalty is withdrawn."))
    else:
        run_with_message(request, arbitration.penalty_withdraw, _("Penalty withdrawn."), user=request.user,
                         penalty=penalty, reason=form.cleaned_data["reason"])
    return redirect(PAGES[of.name].penalties, pk=pk)


@login_required
def disputes(request, pk):
    tournament = tournament_for_arbiter(request.user, pk)
    form = DisputeForm(request.POST or None, tournament=tournament)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            arbitration.dispute_record(user=request.user, tournament=tournament, about=data["about"],
                                       raised_by=data["raised_by"], text=data["text"], table=data["table"],
                                       penalty=data["penalty"])
        except ValidationError as exc:
            add_service_errors(form, exc)
        else:
            messages.success(request, _("Dispute recorded."))
            return redirect("arbiter:disputes", pk=pk)
    items = arbitration_selectors.tournament_disputes(tournament, GAME)
    return render(request, "tables/disputes.html", {
        "tournament": tournament, "form": form, "disputes": items, "role": staff_role(request.user, tournament),
        "deadline": standings_selectors.dispute_deadline(tournament),
        "final": standings_selectors.standings_are_final(tournament)}, status=400 if form.errors else 200)


@login_required
def dispute_decide(request, pk, dispute_pk, of=GAME):
    tournament = tournament_for_arbiter(request.user, pk)
    dispute = arbitration_selectors.dispute_of(tournament, dispute_pk, of)
    pages = PAGES[of.name]
    form = pages.decision_form(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            arbitration.dispute_decide(user=request.user, dispute=dispute, **form.cleaned_data)
        except ValidationError as exc:
            add_service_errors(form, exc)
        else:
            messages.success(request, _("Decision recorded."))
            return redirect(pages.disputes, pk=pk)
    seeks_correction = of.links_correction and dispute.state == Dispute.State.OPEN
    return render(request, pages.decision_template, {
        "tournament": tournament, "dispute": dispute, "form": form,
        "correction": arbitration_selectors.correction_for(dispute) if seeks_correction else None,
        "role": staff_role(request.user, tournament)}, status=400 if form.errors else 200)


# --- the 2vs2 page: publish a day, give a team penalty, record a dispute ---------------------------------

@login_required
def team_arbitration_page(request, pk):
    """One page on the arbiter's phone: publish a day, give a penalty, record a dispute (the form sent
    says which: each is its service's arguments once cleaned)."""
    tournament = tournament_for_arbiter(request.user, pk)
    which = request.POST.get("form") if request.method == "POST" else None
    days = team_days(tournament)
    penalties = arbitration_selectors.tournament_penalties(tournament, MATCH)
    about_match = request.GET.get("incontro", "")
    forms = {
        "penalty": TeamPenaltyForm(request.POST if which == "penalty" else None, days=[d.number for d in days],
                                   teams=team_selectors.tournament_teams(tournament)),
        "dispute": TeamDisputeForm(request.POST if which == "dispute" else None,
                                   matches=team_selectors.tournament_matches(tournament),
                                   penalties=[p for p in penalties if not p.withdrawn],
                                   initial={"about": "result", "match": about_match} if about_match else None)}
    form = forms.get(which)
    if form is not None and form.is_valid():
        service, done = {"penalty": (arbitration.team_penalty_give, _("Penalty recorded.")),
                         "dispute": (arbitration.team_dispute_record, _("Dispute recorded."))}[which]
        try:
            service(user=request.user, tournament=tournament, **form.cleaned_data)
        except ValidationError as exc:
            add_service_errors(form, exc)
        else:
            messages.success(request, done)
            return redirect("arbiter:team_arbitration", pk=pk)
    return render(request, "formats/team_arbitration.html", {
        "tournament": tournament, "days": days, "penalty_form": forms["penalty"], "dispute_form": forms["dispute"],
        "penalties": penalties, "role": staff_role(request.user, tournament), "open_dispute": bool(about_match),
        "disputes": arbitration_selectors.tournament_disputes(tournament, MATCH)},
        status=400 if form is not None and form.errors else 200)


@login_required
@require_POST
def team_day_publish(request, pk, number):
    tournament = tournament_for_arbiter(request.user, pk)
    try:
        day = arbitration.team_day_publish(user=request.user, tournament=tournament, number=number)
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
    else:
        closes = arbitration_selectors.dispute_window_closes(tournament, day)
        messages.success(request, _("Standings of day %(n)d published: disputes until %(time)s.") % {
            "n": number, "time": timezone.localtime(closes).strftime("%H:%M")})
    return redirect("arbiter:team_arbitration", pk=pk)
