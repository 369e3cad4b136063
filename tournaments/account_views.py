"""Accounts without Django's admin: arbiter accounts made by an organiser, the organiser role granted by
an administrator. Each view checks the role, calls one service of `tournaments.roles`, renders."""
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournaments import roles, services
from tournaments.account_selectors import (
    active_user_or_404,
    arbiter_of,
    arbiters_of,
    arbiters_without_password,
    users_and_organiser_role,
)
from tournaments.forms import ArbiterAccountForm, ArbitersForm, add_service_errors
from tournaments.rules import tournament_for_organiser


@login_required
def tournament_arbiters(request, pk):
    """Tick existing accounts as arbiters, or create a new account with a one-time password link."""
    tournament = tournament_for_organiser(request.user, pk)
    new_account = request.method == "POST" and "new_account" in request.POST
    form = ArbitersForm(request.POST if request.method == "POST" and not new_account else None,
                        organiser=tournament.organiser, initial={"arbiters": arbiters_of(tournament)})
    account_form = ArbiterAccountForm(request.POST if new_account else None)
    link, status = None, 200
    if form.is_bound and form.is_valid():
        services.tournament_set_arbiters(user=request.user, tournament=tournament,
                                         arbiters=list(form.cleaned_data["arbiters"]))
        messages.success(request, _("Arbiters saved."))
        return redirect("manage:tournament", pk=pk)
    if account_form.is_bound and account_form.is_valid():
        try:
            account = roles.arbiter_account_create(user=request.user, tournament=tournament,
                                                   **account_form.cleaned_data)
        except ValidationError as exc:
            add_service_errors(account_form, exc)
            status = 400
        else:
            link = {"account": account, "url": roles.password_link(request, account)}
            account_form = ArbiterAccountForm()
            form = ArbitersForm(organiser=tournament.organiser, initial={"arbiters": arbiters_of(tournament)})
    elif account_form.is_bound or form.is_bound:
        status = 400
    return _arbiters_page(request, tournament, form, account_form, link, status)


def _arbiters_page(request, tournament, form, account_form, link=None, status=200):
    return render(request, "tournaments/arbiters.html", {
        "tournament": tournament, "form": form, "account_form": account_form, "link": link,
        "waiting": arbiters_without_password(tournament)}, status=status)


@login_required
@require_POST
def arbiter_link(request, pk, user_pk):
    """A new one-time link for an arbiter account whose password was never chosen (the first was lost)."""
    tournament = tournament_for_organiser(request.user, pk)
    account = arbiter_of(tournament, user_pk)
    form = ArbitersForm(organiser=tournament.organiser, initial={"arbiters": arbiters_of(tournament)})
    try:
        roles.arbiter_link_renew(user=request.user, tournament=tournament, account=account)
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
        return redirect("manage:arbiters", pk=pk)
    link = {"account": account, "url": roles.password_link(request, account)}
    return _arbiters_page(request, tournament, form, ArbiterAccountForm(), link)


def _require_administrator(user):
    if not user.is_superuser:
        raise PermissionDenied


@login_required
def organisers(request):
    """For administrators: who may create tournaments."""
    _require_administrator(request.user)
    return render(request, "tournaments/organisers.html", {"rows": users_and_organiser_role()})


@login_required
@require_POST
def organiser_role(request, user_pk):
    _require_administrator(request.user)
    target = active_user_or_404(user_pk)
    granted = request.POST.get("granted") == "1"
    roles.organiser_role_set(user=request.user, target=target, granted=granted)
    messages.success(request, (_("%(u)s is now an organiser.") if granted else
                               _("%(u)s is no longer an organiser.")) % {"u": target.get_username()})
    return redirect("manage:organisers")
