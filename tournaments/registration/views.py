"""The organiser's registrations: the list, adding players (search, ticked, new, CSV or pasted list),
approvals and withdrawals, fees, check-in."""
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_safe, require_POST

from tournaments import services
from tournaments.accounts.redirects import redirect_next
from tournaments.registration import imports
from tournaments.feedback import run_with_message
from tournaments.forms import NewPlayerForm, PlayerForm, save_or_errors
from tournaments.registration.forms import RegistrationImportForm
from tournaments.rules import player_for_organiser, tournament_for_organiser
from tournaments.text import posted_id
from tournaments.registration.selectors import known_label, players_by_ids, players_to_register
from tournaments.tournament_selectors import checked_in_counts, confirmed_registrations, registration_of
from tournaments.tournament_selectors import registrations as registrations_of


def _registrations_context(user, tournament, query="", **extra):
    regs = registrations_of(tournament)
    context = {"tournament": tournament, "registrations": regs, "player_form": PlayerForm(),
               "search": players_to_register(user, tournament, query), "import_form": RegistrationImportForm(),
               "counts": checked_in_counts(regs)}
    context.update(extra)
    return context


@login_required
@require_safe
def registrations(request, pk):
    tournament = tournament_for_organiser(request.user, pk)
    return render(request, "tournaments/registrations.html",
                  _registrations_context(request.user, tournament, request.GET.get("q", "")))


@login_required
@require_safe
def registration_search(request, pk):
    tournament = tournament_for_organiser(request.user, pk)
    return render(request, "tournaments/registrations.html#search-results", {
        "tournament": tournament, "search": players_to_register(request.user, tournament, request.GET.get("q", ""))})


@login_required
@require_POST
def registration_add_selected(request, pk):
    """'Register selected': the players ticked in the search results or the club's list."""
    tournament = tournament_for_organiser(request.user, pk)
    players = players_by_ids(request.user, request.POST.getlist("players"))
    if not players:
        messages.error(request, _("Tick at least one player to register."))
        return redirect("manage:registrations", pk=pk)
    added = services.registrations_add_players(user=request.user, tournament=tournament, players=players)
    messages.success(request, ngettext("%(n)d player registered.", "%(n)d players registered.", len(added))
                     % {"n": len(added)})
    return redirect("manage:registrations", pk=pk)


def _picks(post):
    """The organiser's answers to "which one?" for the rows naming several known players: {line: id or "new"}."""
    return {posted_id(name[5:]): value for name, value in post.items()
            if name.startswith("pick-") and posted_id(name[5:]) is not None}


@login_required
@require_POST
def registration_import(request, pk):
    """A CSV file or a pasted list of names, straight into the tournament: preview, then confirm.

    A list with bad rows stays in the box with those rows marked; "register the valid rows" adds the
    others in one action and puts the bad lines of a pasted list back in the box to be corrected."""
    tournament = tournament_for_organiser(request.user, pk)
    pasted = request.POST.get("source") == "paste"
    if "confirm" not in request.POST:
        form = RegistrationImportForm(request.POST, request.FILES)
        if not form.is_valid():
            return render(request, "tournaments/registrations.html",
                          _registrations_context(request.user, tournament, import_form=form, import_open=True),
                          status=400)
        text, pasted = form.cleaned_data["text"], not form.cleaned_data.get("file")
        names = form.cleaned_data.get("names", "") if pasted else ""
        return _import_preview(request, tournament, text, pasted, names, form)
    text, names, picks = request.POST.get("csv_text", ""), request.POST.get("names", ""), _picks(request.POST)
    try:
        registered, created = imports.registrations_import(
            user=request.user, tournament=tournament, text=text, pasted=pasted, picks=picks,
            valid_only=request.POST.get("valid_only") == "1")
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
        form = RegistrationImportForm(initial={"names": names} if pasted else None)
        return _import_preview(request, tournament, text, pasted, names, form, picks=picks)
    messages.success(request, imports.import_summary(registered, created))
    left = imports.players_csv_preview(text, user=request.user, tournament=tournament, pasted=pasted,
                                       picks=picks).error_lines
    return _import_left_over(request, tournament, names, left, pasted) if left else redirect(
        "manage:registrations", pk=pk)


def _import_left_over(request, tournament, names, left, pasted):
    """After the valid rows were registered: the lines of a file left out are named; those of a pasted
    list go back in the box, checked again, to be corrected."""
    if not pasted:
        messages.warning(request, ngettext(
            "Line %(lines)s of the file was not registered: correct it in the file and import it again.",
            "Lines %(lines)s of the file were not registered: correct them in the file and import it again.",
            len(left)) % {"lines": ", ".join(map(str, left))})
        return redirect("manage:registrations", pk=tournament.pk)
    names = imports.still_wrong_lines(names, user=request.user, tournament=tournament, numbers=left)
    if not names:  # a name twice was registered once: nothing is left to correct
        return redirect("manage:registrations", pk=tournament.pk)
    count = len(names.splitlines())
    messages.warning(request, ngettext(
        "The line with an error is left in the box: correct it and preview again.",
        "The %(n)d lines with errors are left in the box: correct them and preview again.",
        count) % {"n": count})
    return _import_preview(request, tournament, imports.pasted_list_to_csv(names), True, names,
                           RegistrationImportForm(initial={"names": names}), left_over=True)


def _import_preview(request, tournament, text, pasted, names, form, picks=None, left_over=False):
    """The list checked row by row, with its confirmation; `left_over`: the lines left in the box after
    the others were registered (the page says so, not "nothing was registered")."""
    preview = imports.players_csv_preview(text, user=request.user, tournament=tournament, pasted=pasted,
                                          picks=picks)
    return render(request, "tournaments/registrations.html",
                  _registrations_context(request.user, tournament, preview=preview, csv_text=text, import_open=True,
                                         import_form=form, pasted=pasted, names=names, left_over=left_over),
                  status=200 if preview.ok else 400)


@login_required
@require_POST
def checkin_all(request, pk):
    """'Everybody present': every confirmed player is checked in."""
    tournament = tournament_for_organiser(request.user, pk)
    done = services.registrations_check_in_all(user=request.user, tournament=tournament)
    messages.success(request, ngettext("%(n)d player checked in.", "%(n)d players checked in.", len(done))
                     % {"n": len(done)})
    return redirect_next(request, "manage:checkin", pk=pk)


@login_required
@require_POST
def registration_add(request, pk):
    tournament = tournament_for_organiser(request.user, pk)
    player = player_for_organiser(request.user, request.POST.get("player", ""))
    run_with_message(request, services.registration_add, _("%(player)s registered.") % {"player": player},
                     user=request.user, tournament=tournament, player=player,
                     fee_paid=request.POST.get("fee_paid") == "on")
    return redirect("manage:registrations", pk=pk)


@login_required
@require_POST
def registration_add_new(request, pk):
    """Create a player and register them in one step; a name already known registers that player
    (`NewPlayerForm` asks which one when several bear it)."""
    tournament = tournament_for_organiser(request.user, pk)
    form = NewPlayerForm(request.POST, viewer=request.user, registering=True)
    if form.is_valid():
        player = form.known_player or save_or_errors(form, services.player_save, user=request.user,
                                                     tournament=tournament, seen_by=request.user)
        if player:
            run_with_message(request, services.registration_add, _("%(player)s registered.") % {
                "player": known_label(player) if form.known_player else player}, user=request.user,
                tournament=tournament, player=player, fee_paid=request.POST.get("fee_paid") == "on")
            return redirect("manage:registrations", pk=pk)
    return render(request, "tournaments/registrations.html",
                  _registrations_context(request.user, tournament, player_form=form), status=400)


REGISTRATION_ACTIONS = {
    "approve": lambda user, reg, post: services.registration_approve(user=user, registration=reg),
    "withdraw": lambda user, reg, post: services.registration_withdraw(user=user, registration=reg),
    "reject": lambda user, reg, post: services.registration_reject(user=user, registration=reg),
    "reinstate": lambda user, reg, post: services.registration_reinstate(user=user, registration=reg),
    "paid": lambda user, reg, post: services.registration_set_fee_paid(user=user, registration=reg,
                                                                        paid=post.get("value") == "1"),
    "checkin": lambda user, reg, post: services.registration_check_in(user=user, registration=reg,
                                                                       present=post.get("value") == "1"),
}


@login_required
@require_POST
def registration_action(request, pk, reg_pk, action):
    tournament = tournament_for_organiser(request.user, pk)
    reg = registration_of(tournament, reg_pk)
    handler = REGISTRATION_ACTIONS.get(action)
    if handler is None:
        return redirect("manage:registrations", pk=pk)
    error = None
    try:
        reg = handler(request.user, reg, request.POST)
    except ValidationError as exc:
        error = " ".join(exc.messages)
    if request.htmx:
        reg = registration_of(tournament, reg.pk)
        regs = registrations_of(tournament)
        template = ("tournaments/checkin.html#checkin-row" if request.POST.get("row") == "checkin"
                    else "tournaments/registrations.html#registration-row")
        return render(request, template, {"tournament": tournament, "reg": reg, "row_error": error,
                                          "counts": checked_in_counts(regs), "oob": True})
    if error:
        messages.error(request, error)
    return redirect_next(request, "manage:registrations", pk=pk)


@login_required
@require_safe
def checkin(request, pk):
    """Who is present before the next round: one tap per player."""
    tournament = tournament_for_organiser(request.user, pk)
    regs = confirmed_registrations(tournament)
    return render(request, "tournaments/checkin.html", {"tournament": tournament, "registrations": regs,
                                                        "counts": checked_in_counts(regs)})
