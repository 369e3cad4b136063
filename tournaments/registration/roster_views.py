"""Clubs and players shared by every organiser: lists with search, edit, merge, delete, CSV import."""
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.paginator import Paginator
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_safe, require_POST

from tournaments import services
from tournaments.registration import imports
from tournaments.registration import services as roster
from tournaments.feedback import run_with_message
from tournaments.audit.selectors import merge_requests
from tournaments.forms import ClubForm, NewPlayerForm, PlayerForm, save_or_errors
from tournaments.registration.forms import CsvUploadForm
from tournaments.rules import (
    answers_for,
    is_administrator,
    may_change_club,
    may_change_player,
    may_merge_players,
    may_read_email,
    merge_kept,
    player_for_organiser,
    require_organiser,
)
from tournaments.registration.selectors import club_or_404, clubs_matching, player_registrations, players_matching


@login_required
@require_safe
def club_list(request):
    require_organiser(request.user)
    query = request.GET.get("q", "").strip()[:80]
    return render(request, "tournaments/club_list.html", {"clubs": clubs_matching(query), "query": query})


@login_required
def club_edit(request, club_pk=None):
    """A new club, or a club's card: changed by its creator (or an administrator), read by everyone else."""
    require_organiser(request.user)
    club = club_or_404(club_pk) if club_pk else None
    editable = club is None or may_change_club(request.user, club)
    if request.method == "POST" and not editable:
        raise PermissionDenied
    form = ClubForm(request.POST or None, instance=club)
    if request.method == "POST" and form.is_valid():
        saved = save_or_errors(form, services.club_save, user=request.user, club=club)
        if saved:
            messages.success(request, _("Club saved."))
            return redirect("manage:clubs")
    return render(request, "tournaments/club_form.html", {"form": form, "club": club, "editable": editable})


@login_required
@require_safe
def player_list(request):
    require_organiser(request.user)
    query = request.GET.get("q", "").strip()[:80]
    page = Paginator(players_matching(request.user, query), 50).get_page(request.GET.get("page"))
    template = "tournaments/player_list.html#player-results" if request.htmx else "tournaments/player_list.html"
    return render(request, template, {"page": page, "query": query, "duplicates": roster.duplicate_name_keys(request.user),
                                      "merge_requests": _merge_requests() if is_administrator(request.user) else []})


@login_required
def player_edit(request, player_pk=None):
    """A new player, or a player's card: changed by their owner (or an administrator); another organiser
    who may see them (registered in their tournament, or in a published one) reads it without e-mail."""
    require_organiser(request.user)
    if player_pk is None:
        return _player_create(request)
    player = player_for_organiser(request.user, player_pk)
    editable = may_change_player(request.user, player)
    if request.method == "POST" and not editable:
        raise PermissionDenied
    form = PlayerForm(request.POST or None, instance=player)
    if not may_read_email(request.user, player):
        del form.fields["email"]
    if request.method == "POST" and form.is_valid():
        player.refresh_from_db()
        if save_or_errors(form, services.player_save, user=request.user, player=player, seen_by=request.user):
            messages.success(request, _("Player saved."))
            return redirect("manage:players")
    candidates = list(roster.merge_candidates(request.user, player))
    return render(request, "tournaments/player_form.html", {
        "form": form, "player": player, "editable": editable,
        "registered": [r for r in player_registrations(player) if answers_for(request.user, r.tournament)],
        "candidates": [c for c in candidates if may_merge_players(request.user, player, c)],
        "others_candidates": [c for c in candidates if not may_merge_players(request.user, player, c)]})


def _player_create(request):
    """The "new player" form: a known name is answered with that player's card (`NewPlayerForm`)."""
    form = NewPlayerForm(request.POST or None, viewer=request.user)
    if request.method == "POST" and form.is_valid():
        if form.known_player is not None:
            return redirect("manage:player_edit", player_pk=form.known_player.pk)
        if save_or_errors(form, services.player_save, user=request.user, seen_by=request.user):
            messages.success(request, _("Player saved."))
            return redirect("manage:players")
    return render(request, "tournaments/player_form.html", {"form": form, "player": None, "editable": True})


def _merge_requests():
    """The pending merge requests, each with the record an approval keeps (rules.merge_kept)."""
    return [{**r, "kept": merge_kept(r["keep"], r["drop"])[0]} for r in merge_requests()]


@login_required
@require_POST
def player_merge(request, player_pk):
    """This player is the same person as the one chosen: their registrations and results move there."""
    drop = player_for_organiser(request.user, player_pk)
    keep = player_for_organiser(request.user, request.POST.get("into", ""))
    keep, drop = merge_kept(keep, drop)  # across owners the record made first stays: say so
    merged = run_with_message(request, roster.player_merge, _(
        "%(drop)s merged into %(keep)s: registrations and results kept.") % {"drop": drop, "keep": keep},
        user=request.user, keep=keep, drop=drop)
    return redirect("manage:player_edit", player_pk=keep.pk if merged else drop.pk)


@login_required
@require_POST
def player_merge_request(request, player_pk):
    """Two records of one person with different owners: an administrator is asked to merge them."""
    drop = player_for_organiser(request.user, player_pk)
    keep = player_for_organiser(request.user, request.POST.get("into", ""))
    run_with_message(request, roster.player_merge_request, _(
        "An administrator has been asked to merge %(drop)s into %(keep)s.") % {"drop": drop, "keep": keep},
        user=request.user, keep=keep, drop=drop)
    return redirect("manage:player_edit", player_pk=drop.pk)


@login_required
@require_POST
def player_delete(request, player_pk):
    player = player_for_organiser(request.user, player_pk)
    if not may_change_player(request.user, player):
        raise PermissionDenied
    if run_with_message(request, roster.player_delete, _("%(p)s deleted.") % {"p": player}, user=request.user,
                        player=player):
        return redirect("manage:players")
    return redirect("manage:player_edit", player_pk=player.pk)


@login_required
@require_POST
def club_delete(request, club_pk):
    require_organiser(request.user)
    club = club_or_404(club_pk)
    if not may_change_club(request.user, club):
        raise PermissionDenied
    if run_with_message(request, roster.club_delete, _("%(c)s deleted.") % {"c": club}, user=request.user,
                        club=club):
        return redirect("manage:clubs")
    return redirect("manage:club_edit", club_pk=club.pk)


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
            preview = imports.players_csv_preview(text, user=request.user)
        else:
            messages.success(request, ngettext("%(n)d player imported.", "%(n)d players imported.", len(created))
                             % {"n": len(created)})
            return redirect("manage:players")
    elif request.method == "POST":
        form = CsvUploadForm(request.POST, request.FILES)
        if form.is_valid():
            text = form.cleaned_data["file"]
            preview = imports.players_csv_preview(text, user=request.user)
    return render(request, "tournaments/player_import.html", {"form": form, "preview": preview, "csv_text": text},
                  status=400 if preview is not None and not preview.ok else 200)
