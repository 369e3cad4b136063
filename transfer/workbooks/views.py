"""The organiser's "Importa un torneo passato" (a workbook previewed round by round, then imported with
the settings chosen) and the downloads of a tournament as a workbook in either layout."""
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_safe

from tournaments.club_presets import CLUB_PRESETS
from tournaments.rules import require_organiser, tournament_for_organiser
from tournaments.models import Formula
from transfer.workbooks.export import club_workbook, gestione_check, gestione_workbook
from transfer.workbooks.gestione import KIND_NAMES, KIND_RULES
from transfer.workbooks.forms import PastTournamentForm, WorkbookUploadForm, sign_preview, unsign_preview
from transfer.workbooks.match import picks_of
from transfer.workbooks.model import WorkbookError
from transfer.workbooks.preview import preview_people, preview_rounds
from transfer.workbooks.season import date_in_name, name_from_file
from transfer.workbooks.services import (formulas_needing_order, match_people, past_tournament_check,
                                         past_tournament_import, past_tournament_read)

TEMPLATE = "transfer/past_import.html"
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


@login_required
def past_import(request):
    """Step 1, a file; step 2, its preview with the settings and the "which one?" of namesakes; then the
    import, and the tournament's standings."""
    require_organiser(request.user)
    if request.method != "POST":
        return render(request, TEMPLATE, {"upload": WorkbookUploadForm()})
    if "confirm" in request.POST:
        return _confirm(request)
    upload = WorkbookUploadForm(request.POST, request.FILES)
    if not upload.is_valid():
        return render(request, TEMPLATE, {"upload": upload}, status=400)
    filename = upload.cleaned_data["file"].name
    past = past_tournament_read(data=upload.cleaned_data["file"].read(), filename=filename)
    matching = None if past.errors else match_people(past, viewer=request.user, ask=True)
    form = PastTournamentForm(initial={"name": name_from_file(filename), "start_date": date_in_name(filename),
                                       "preset": KIND_RULES.get(past.kind, "")}, user=request.user)
    return _preview(request, past, filename, form, matching)


def _confirm(request):
    kept = unsign_preview(request.POST.get("preview", ""))
    if kept is None:
        messages.error(request, _("The preview has expired: choose the file again."))
        return redirect("manage:past_import")
    past, filename = kept
    form, picks = PastTournamentForm(request.POST, user=request.user), picks_of(request.POST)
    if not form.is_valid():
        return _preview(request, past, filename, form, past_tournament_check(past, user=request.user, picks=picks,
                                                                              ask=True), status=400)
    matching = past_tournament_check(past, user=request.user, picks=picks, ask=True)
    if matching.candidates:  # a "which one?" left unanswered: asked again on the page, in its words
        names = sorted(past.people[key].full_name for key in matching.candidates)
        messages.error(request, ngettext(
            "Choose which known player %(names)s is in the list of players, then import.",
            "Choose which known player each of %(names)s is in the list of players, then import.",
            len(names)) % {"names": ", ".join(names)})
        return _preview(request, past, filename, form, matching, status=400)
    try:
        done = past_tournament_import(user=request.user, past=past, name=form.cleaned_data["name"],
                                      start_date=form.cleaned_data["start_date"], settings=form.settings(),
                                      published=form.cleaned_data["published"], picks=picks, source=filename,
                                      shown=True)
    except WorkbookError as exc:
        messages.error(request, str(exc))
        return _preview(request, past, filename, form, past_tournament_check(past, user=request.user, picks=picks,
                                                                              ask=True), status=400)
    tournament = done.tournament
    messages.success(request, _("%(name)s imported: %(rounds)d rounds, %(players)d players (%(new)d new).") % {
        "name": tournament.name, "rounds": tournament.rounds.count(), "players": tournament.registrations.count(),
        "new": done.players_created})
    return redirect("public:standings" if tournament.published else "manage:formulas_compared", pk=tournament.pk)


def _preview(request, past, filename, form, matching, status=None):
    ready = not past.errors and matching is not None
    needing_order = formulas_needing_order(past, Formula.values) if ready else []
    return render(request, TEMPLATE, {
        "order_formulas": [Formula(f).label for f in needing_order],
        "kind": KIND_NAMES.get(past.kind, past.kind_written), "kind_rule": _published_name(KIND_RULES.get(past.kind)),
        "past": past, "filename": filename, "form": form, "rounds": preview_rounds(past),
        "people": preview_people(past, matching), "ready": ready, "upload": WorkbookUploadForm(),
        "preview": sign_preview(past, filename) if ready else "",
        "to_choose": len(matching.candidates) if matching else 0}, status=status or (200 if ready else 400))


def _download(tournament, content, suffix):
    response = HttpResponse(content, content_type=XLSX)
    response["Content-Disposition"] = f'attachment; filename="torneo-{tournament.pk}{suffix}.xlsx"'
    return response


@login_required
@require_safe
def tournament_workbook(request, pk):
    """The tournament in the club's layout: a sheet a round, a row a player (import_results reads it back)."""
    tournament = tournament_for_organiser(request.user, pk)
    return _download(tournament, club_workbook(tournament), "")


@login_required
@require_safe
def tournament_workbook_gestione(request, pk):
    """The tournament in GestioneTorneo's layout: Iscritti (with ID NAZIONALE) and a sheet a round. When
    GestioneTorneo cannot read all of it as Torneo keeps it (a national ID it cannot hold, a table of six
    in its sheets of five seats), a page says so first: the organiser downloads (`?ok=1`), splitting the
    tables of six in two (`six=split`), or not at all; a player is never dropped."""
    tournament = tournament_for_organiser(request.user, pk)
    check = gestione_check(tournament)
    split = request.GET.get("six") == "split"
    if check.clean or request.GET.get("ok") == "1" and (split or not check.six):
        return _download(tournament, gestione_workbook(tournament, split=split), "-gestionetorneo")
    return render(request, "transfer/gestione_download.html", {"tournament": tournament, "check": check},
                  status=409 if request.GET.get("ok") == "1" else 200)


def _published_name(key):
    """The name of the published rule a workbook's type picks ("" when its type picks none)."""
    preset = CLUB_PRESETS.get(key or "")
    return preset.name if preset else ""
