"""The organiser's audit log of a tournament: every change, newest first, filtered by kind, player or
table."""
from django.contrib.auth.decorators import login_required
from django.shortcuts import render
from django.views.decorators.http import require_safe

from tournaments.audit.selectors import audit_log_page
from tournaments.rules import tournament_for_organiser


@login_required
@require_safe
def audit_log(request, pk):
    tournament = tournament_for_organiser(request.user, pk)
    kind = request.GET.get("type", "").strip()
    player = request.GET.get("player", "").strip()
    table = request.GET.get("table", "").strip()
    page, players, kinds = audit_log_page(tournament, kind=kind, player=player, table=table,
                                          number=request.GET.get("page"))
    return render(request, "tournaments/audit_log.html", {
        "tournament": tournament, "page": page, "players": players, "kinds": kinds,
        "filters": {"type": kind, "player": player, "table": table}})
