"""The team table of the national team championship (SCORING.md 13.10): the public page, with the
individual standings beside it, its JSON for club websites, the organiser's copy and its CSV. The
table is computed by the engine once per version of the results (tables.standings.championship)."""
from django.contrib.auth.decorators import login_required
from django.http import JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from scoring.numeric import as_float_for, shown_for
from tables.standings.cache import public_page
from tables.standings.export_views import _csv_download
from tables.standings.selectors import cached_championship_table, public_standings_status
from tables.standings.pages import standings_status
from tables.standings.views import cached_standings
from tournaments.rules import tournament_for_organiser, tournament_for_public
from tournaments.versions import results_version


def _context(request, tournament, manage=False):
    version = getattr(request, "standings_version", None) or results_version(tournament.pk)
    table = cached_championship_table(tournament, version=version)
    individual = cached_standings(request, tournament)
    return {"tournament": tournament, "table": table, "standings": individual, "manage": manage,
            "status": standings_status(tournament, table.provisional),
            "individual": [(row, table.team_of.get(row.registration_id, "")) for row in individual.rows]}


@require_safe
@public_page
def championship_standings(request, pk):
    """The team table (counted results, the discarded ones struck through) and the individual
    standings beside it."""
    tournament = tournament_for_public(pk)
    return render(request, "formats/championship_standings.html", _context(request, tournament))


@login_required
@require_safe
def championship_table(request, pk):
    """The organiser's copy of the team table, with its CSV."""
    tournament = tournament_for_organiser(request.user, pk)
    return render(request, "formats/championship_standings.html", _context(request, tournament, manage=True))


@require_safe
@public_page(cors=True, params={"live": ("1",)})
def championship_json(request, pk):
    """The team table for club websites: by default the rounds whose standings are published, with
    `?live=1` every result entered so far (as the individual standings' JSON)."""
    tournament = tournament_for_public(pk)
    live = request.GET.get("live") == "1"
    table = cached_championship_table(tournament, published_only=not live, version=getattr(request, "standings_version", None))
    number = as_float_for(table.decimals)
    rows = [{"rank": r.rank, "team": r.name, "club": r.club, "players": list(r.members), "total": number(r.total),
             "counted": [number(x.points) for x in r.counted], "discarded": [number(x.points) for x in r.discarded],
             "played": r.played} for r in table.rows]
    return JsonResponse({"status": public_standings_status(tournament, table, live=live),
                         "after_round": table.after_round, "best": table.best, "teams": rows},
                        json_dumps_params={"ensure_ascii": False})


@login_required
@require_safe
def championship_csv(request, pk):
    tournament = tournament_for_organiser(request.user, pk)
    table = cached_championship_table(tournament)
    show = shown_for(table.decimals)
    response, writer = _csv_download(request, f"classifica-squadre-{tournament.pk}.csv")
    writer.writerow([_("Rank"), _("Team"), _("Club"), _("Players"), _("Total"), _("Games"), _("Counted results"),
                     _("Discarded results")])
    for r in table.rows:
        writer.writerow([r.rank, r.name, r.club, ", ".join(r.members), show(r.total), r.played,
                         " ".join(writer.cell(show(x.points)) for x in r.counted),
                         " ".join(writer.cell(show(x.points)) for x in r.discarded)])
    return response
