"""The organiser's download of the whole tournament as JSON."""
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.views.decorators.http import require_safe

from tournaments.rules import tournament_for_organiser
from transfer.export import tournament_export_json


@login_required
@require_safe
def tournament_json(request, pk):
    """The organiser's copy of the tournament: the document export_tournament writes."""
    tournament = tournament_for_organiser(request.user, pk)
    response = HttpResponse(tournament_export_json(tournament=tournament),
                            content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="torneo-{tournament.pk}.json"'
    return response
