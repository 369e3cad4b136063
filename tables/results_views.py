"""The organiser's one "Results" place: the dashboard of the round being played."""
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from tables.round_selectors import latest_published_round
from tournaments.rules import tournament_for_organiser


@login_required
@require_GET
def results(request, pk):
    """The latest published round's dashboard: which tables are in, enter or correct one, close the round."""
    tournament = tournament_for_organiser(request.user, pk)
    live = latest_published_round(tournament)
    if live is None:
        messages.info(request, _("No round is published yet."))
        return redirect("manage:rounds", pk=pk)
    return redirect("manage:round_dashboard", pk=pk, number=live.number)
