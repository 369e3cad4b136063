"""The public standings' pages that a snapshot renders as a request does (tables/live/snapshot.py): the
standings' htmx fragment and their JSON, each a function of the tournament and the results version,
with the standings computed once per version; the views (views.py) answer them too."""
import logging
import time

from django.conf import settings
from django.http import HttpResponse, JsonResponse
from django.template.loader import render_to_string
from django.utils.safestring import mark_safe
from django.utils.translation import get_language

from scoring.numeric import as_float_for
from tables.standings import versioned
from tables.standings.selectors import (final_to_play, public_standings_status, standings_cut_lines,
                                       standings_lead, standings_state, tournament_standings)

logger = logging.getLogger("torneo.standings")


def standings_at(tournament, version):
    """tournament_standings, computed once per version of the results rather than per request."""
    slot = versioned.tournament_slot("standings", tournament, version)

    def compute():
        started = time.perf_counter()
        result = tournament_standings(tournament)
        versioned.store(slot.part("provisional"), result.provisional)
        logger.info("computed standings tournament=%s version=%s seconds=%.3f", tournament.pk, version,
                    time.perf_counter() - started)
        return result
    return versioned.computed(slot, compute)


def provisional_at(tournament, version):
    """Whether a round is still open, without loading the cached standings: unpickling 200 rows
    costs more than the rest of a request answered from the cache."""
    provisional = versioned.peek(versioned.tournament_slot("standings", tournament, version).part("provisional"))
    return standings_at(tournament, version).provisional if provisional is None else provisional


def standings_status(tournament, provisional):
    """'provisional' while a round is open, disputes are open or their window runs; else 'final'."""
    return "final" if standings_state(tournament, provisional).is_final else "provisional"


def standings_context(tournament, version):
    provisional = provisional_at(tournament, version)
    state = standings_state(tournament, provisional)
    status = "final" if state.is_final else "provisional"
    return {"tournament": tournament, "status": status, "state": state,
            "formula_label": tournament.get_formula_display(),
            "poll": provisional or status != "final" or final_to_play(tournament),
            "poll_seconds": settings.STANDINGS_POLL_SECONDS, "query": ""}


def standings_table(tournament, version, context):
    """The standings table as HTML, rendered once per version, language and status: rendering 200
    rows of 10 rounds costs more than computing them."""
    slot = versioned.tournament_slot("standings", tournament, version).part(
        f"html:{get_language()}:{context['state'].key}:{context['poll']}:{context['poll_seconds']}")

    def render_table():
        return render_to_string("tables/standings.html#standings-table", {
            **context, "standings": standings_at(tournament, version), "lead": standings_lead(tournament),
            "cut_lines": standings_cut_lines(tournament)})
    # Rendered here from the template; a cache backend may not keep the safe type.
    return mark_safe(versioned.computed(slot, render_table))


def standings_fragment(tournament, version):
    """The standings' htmx fragment, the one the live channel carries: the same bytes for a visitor's
    poll and for the snapshot job (tables/live/snapshot.py)."""
    return HttpResponse(standings_table(tournament, version, standings_context(tournament, version)))


def standings_json_response(tournament, live=False):
    """The standings' JSON (also rendered by the snapshot job, tables/live/snapshot.py)."""
    result = tournament_standings(tournament, published_only=not live)
    lead = standings_lead(tournament, published_only=not live)
    if lead is not None and lead.kind == "knockout":
        data = [_knockout_json_row(r) for r in lead.knockout_rows]
    else:
        data = [_json_row(result, r) for r in result.rows]
        if lead is not None and lead.final_rows:
            data = _with_final(data, result, lead)
    state = standings_state(tournament, live and result.provisional)
    last_round = result.after_round
    if lead is not None and lead.final_round is not None:
        last_round = max(last_round or 0, lead.final_round.number)
    return JsonResponse({"status": public_standings_status(tournament, result, live=live, state=state),
                         "after_round": result.after_round, "state": state.state,
                         "window_closes": state.window_closes.isoformat() if state.state == "window"
                         and state.window_closes else None,
                         "last_round": last_round, "decimals": result.decimals, "rows": data}
                        | ({"semifinals": [_semifinal_json_row(r) for r in lead.semifinal_rows]}
                           if lead is not None and lead.kind == "semifinals" else {}),
                        json_dumps_params={"ensure_ascii": False})


def _with_final(data, result, lead):
    """SCORING.md section 6: after the final the rows follow the final order; `position` is the
    final position, `decided_by` "final", "finalina" or "qualifying", `place` the place at the final
    (or finalina) table, `rank` stays the qualifying rank and `total` (also `qualifying_total`) the
    qualifying total."""
    by_reg = {r.registration_id: row for r, row in zip(result.rows, data)}
    out = []
    for final in lead.final_rows:
        reg = final.registration
        row = by_reg.get(reg.pk) or {"rank": None, "player": reg.player.full_name,
                                     "club": reg.player.club.name if reg.player.club else "", "total": None,
                                     "rounds": []}
        entry = {"position": final.position, "decided_by": final.phase, **row, "qualifying_total": row["total"]}
        if final.final is not None:  # parallel finals (SCORING.md 13.9): which final
            entry["final"] = final.final
        if final.place is not None:  # the place at the final (or finalina) table
            entry["place"] = final.place
        out.append(entry)
    return out


def _semifinal_json_row(r):
    """While the semifinals are played (provisional like any round): who goes to the final."""
    return {"player": r.registration.player.full_name,
            "club": r.registration.player.club.name if r.registration.player.club else "",
            "status": r.status, "seeded": r.seeded, "table": r.table, "place": r.place}


def _knockout_json_row(r):
    """A knockout (SCORING.md 4.13): who is still in, the phase reached or lost, the final position."""
    status = "second_chance" if r.waiting_second_chance else "in" if r.still_in else "out"
    return {"position": r.position, "player": r.registration.player.full_name,
            "club": r.registration.player.club.name if r.registration.player.club else "",
            "status": status, "phase": r.phase}


def _json_row(result, r):
    """One standings row as the JSON of the public API; like the contract (SCORING.md section 9), the
    rows of `vittorie` / `triestino` carry `wins`, those of `medagliere` carry `medals` (places 1-5)."""
    decimals = result.decimals
    row = {"rank": r.rank, "player": r.player.full_name, "club": r.club, "total": json_number(r.total, decimals),
           "rounds": [json_number(p, decimals) for p in r.rounds]}
    if result.shows_wins:
        row["wins"] = r.wins
    if result.shows_medals:
        row["medals"] = list(r.medals)
    return row


def json_number(value, decimals=2):
    """A JSON number as shown: table points and the points of most formulas to 2 decimals, the
    `millesimi` formula's to 3 (SCORING.md 13.4)."""
    return None if value is None else as_float_for(decimals)(value)
