"""Public standings: live page (htmx polling answered 304 when unchanged), player page, JSON, print; the
2vs2 team standings."""
import logging
from dataclasses import replace

from django.conf import settings
from django.http import HttpResponse, JsonResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import get_language
from django.views.decorators.http import require_safe

from tables.standings import versioned
from tables.standings.cache import public_page
from tables.standings.pages import (json_number, standings_context, standings_table, standings_status,
                                    standings_at, standings_fragment, standings_json_response)
from tables.rounds.qr import qr_svg
from tables.standings.charts import rank_chart_svg
from tables.rounds.selectors import (my_table, player_penalties, player_seats, round_of,
                                    round_tables_with_players, straight_to_final, tournament_registration)
from tables.standings.selectors import (player_order, rank_history, standings_cut_lines, standings_lead,
                                       standings_state, team_days, team_standings, tournament_standings)
from tournaments.rules import tournament_for_public
from tournaments.registration.selectors import text_matches
from tournaments.teams.selectors import team_schedule
from tournaments.versions import results_version

logger = logging.getLogger("torneo.standings")

def _version(request, tournament):
    """The results version the request shows, read once, before the standings: a value is never
    older than its slot."""
    if getattr(request, "standings_version", None) is None:
        request.standings_version = results_version(tournament.pk)
    return request.standings_version


def cached_standings(request, tournament):
    """tournament_standings at the request's version, computed once per version (pages.standings_at)."""
    return standings_at(tournament, _version(request, tournament))


def _filtered_table(request, tournament, context, query):
    """The standings table with only the rows whose player or club matches `query` (the search
    without JavaScript): rendered for this request, never stored."""
    result = cached_standings(request, tournament)
    rows = [r for r in result.rows if text_matches(query, f"{r.player.display_name} {r.club}")]
    return render_to_string("tables/standings.html#standings-table", {
        **context, "standings": replace(result, rows=rows), "lead": None,
        "cut_lines": standings_cut_lines(tournament)}, request)


@require_safe
@public_page(uncached_params=("q",))
def standings(request, pk):
    tournament = tournament_for_public(pk)
    version = _version(request, tournament)
    if request.htmx and not request.GET.get("q"):
        return standings_fragment(tournament, version)
    context = standings_context(tournament, version)
    query = request.GET.get("q", "").strip()[:60]
    if query:
        context["poll"] = False
    if query and not request.htmx:
        table = mark_safe(_filtered_table(request, tournament, {**context, "query": query}, query))
    else:
        table = standings_table(tournament, version, context)
    if request.htmx:
        return HttpResponse(table)
    url = request.build_absolute_uri(reverse("public:standings", args=[pk]))
    context.update(standings_table=table, qr=versioned.memo(f"qr:6:{url}", lambda: qr_svg(url, box_size=6)))
    return render(request, "tables/standings.html", context)


@require_safe
@public_page
def standings_print(request, pk):
    tournament = tournament_for_public(pk)
    result = cached_standings(request, tournament)
    state = standings_state(tournament, result.provisional)
    return render(request, "tables/standings_print.html", {"tournament": tournament, "standings": result,
                                                           "status": "final" if state.is_final else "provisional",
                                                           "state": state, "lead": standings_lead(tournament)})


@require_safe
@public_page
def player_page(request, pk, reg_pk):
    """A player's games: round, table, opponents, table points, tournament points, penalties."""
    tournament = tournament_for_public(pk)
    reg = tournament_registration(tournament, reg_pk)
    result = cached_standings(request, tournament)
    row = next((r for r in result.rows if r.registration_id == reg.pk), None)
    points = dict(zip(result.round_numbers, row.rounds)) if row else {}
    games = [{"round": seat.table.round.number, "table": seat.table.number, "seat": seat,
              "opponents": seat.opponents, "points": points.get(seat.table.round.number),
              "dropped": row is not None and seat.table.round.number in row.dropped,
              "reported": seat.table.reported} for seat in player_seats(reg)]
    penalties = player_penalties(reg)
    medals = list(zip(result.medal_places, row.medals)) if row and result.shows_medals else None
    mine = my_table(reg)
    lead = standings_lead(tournament)   # once: the final order the position and the chart read
    order = player_order(tournament, reg.pk, lead)
    for game in games:
        game["phase"], game["place"] = order.places.get(game["round"], ("", None))
    chart = mark_safe(rank_chart_svg(rank_history(tournament, reg.pk, lead), len(result.rows)))
    state = standings_state(tournament, result.provisional)
    return render(request, "tables/player.html", {"tournament": tournament, "reg": reg, "row": row, "games": games,
                                                  "order": order, "state": state,
                                                  "penalties": penalties, "medals": medals, "mine": mine,
                                                  "waiting_final": mine is None and straight_to_final(reg),
                                                  "rank_chart": chart, "standings": result,
                                                  "poll_seconds": settings.STANDINGS_POLL_SECONDS})


@require_safe
@public_page(cors=True)
def player_json(request, pk, reg_pk):
    """A player's page as data: rank and total, the table of the round in play, every game."""
    tournament = tournament_for_public(pk)
    reg = tournament_registration(tournament, reg_pk)
    result = tournament_standings(tournament, published_only=True)
    row = next((r for r in result.rows if r.registration_id == reg.pk), None)
    mine = my_table(reg)
    current = None
    if mine is not None:
        current = {"round": mine.round.number, "table": mine.table.number, "label": mine.label,
                   "players": [p.full_name for p in mine.mates]}
    games = [{"round": seat.table.round.number, "table": seat.table.number,
              "opponents": [o.full_name for o in seat.opponents],
              "table_points": json_number(seat.table_points) if seat.table.reported else None}
             for seat in player_seats(reg)]
    lead = standings_lead(tournament, published_only=True)
    final = next((r for r in lead.final_rows if r.registration.pk == reg.pk), None) if lead else None
    return JsonResponse({"player": reg.player.full_name,
                         "club": reg.player.club.name if reg.player.club else "",
                         "rank": row.rank if row else None,
                         "position": final.position if final else None,
                         "state": standings_state(tournament).state,
                         "total": json_number(row.total, result.decimals) if row else None,
                         "current_table": current, "straight_to_final": mine is None and straight_to_final(reg),
                         "language": get_language(),   # the language of `current_table`'s label
                         "games": games},
                        json_dumps_params={"ensure_ascii": False})


@require_safe
@public_page(cors=True, params={"live": ("1",)})
def standings_json(request, pk):
    """Standings for club websites, saying which: by default only the rounds whose standings the
    organiser published (`status` "published", or "final" once nothing can change them), with
    `?live=1` every result entered so far ("provisional"); `after_round` the last round counted;
    `decimals` those the points are shown with (3 under `millesimi`, SCORING.md 13.4, else 2)."""
    return standings_json_response(tournament_for_public(pk), live=request.GET.get("live") == "1")


@require_safe
@public_page(cors=True)
def tables_json(request, pk, number):
    tournament = tournament_for_public(pk)
    rnd = round_of(tournament, number, published=True)
    tables = []
    for table in round_tables_with_players(rnd):
        players = []
        for seat in table.seats.all():
            entry = {"player": seat.registration.player.full_name,
                     "club": seat.registration.player.club.name if seat.registration.player.club else ""}
            if table.reported:
                entry.update({"table_points": json_number(seat.table_points), "risiko": seat.risiko,
                              "eliminated": seat.eliminated})
            players.append(entry)
        tables.append({"table": table.number, "reported": table.reported, "players": players})
    return JsonResponse({"round": rnd.number, "status": rnd.status, "tables": tables},
                        json_dumps_params={"ensure_ascii": False})


@require_safe
def team_standings_page(request, pk):
    """Seed 001 art. 2: the standings published after each day (the latest by default, another with
    ?giornata=N), provisional until the dispute window closes; before any publication, the results so
    far, provisional. Match points less penalties, head to head, total territories."""
    tournament = tournament_for_public(pk)
    published = [d for d in team_days(tournament) if d.published_at is not None]
    day = published[-1] if published else None
    wanted = request.GET.get("giornata", "")
    if wanted.isdigit():
        day = next((d for d in published if d.number == int(wanted)), day)
    rounds = team_schedule(tournament)
    if day is not None:
        rounds = [r for r in rounds if r.number <= day.number]
    rows = team_standings(tournament, day=day.number if day else None)
    return render(request, "formats/team_standings.html", {
        "tournament": tournament, "rows": rows, "rounds": rounds, "day": day, "published": published,
        "status": day.status if day else "provisional", "penalties": any(r.penalty for r in rows)})
