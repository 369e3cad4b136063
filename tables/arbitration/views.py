"""Arbiter-only screens: penalties and disputes. Only the tournament's arbiters and organiser get in."""
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from tables.arbitration import services as arbitration
from tables.arbitration import selectors as arbitration_selectors
from tables.arbitration.forms import DisputeDecisionForm, DisputeForm, PenaltyForm, PenaltyWithdrawForm, game_label
from tables.arbitration.kinds import GAME
from tables.models import Dispute, Penalty
from tournaments.feedback import run_with_message
from tournaments.forms import add_service_errors
from tournaments.rules import staff_role, tournament_for_arbiter


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
@require_GET
def penalty_games(request, pk):
    """The <option>s of the chosen player's games (htmx, when the player changes)."""
    tournament = tournament_for_arbiter(request.user, pk)
    reg = arbitration_selectors.registration_or_none(tournament, request.GET.get("registration", ""))
    games = [(seat.pk, game_label(seat)) for seat in arbitration_selectors.player_games(reg)]
    return render(request, "tables/penalties.html#game-options", {"games": games})


@login_required
@require_POST
def penalty_withdraw(request, pk, penalty_pk):
    tournament = tournament_for_arbiter(request.user, pk)
    penalty = arbitration_selectors.penalty_of(tournament, penalty_pk, GAME)
    form = PenaltyWithdrawForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Write why the penalty is withdrawn."))
    else:
        run_with_message(request, arbitration.penalty_withdraw, _("Penalty withdrawn."), user=request.user,
                         penalty=penalty, reason=form.cleaned_data["reason"])
    return redirect("arbiter:penalties", pk=pk)


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
        "deadline": arbitration_selectors.dispute_deadline(tournament),
        "final": arbitration_selectors.standings_are_final(tournament)}, status=400 if form.errors else 200)


@login_required
def dispute_decide(request, pk, dispute_pk):
    tournament = tournament_for_arbiter(request.user, pk)
    dispute = arbitration_selectors.dispute_of(tournament, dispute_pk, GAME)
    form = DisputeDecisionForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            arbitration.dispute_decide(user=request.user, dispute=dispute, state=data["state"],
                                       decision=data["decision"], internal_note=data["internal_note"],
                                       withdraw_penalty=data["withdraw_penalty"])
        except ValidationError as exc:
            add_service_errors(form, exc)
        else:
            messages.success(request, _("Decision recorded."))
            return redirect("arbiter:disputes", pk=pk)
    return render(request, "tables/dispute_decide.html", {
        "tournament": tournament, "dispute": dispute, "form": form,
        "correction": arbitration_selectors.correction_for(dispute) if dispute.state == Dispute.State.OPEN else None,
        "role": staff_role(request.user, tournament)}, status=400 if form.errors else 200)
