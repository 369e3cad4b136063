"""Pages of tournaments: the public list and page, the public sign-up, the organiser's tournaments,
their settings (registrations in `registration_views`, clubs and players in `roster_views`, the audit log in
`tournaments.audit.views`).

Views parse input, check the role with one helper of `tournaments.rules`, call one service and render."""
import logging

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.db import OperationalError
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from tournaments import services, settings_checks
from tournaments.registration import services as roster
from tournaments.accounts.selectors import arbiters_of
from tournaments.club_presets import club_preset_for, club_preset_name, club_rule_choices
from tournaments.forms import SignupForm, TournamentForm, add_service_errors, save_or_errors
from tournaments.rules import (
    is_organiser,
    require_organiser,
    staff_role,
    tournament_for_organiser,
    tournament_for_public,
)
from tournaments.accounts.throttle import signup_take
from tournaments.text import posted_id
from tournaments.tournament_selectors import (
    arbitrated_tournaments,
    confirmed_registrations,
    organised_tournaments,
    published_rounds,
    published_tournaments,
    registration_totals,
    tournament_phases,
)

logger = logging.getLogger(__name__)


# --- public ------------------------------------------------------------------------------------

@require_safe
def home(request):
    return render(request, "tournaments/home.html", {"tournaments": published_tournaments()})


@require_safe
def tournament_public(request, pk):
    tournament = tournament_for_public(pk)
    return render(request, "tournaments/tournament_public.html", {
        "tournament": tournament, "registrations": confirmed_registrations(tournament),
        "club_rule": club_preset_name(tournament),
        "rounds": published_rounds(tournament), "phases": tournament_phases(tournament),
        "role": staff_role(request.user, tournament),
    })


def signup(request, pk):
    tournament = tournament_for_public(pk)
    if not tournament.signup_open:
        return render(request, "tournaments/signup_closed.html", {"tournament": tournament}, status=403)
    form = SignupForm(request.POST or None)
    status = 200
    if request.method == "POST" and form.is_valid():
        data = {k: v for k, v in form.cleaned_data.items() if k != "privacy"}
        try:
            refusal = signup_take(request)
            if refusal is not None:
                form.add_error(None, refusal.message)
                status = 429
            else:
                roster.registration_signup(tournament=tournament, data=data)
        except services.AlreadyRegistered:
            pass  # answered as any sign-up: the page never tells who is registered
        except ValidationError as exc:
            add_service_errors(form, exc)
        except OperationalError:
            # SQLite's "database is locked" when many sign up at once (PostgreSQL's lock timeouts
            # alike): nothing was saved, the form is sent again.
            logger.warning("public sign-up: database busy", exc_info=True)
            form.add_error(None, _("Too many sign-ups at this moment: nothing was saved. Send the form again."))
            status = 503
        if form.is_valid():
            return render(request, "tournaments/signup_done.html",
                          {"tournament": tournament, "name": f"{data['first_name']} {data['last_name']}"})
    return render(request, "tournaments/signup.html", {"tournament": tournament, "form": form}, status=status)


# --- organiser: own tournaments --------------------------------------------------------------

@login_required
@require_safe
def manage_home(request):
    user = request.user
    return render(request, "tournaments/manage_home.html", {
        "organised": organised_tournaments(user), "arbitrated": arbitrated_tournaments(user),
        "can_create": is_organiser(user)})


@login_required
def tournament_create(request, save=services.tournament_save, copy=services.tournament_copy):
    """A new tournament: name, date and formula on one short screen, the rest under "More settings";
    "copy from an earlier tournament" (one of the organiser's own) fills every setting and brings its
    arbiters along. `save` and `copy` are the services that write it (the URL configuration gives the
    ones that also set the format a club rule names)."""
    require_organiser(request.user)
    earlier = organised_tournaments(request.user).order_by("-start_date", "-pk")
    source = _copy_source(earlier, request.POST.get("copy_from") if request.method == "POST"
                          else request.GET.get("copia"))
    preset = _club_preset(request)
    initial = {**(TournamentForm.initial_from(source) if source else {}), **(preset.form_initial() if preset else {})}
    form = TournamentForm(request.POST or None, initial=initial or None)
    if request.method == "POST" and form.is_valid():
        tournament = save_or_errors(form, copy if source else save,
                                    user=request.user, **({"source": source} if source else {}))
        if tournament:
            _fee_warning(request, tournament)
            messages.success(request, _("Tournament created."))
            return redirect("manage:tournament", pk=tournament.pk)
    return render(request, "tournaments/tournament_form.html", {
        "form": form, "tournament": None, "earlier": earlier[:30], "source": source, "preset": preset,
        "club_presets": club_rule_choices(request.user), "copied_arbiters": services.arbiters_to_copy(source) if source else []})


def _club_preset(request):
    """The club rule (SCORING.md 13.12, or one of the organiser's own) whose settings fill the form: `?regolamento=<key>` on the page's
    first load (a POST carries the settings themselves, and the rule's key in a hidden field)."""
    return club_preset_for(request.user, request.GET.get("regolamento")) if request.method == "GET" else None


def _copy_source(earlier, pk):
    """The tournament to copy from: one of the organiser's own (`earlier`), else None."""
    if posted_id(pk) is None:
        return None
    return earlier.filter(pk=posted_id(pk)).first()


def _fee_warning(request, tournament):
    if tournament.fee_above_official_max:
        messages.warning(request, _("The entry fee is above %(max)s EUR, the official maximum of the R.T.U.")
                         % {"max": "10"})


@login_required
def tournament_edit(request, pk, save=services.tournament_save):
    """The tournament's settings; `save` as for `tournament_create`."""
    tournament = tournament_for_organiser(request.user, pk)
    preset = _club_preset(request)
    form = TournamentForm(request.POST or None, instance=tournament, initial=preset.form_initial() if preset else None)
    if request.method == "POST" and form.is_valid():
        tournament.refresh_from_db()
        if request.POST.get("confirm") != "1":
            change = settings_checks.change_to_confirm(tournament, form.cleaned_data)
            if change:
                return render(request, "tournaments/tournament_form.html",
                              {"form": form, "tournament": tournament, "change": change})
        saved = save_or_errors(form, save, user=request.user, tournament=tournament)
        if saved:
            _fee_warning(request, saved)
            messages.success(request, _("Tournament saved."))
            return redirect("manage:tournament", pk=pk)
    return render(request, "tournaments/tournament_form.html", {"form": form, "tournament": tournament,
                                                                "preset": preset, "club_presets": club_rule_choices(request.user)})


@login_required
@require_safe
def tournament_manage(request, pk):
    tournament = tournament_for_organiser(request.user, pk)
    return render(request, "tournaments/tournament_manage.html", {
        "tournament": tournament, "counts": registration_totals(tournament), "phases": tournament_phases(tournament),
        "arbiters": arbiters_of(tournament), "club_rule": club_preset_name(tournament)})

