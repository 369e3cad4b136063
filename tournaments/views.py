"""Pages of clubs, players, tournaments and registrations.

Views parse input, check the role with one helper of `tournaments.rules`, call one service and render."""
import logging

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.core.paginator import Paginator
from django.db import OperationalError
from django.db.models import Count, Q
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_POST

from tournaments import imports, roster, services
from tournaments.forms import (
    ClubForm,
    CsvUploadForm,
    PlayerForm,
    RegistrationImportForm,
    SignupForm,
    TournamentForm,
    add_service_errors,
)
from tournaments.models import AuditLog, Club, Player, Registration, Tournament
from tournaments.rules import (
    is_organiser,
    require_organiser,
    staff_role,
    tournament_for_organiser,
    tournament_for_public,
)
from tournaments.selectors import club_search_filter, player_search_filter
from tournaments.throttle import signup_take

logger = logging.getLogger(__name__)


def _save_or_errors(form, service, **kwargs):
    """Run a service with the form's data; its ValidationErrors become the form's errors."""
    try:
        return service(data=form.cleaned_data, **kwargs)
    except ValidationError as exc:
        add_service_errors(form, exc)
        return None


# --- public ------------------------------------------------------------------------------------

@require_GET
def home(request):
    tournaments = Tournament.objects.filter(published=True).select_related("club")[:50]
    return render(request, "tournaments/home.html", {"tournaments": tournaments})


@require_GET
def tournament_public(request, pk):
    tournament = tournament_for_public(pk)
    registrations = (tournament.registrations.filter(status=Registration.Status.CONFIRMED)
                     .select_related("player", "player__club"))
    rounds = tournament.rounds.exclude(status="draft").order_by("number")
    return render(request, "tournaments/tournament_public.html", {
        "tournament": tournament, "registrations": registrations, "rounds": rounds,
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
                services.registration_signup(tournament=tournament, data=data)
        except services.AlreadyRegistered:
            pass  # answered as any sign-up: the page never tells who is registered
        except ValidationError as exc:
            form.add_error(None, exc.messages)
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
@require_GET
def manage_home(request):
    user = request.user
    # Without the organiser role (taken back by an administrator) one's tournaments are no longer run.
    organised = Tournament.objects.filter(organiser=user) if is_organiser(user) else Tournament.objects.none()
    organised = organised.annotate(
        n_players=Count("registrations", filter=Q(registrations__status=Registration.Status.CONFIRMED)))
    arbitrated = Tournament.objects.filter(arbiters=user).exclude(organiser=user)
    return render(request, "tournaments/manage_home.html", {
        "organised": organised, "arbitrated": arbitrated, "can_create": is_organiser(user)})


@login_required
def tournament_create(request):
    require_organiser(request.user)
    form = TournamentForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        tournament = _save_or_errors(form, services.tournament_save, user=request.user)
        if tournament:
            _fee_warning(request, tournament)
            messages.success(request, _("Tournament created."))
            return redirect("manage:tournament", pk=tournament.pk)
    return render(request, "tournaments/tournament_form.html", {"form": form, "tournament": None})


def _fee_warning(request, tournament):
    if tournament.fee_above_official_max:
        messages.warning(request, _("The entry fee is above %(max)s EUR, the official maximum of the R.T.U.")
                         % {"max": "10"})


# Checks other apps make before settings are saved: check(tournament, data) -> a context for the page
# (the change is shown and waits for a confirmation) or None. The tables app registers one: a scoring
# change after the standings were published shows the old and the new top 10.
SETTINGS_CHECKS = []


def register_settings_check(check):
    SETTINGS_CHECKS.append(check)
    return check


@login_required
def tournament_edit(request, pk):
    tournament = tournament_for_organiser(request.user, pk)
    form = TournamentForm(request.POST or None, instance=tournament)
    if request.method == "POST" and form.is_valid():
        tournament.refresh_from_db()
        if request.POST.get("confirm") != "1":
            for check in SETTINGS_CHECKS:
                change = check(tournament, form.cleaned_data)
                if change:
                    return render(request, "tournaments/tournament_form.html",
                                  {"form": form, "tournament": tournament, "change": change})
        saved = _save_or_errors(form, services.tournament_save, user=request.user, tournament=tournament)
        if saved:
            _fee_warning(request, saved)
            messages.success(request, _("Tournament saved."))
            return redirect("manage:tournament", pk=pk)
    return render(request, "tournaments/tournament_form.html", {"form": form, "tournament": tournament})


@login_required
@require_GET
def tournament_manage(request, pk):
    tournament = tournament_for_organiser(request.user, pk)
    counts = tournament.registrations.aggregate(
        confirmed=Count("pk", filter=Q(status=Registration.Status.CONFIRMED)),
        pending=Count("pk", filter=Q(status=Registration.Status.PENDING)),
        present=Count("pk", filter=Q(status=Registration.Status.CONFIRMED, present=True)),
        paid=Count("pk", filter=Q(fee_paid=True)),
    )
    return render(request, "tournaments/tournament_manage.html", {
        "tournament": tournament, "counts": counts, "arbiters": tournament.arbiters.all()})


@login_required
@require_GET
def audit_log(request, pk):
    tournament = tournament_for_organiser(request.user, pk)
    entries = AuditLog.objects.filter(tournament=tournament).select_related("user", "player")
    kind = request.GET.get("type", "").strip()
    player = request.GET.get("player", "").strip()
    table = request.GET.get("table", "").strip()
    if kind:
        entries = entries.filter(action__startswith=kind)
    # isdigit() would accept "²", which int() refuses; beyond 18 digits SQLite cannot even compare.
    if player.isdecimal() and len(player) <= 18:
        entries = entries.filter(player_id=int(player))
    if table:
        entries = entries.filter(table_label=table)
    page = Paginator(entries, 50).get_page(request.GET.get("page"))
    players = Player.objects.filter(registrations__tournament=tournament).order_by("last_name", "first_name")
    kinds = sorted({a.split(".")[0] for a in AuditLog.objects.filter(tournament=tournament)
                    .values_list("action", flat=True).distinct()})
    return render(request, "tournaments/audit_log.html", {
        "tournament": tournament, "page": page, "players": players, "kinds": kinds,
        "filters": {"type": kind, "player": player, "table": table}})


# --- registrations ---------------------------------------------------------------------------

def _registrations_context(tournament, query="", **extra):
    regs = tournament.registrations.select_related("player", "player__club")
    context = {"tournament": tournament, "registrations": regs, "player_form": PlayerForm(),
               "search": _player_search(tournament, query), "import_form": RegistrationImportForm(),
               "counts": _registration_counts(regs)}
    context.update(extra)
    return context


def _registration_counts(regs):
    confirmed = [r for r in regs if r.status == Registration.Status.CONFIRMED]
    return {"confirmed": len(confirmed), "present": sum(1 for r in confirmed if r.present)}


@login_required
@require_GET
def registrations(request, pk):
    tournament = tournament_for_organiser(request.user, pk)
    return render(request, "tournaments/registrations.html",
                  _registrations_context(tournament, request.GET.get("q", "")))


def _player_search(tournament, query):
    """Players not yet registered: those matching the words typed, or else the organising club's list."""
    query = query.strip()[:80]
    qs = Player.objects.select_related("club").exclude(registrations__tournament=tournament)
    if len(query) >= 2:
        qs = player_search_filter(qs, query)
    elif tournament.club_id:
        qs = qs.filter(club=tournament.club)
    else:
        return {"query": query, "players": [], "club_list": False}
    return {"query": query, "players": list(qs[:100]), "club_list": len(query) < 2}


@login_required
@require_GET
def registration_search(request, pk):
    tournament = tournament_for_organiser(request.user, pk)
    return render(request, "tournaments/registrations.html#search-results", {
        "tournament": tournament, "search": _player_search(tournament, request.GET.get("q", ""))})


@login_required
@require_POST
def registration_add_selected(request, pk):
    """'Register selected': the players ticked in the search results or the club's list."""
    tournament = tournament_for_organiser(request.user, pk)
    ids = [int(v) for v in request.POST.getlist("players") if v.isdecimal() and len(v) <= 18]
    players = list(Player.objects.filter(pk__in=ids))
    if not players:
        messages.error(request, _("Tick at least one player to register."))
        return redirect("manage:registrations", pk=pk)
    added = services.registrations_add_players(user=request.user, tournament=tournament, players=players)
    messages.success(request, ngettext("%(n)d player registered.", "%(n)d players registered.", len(added))
                     % {"n": len(added)})
    return redirect("manage:registrations", pk=pk)


@login_required
@require_POST
def registration_import(request, pk):
    """A CSV file or a pasted list of names, straight into the tournament: preview, then confirm."""
    tournament = tournament_for_organiser(request.user, pk)
    if "confirm" in request.POST:
        text = request.POST.get("csv_text", "")
        try:
            registered, created = imports.registrations_import(user=request.user, tournament=tournament, text=text)
        except ValidationError as exc:
            preview = imports.players_csv_preview(text, tournament=tournament)
            messages.error(request, " ".join(exc.messages))
        else:
            messages.success(request, imports.import_summary(registered, created))
            return redirect("manage:registrations", pk=pk)
    else:
        form = RegistrationImportForm(request.POST, request.FILES)
        if not form.is_valid():
            return render(request, "tournaments/registrations.html",
                          _registrations_context(tournament, import_form=form, import_open=True), status=400)
        text = form.cleaned_data["text"]
        preview = imports.players_csv_preview(text, tournament=tournament)
    return render(request, "tournaments/registrations.html",
                  _registrations_context(tournament, preview=preview, csv_text=text, import_open=True),
                  status=200 if preview.ok else 400)


@login_required
@require_POST
def checkin_all(request, pk):
    """'Everybody present': every confirmed player is checked in."""
    tournament = tournament_for_organiser(request.user, pk)
    done = services.registrations_check_in_all(user=request.user, tournament=tournament)
    messages.success(request, ngettext("%(n)d player checked in.", "%(n)d players checked in.", len(done))
                     % {"n": len(done)})
    next_url = request.POST.get("next", "")
    if next_url and url_has_allowed_host_and_scheme(next_url, allowed_hosts={request.get_host()}):
        return redirect(next_url)
    return redirect("manage:checkin", pk=pk)


@login_required
@require_POST
def registration_add(request, pk):
    tournament = tournament_for_organiser(request.user, pk)
    player_id = request.POST.get("player", "")
    player = get_object_or_404(Player, pk=int(player_id) if player_id.isdecimal() else None)
    try:
        services.registration_add(user=request.user, tournament=tournament, player=player,
                                  fee_paid=request.POST.get("fee_paid") == "on")
        messages.success(request, _("%(player)s registered.") % {"player": player})
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
    return redirect("manage:registrations", pk=pk)


@login_required
@require_POST
def registration_add_new(request, pk):
    """Create a player and register them in one step."""
    tournament = tournament_for_organiser(request.user, pk)
    form = PlayerForm(request.POST)
    if form.is_valid():
        player = _save_or_errors(form, services.player_save, user=request.user, tournament=tournament)
        if player:
            services.registration_add(user=request.user, tournament=tournament, player=player,
                                      fee_paid=request.POST.get("fee_paid") == "on")
            messages.success(request, _("%(player)s registered.") % {"player": player})
            return redirect("manage:registrations", pk=pk)
    return render(request, "tournaments/registrations.html",
                  _registrations_context(tournament, player_form=form), status=400)


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
    reg = get_object_or_404(Registration.objects.select_related("player", "player__club"),
                            pk=reg_pk, tournament=tournament)
    handler = REGISTRATION_ACTIONS.get(action)
    if handler is None:
        return redirect("manage:registrations", pk=pk)
    error = None
    try:
        reg = handler(request.user, reg, request.POST)
    except ValidationError as exc:
        error = " ".join(exc.messages)
    if request.htmx:
        reg = Registration.objects.select_related("player", "player__club").get(pk=reg.pk)
        regs = tournament.registrations.all()
        template = ("tournaments/checkin.html#checkin-row" if request.POST.get("row") == "checkin"
                    else "tournaments/registrations.html#registration-row")
        return render(request, template, {"tournament": tournament, "reg": reg, "row_error": error,
                                          "counts": _registration_counts(regs), "oob": True})
    if error:
        messages.error(request, error)
    next_url = request.POST.get("next", "")
    if next_url and url_has_allowed_host_and_scheme(next_url, allowed_hosts={request.get_host()}):
        return redirect(next_url)
    return redirect("manage:registrations", pk=pk)


@login_required
@require_GET
def checkin(request, pk):
    """Who is present before the next round: one tap per player."""
    tournament = tournament_for_organiser(request.user, pk)
    regs = tournament.registrations.filter(status=Registration.Status.CONFIRMED).select_related("player", "player__club")
    return render(request, "tournaments/checkin.html", {"tournament": tournament, "registrations": regs,
                                                        "counts": _registration_counts(regs)})


# --- clubs and players -----------------------------------------------------------------------

@login_required
@require_GET
def club_list(request):
    require_organiser(request.user)
    query = request.GET.get("q", "").strip()[:80]
    clubs = Club.objects.annotate(n_players=Count("players"))
    if query:
        clubs = club_search_filter(clubs, query)
    return render(request, "tournaments/club_list.html", {"clubs": clubs, "query": query})


@login_required
def club_edit(request, club_pk=None):
    require_organiser(request.user)
    club = get_object_or_404(Club, pk=club_pk) if club_pk else None
    form = ClubForm(request.POST or None, instance=club)
    if request.method == "POST" and form.is_valid():
        saved = _save_or_errors(form, services.club_save, user=request.user, club=club)
        if saved:
            messages.success(request, _("Club saved."))
            return redirect("manage:clubs")
    return render(request, "tournaments/club_form.html", {"form": form, "club": club})


@login_required
@require_GET
def player_list(request):
    require_organiser(request.user)
    query = request.GET.get("q", "").strip()[:80]
    players = Player.objects.select_related("club")
    players = player_search_filter(players, query)
    page = Paginator(players, 50).get_page(request.GET.get("page"))
    template = "tournaments/player_list.html#player-results" if request.htmx else "tournaments/player_list.html"
    return render(request, template, {"page": page, "query": query, "duplicates": roster.duplicate_name_keys()})


@login_required
def player_edit(request, player_pk=None):
    require_organiser(request.user)
    player = get_object_or_404(Player, pk=player_pk) if player_pk else None
    form = PlayerForm(request.POST or None, instance=player)
    if request.method == "POST" and form.is_valid():
        if player:
            player.refresh_from_db()
        saved = _save_or_errors(form, services.player_save, user=request.user, player=player)
        if saved:
            messages.success(request, _("Player saved."))
            return redirect("manage:players")
    context = {"form": form, "player": player}
    if player:
        context.update(candidates=roster.merge_candidates(player),
                       registered=player.registrations.select_related("tournament"))
    return render(request, "tournaments/player_form.html", context)


@login_required
@require_POST
def player_merge(request, player_pk):
    """This player is the same person as the one chosen: their registrations and results move there."""
    require_organiser(request.user)
    drop = get_object_or_404(Player, pk=player_pk)
    other = request.POST.get("into", "")
    keep = get_object_or_404(Player, pk=int(other) if other.isdecimal() and len(other) <= 18 else None)
    try:
        roster.player_merge(user=request.user, keep=keep, drop=drop)
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
        return redirect("manage:player_edit", player_pk=drop.pk)
    messages.success(request, _("%(drop)s merged into %(keep)s: registrations and results kept.")
                     % {"drop": drop, "keep": keep})
    return redirect("manage:player_edit", player_pk=keep.pk)


@login_required
@require_POST
def player_delete(request, player_pk):
    require_organiser(request.user)
    player = get_object_or_404(Player, pk=player_pk)
    try:
        roster.player_delete(user=request.user, player=player)
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
        return redirect("manage:player_edit", player_pk=player.pk)
    messages.success(request, _("%(p)s deleted.") % {"p": player})
    return redirect("manage:players")


@login_required
@require_POST
def club_delete(request, club_pk):
    require_organiser(request.user)
    club = get_object_or_404(Club, pk=club_pk)
    try:
        roster.club_delete(user=request.user, club=club)
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
        return redirect("manage:club_edit", club_pk=club.pk)
    messages.success(request, _("%(c)s deleted.") % {"c": club})
    return redirect("manage:clubs")


@login_required
def player_import(request):
    """Upload a CSV, see every row with its errors, then confirm (all rows or none)."""
    require_organiser(request.user)
    preview, text = None, ""
    form = CsvUploadForm()
    if request.method == "POST" and "confirm" in request.POST:
        text = request.POST.get("csv_text", "")
        try:
            created = imports.players_import_csv(user=request.user, text=text)
        except ValidationError:
            preview = imports.players_csv_preview(text)
        else:
            messages.success(request, ngettext("%(n)d player imported.", "%(n)d players imported.", len(created))
                             % {"n": len(created)})
            return redirect("manage:players")
    elif request.method == "POST":
        form = CsvUploadForm(request.POST, request.FILES)
        if form.is_valid():
            text = form.cleaned_data["file"]
            preview = imports.players_csv_preview(text)
    return render(request, "tournaments/player_import.html", {"form": form, "preview": preview, "csv_text": text},
                  status=400 if preview is not None and not preview.ok else 200)
