"""The room's pages: the big screen and its data, the wall list and the poster, a table's territory
sheet, the embeddable standings widget; the organiser's settings for them."""
from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.clickjacking import xframe_options_exempt
from django.views.decorators.http import require_safe, require_http_methods

from tables import engine
from tables.standings import versioned
from tables.standings.cache import public_page
from tables.rounds.qr import qr_svg
from tables.room.forms import RoomSettingsForm
from tables.room.selectors import (clock_of, current_round, filing_letter, in_final_order, latest_results,
                                   published_standings_now, seating_by_surname, standings_now, wall_name, wall_pages)
from tables.standings.selectors import public_standings_status, standings_state
from tables.rounds.selectors import round_label, round_of, table_seats
from tables.templatetags.torneo import counting_words, points
from tournaments.forms import save_or_errors
from tournaments.rules import tournament_for_organiser, tournament_for_public
from tournaments.services import tournament_room_save


def _qr(url, box_size=8):
    return versioned.memo(f"qr:{box_size}:{url}", lambda: qr_svg(url, box_size=box_size))


@require_safe
@public_page
def screen(request, pk):
    """The big screen: a page with no content of its own; static/js/screen.js fills it from screen_data."""
    tournament = tournament_for_public(pk)
    return render(request, "tables/room/screen.html", {
        "tournament": tournament, "poll_seconds": settings.SCREEN_POLL_SECONDS})


@require_safe
@public_page
def screen_data(request, pk):
    """What the big screen shows, as one small JSON filed under the results version: a poll that
    finds nothing new is answered 304 by the public cache."""
    tournament = tournament_for_public(pk)
    rnd = current_round(tournament)
    clock = clock_of(rnd)
    standings = standings_now(tournament)
    ordered = in_final_order(tournament, standings)
    state = standings_state(tournament, standings.provisional)
    data = {
        "tournament": tournament.name,
        "panels": tournament.screen_panel_list,
        "seconds": tournament.screen_seconds,
        "round": rnd.number if rnd else None,
        "round_label": round_label(rnd) if rnd else None,   # "Round 3 — Semifinals" in a later phase
        "clock": {"deadline": int(clock.deadline.timestamp() * 1000), "minutes": clock.minutes} if clock else None,
        "seating": [{"name": wall_name(player), "table": number, "letter": filing_letter(player)}
                    for player, number in seating_by_surname(rnd)],
        "results": [{"table": table.number,
                     "players": [{"name": s.registration.player.full_name, "points": points(s.table_points)}
                                 for s in seats]}
                    for table, seats in latest_results(rnd)],
        "standings": [{"rank": r.rank, "name": r.player.full_name, "club": r.club, "final": r.final,
                       "total": points(r.total, standings.decimals)} for r in ordered],
        # After a final the rank is the final order's: the table that decided it and the qualifying
        # total are two columns, each with its heading.
        "final_order": any(r.final for r in ordered),
        "provisional": standings.provisional,
        "state": state.state, "state_words": state.words,   # the one status, as every page says it
        "counting": counting_words(standings.discard_worst, standings.best_of, struck=False),
    }
    return JsonResponse(data, json_dumps_params={"ensure_ascii": False})


@require_safe
@public_page
def wall_list(request, pk, number):
    """A4 list for the entrance: every player of the round by surname with their table."""
    tournament = tournament_for_public(pk)
    rnd = round_of(tournament, number, published=True)
    pages, columns = wall_pages(rnd)
    return render(request, "tables/room/wall_list.html", {
        "tournament": tournament, "round": rnd, "pages": pages, "columns": columns})


@require_safe
@public_page
def poster(request, pk):
    """A4 poster: the QR codes of the public page and of the big screen, each with its address in words."""
    tournament = tournament_for_public(pk)
    public_url = request.build_absolute_uri(reverse("public:tournament", args=[pk]))
    screen_url = request.build_absolute_uri(reverse("public:screen", args=[pk]))
    return render(request, "tables/room/poster.html", {
        "tournament": tournament,
        "codes": [{"key": "public", "url": public_url, "qr": _qr(public_url, 10),
                   "label": _("Follow the tournament on your phone")},
                  {"key": "screen", "url": screen_url, "qr": _qr(screen_url, 6),
                   "label": _("The big screen")}]})


@require_safe
@public_page
def table_sheet(request, pk, number, table_number):
    """A published table's players and the territory values, for the players at the table."""
    tournament = tournament_for_public(pk)
    rnd = round_of(tournament, number, published=True)
    table = get_object_or_404(rnd.tables, number=table_number)
    return render(request, "tables/room/table_sheet.html", {
        "tournament": tournament, "round": rnd, "table": table, "seats": table_seats(table),
        "continents": engine.territory_groups()})


@require_safe
@xframe_options_exempt
def standings_widget(request, pk):
    """The standings, compact, for the iframes of the sites the organiser names (frame-ancestors per
    tournament); with none named the page keeps DENY like every other. Not filed in the public cache,
    whose answers share one policy."""
    tournament = tournament_for_public(pk)
    standings = published_standings_now(tournament)  # what standings.json gives by default
    limit = request.GET.get("n", "")
    limit = int(limit) if limit.isdecimal() and 0 < int(limit) <= 500 else 20
    ordered = in_final_order(tournament, standings, True)
    state = standings_state(tournament)
    response = render(request, "tables/room/widget.html", {
        "tournament": tournament, "rows": ordered[:limit], "final_order": any(r.final for r in ordered),
        "more": len(standings.rows) > limit,
        "status": public_standings_status(tournament, standings, state=state), "after_round": standings.after_round,
        "state": state,
        "poll_seconds": settings.STANDINGS_POLL_SECONDS})
    origins = tournament.embed_origin_list
    if origins:
        response._csp_replace = {"frame-ancestors": origins}
    else:
        response["X-Frame-Options"] = "DENY"
    return response


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def room_settings(request, pk):
    """The organiser's settings of the room: big screen panels and pace, sites that may embed."""
    tournament = tournament_for_organiser(request.user, pk)
    form = RoomSettingsForm(request.POST or None, tournament=tournament)
    status = 200
    if request.method == "POST":
        if form.is_valid() and save_or_errors(form, tournament_room_save, user=request.user,
                                              tournament=tournament) is not None:
            messages.success(request, _("Room settings saved."))
            return redirect("manage:room", pk)
        status = 400
    rnd = current_round(tournament)
    return render(request, "tables/room/settings.html", {
        "tournament": tournament, "form": form, "round": rnd},
        status=status)


