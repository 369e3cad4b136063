"""Accounts without Django's admin: arbiter accounts made by an organiser, the organiser role granted by
an administrator. Each view checks the role, calls one service of `tournaments.accounts.services`, renders."""
from django.contrib import messages
from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournaments import services
from tournaments.accounts import services as roles
from tournaments.accounts.selectors import (
    active_user_or_404,
    arbiter_candidates,
    arbiter_of,
    arbiters_of,
    arbiters_without_password,
    users_and_organiser_role,
)
from tournaments.forms import ArbiterAccountForm, ArbiterByNameForm, ArbitersForm, add_service_errors
from tournaments.rules import may_give_link, require_administrator, tournament_for_organiser


@login_required
def tournament_arbiters(request, pk):
    """Tick the organiser's own accounts as arbiters, add a colleague by exact user name, or create a new
    account with a one-time password link."""
    tournament = tournament_for_organiser(request.user, pk)
    posted = request.POST if request.method == "POST" else None
    which = next((k for k in ("new_account", "colleague_add") if posted is not None and k in posted),
                 "save_arbiters" if posted is not None else None)
    form = _arbiters_form(tournament, posted if which == "save_arbiters" else None)
    account_form = ArbiterAccountForm(posted if which == "new_account" else None)
    colleague_form = ArbiterByNameForm(posted if which == "colleague_add" else None)
    link, status = None, 200
    if form.is_bound and form.is_valid():
        services.tournament_set_arbiters(user=request.user, tournament=tournament,
                                         arbiters=list(form.cleaned_data["arbiters"]))
        messages.success(request, _("Arbiters saved."))
        return redirect("manage:tournament", pk=pk)
    if colleague_form.is_bound and colleague_form.is_valid():
        try:
            account = roles.arbiter_add_by_name(user=request.user, tournament=tournament,
                                                username=colleague_form.cleaned_data["colleague"])
        except ValidationError as exc:
            colleague_form.add_error("colleague", exc.message_dict.get("username", exc.messages))
            status = 400
        else:
            messages.success(request, _("%(u)s is now an arbiter of this tournament.") % {"u": account.username})
            return redirect("manage:arbiters", pk=pk)
    elif account_form.is_bound and account_form.is_valid():
        try:
            account = roles.arbiter_account_create(user=request.user, tournament=tournament,
                                                   **account_form.cleaned_data)
        except ValidationError as exc:
            add_service_errors(account_form, exc)
            status = 400
        else:
            link = {"account": account, "url": roles.password_link(request, account), "created": True}
            account_form = ArbiterAccountForm()
            form = _arbiters_form(tournament)
    elif posted is not None:
        status = 400
    return _arbiters_page(request, tournament, form, account_form, colleague_form, link, status)


def _arbiters_form(tournament, data=None):
    return ArbitersForm(data, candidates=arbiter_candidates(tournament), initial={"arbiters": arbiters_of(tournament)})


def _arbiters_page(request, tournament, form, account_form, colleague_form=None, link=None, status=200):
    return render(request, "tournaments/arbiters.html", {
        "tournament": tournament, "form": form, "account_form": account_form,
        "colleague_form": colleague_form or ArbiterByNameForm(), "link": link,
        "link_hours": settings.PASSWORD_LINK_HOURS,
        "waiting": arbiters_without_password(tournament, request.user)}, status=status)


@login_required
@require_POST
def arbiter_link(request, pk, user_pk):
    """A new one-time link for an account its owner made and whose password was never chosen (the first
    link was lost). Every earlier link stops working."""
    tournament = tournament_for_organiser(request.user, pk)
    account = arbiter_of(tournament, user_pk)
    if not may_give_link(request.user, account):
        raise Http404
    try:
        account = roles.arbiter_link_renew(user=request.user, tournament=tournament, account=account)
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
        return redirect("manage:arbiters", pk=pk)
    link = {"account": account, "url": roles.password_link(request, account), "created": False}
    return _arbiters_page(request, tournament, _arbiters_form(tournament), ArbiterAccountForm(), None, link)


@login_required
def organisers(request):
    """For administrators: who may create tournaments."""
    require_administrator(request.user)
    return render(request, "tournaments/organisers.html", {"rows": users_and_organiser_role()})


@login_required
@require_POST
def organiser_role(request, user_pk):
    require_administrator(request.user)
    target = active_user_or_404(user_pk)
    granted = request.POST.get("granted") == "1"
    roles.organiser_role_set(user=request.user, target=target, granted=granted)
    messages.success(request, (_("%(u)s is now an organiser.") if granted else
                               _("%(u)s is no longer an organiser.")) % {"u": target.get_username()})
    return redirect("manage:organisers")
