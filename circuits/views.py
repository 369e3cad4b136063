"""Circuit pages: the organiser's (create, settings, tournaments and weights) and the public ones
(ranking page, JSON, CSV, each player's history)."""
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe, require_http_methods, require_POST

from circuits import services
from circuits.forms import (
    CircuitForm,
    CircuitTournamentForm,
    SeasonCategoryForm,
    SeasonCategoryFormSet,
    SeasonRuleForm,
)
from circuits.models import Circuit, CircuitTournament
from circuits.selectors import (
    GamesCell,
    circuit_standings,
    circuit_version,
    player_history,
    public_tournaments_of,
    season_rule_of_settings,
)
from scoring.numeric import as_float, shown
from tables.standings.export_views import FORMATS, _csv_download
from tables.standings.cache import serve_cached
from tournaments.forms import add_service_errors, save_or_errors
from tournaments.models import Player
from tournaments.rules import circuit_for_organiser, require_organiser, run_by


# --- organiser -----------------------------------------------------------------------------------

@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def circuit_list(request):
    require_organiser(request.user)
    form = CircuitForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        circuit = save_or_errors(form, services.circuit_create, user=request.user)
        if circuit is not None:
            messages.success(request, _("Circuit created: now add its tournaments."))
            return redirect("manage:circuit", circuit.pk)
    circuits = run_by(request.user, Circuit.objects.all())
    return render(request, "circuits/manage_list.html", {"circuits": circuits, "form": form},
                  status=400 if form.errors else 200)


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def circuit_manage(request, pk):
    circuit = circuit_for_organiser(request.user, Circuit.objects, pk)
    form = CircuitForm(instance=Circuit.objects.get(pk=circuit.pk))
    add_form = CircuitTournamentForm(tournaments=public_tournaments_of(circuit.organiser),
                                     categories=circuit.season_categories)
    status = 200
    if request.method == "POST" and request.POST.get("action") == "settings":
        form = CircuitForm(request.POST, instance=Circuit.objects.get(pk=circuit.pk))
        if form.is_valid() and save_or_errors(form, services.circuit_update, user=request.user,
                                              circuit=circuit) is not None:
            messages.success(request, _("Circuit settings saved."))
            return redirect("manage:circuit", circuit.pk)
        status = 400
    elif request.method == "POST" and request.POST.get("action") == "add":
        add_form = CircuitTournamentForm(request.POST, tournaments=public_tournaments_of(circuit.organiser),
                                         categories=circuit.season_categories)
        if add_form.is_valid():
            try:
                services.circuit_tournament_add(user=request.user, circuit=circuit,
                                                tournament=add_form.cleaned_data["tournament"],
                                                weight=add_form.cleaned_data["weight"],
                                                category=add_form.cleaned_data.get("category") or "")
            except ValidationError as exc:
                add_service_errors(add_form, exc)
            else:
                messages.success(request, _("Tournament added to the circuit (or its weight changed)."))
                return redirect("manage:circuit", circuit.pk)
        status = 400
    entries = circuit.entries.select_related("tournament")
    return render(request, "circuits/manage.html", {"circuit": circuit, "form": form, "add_form": add_form,
                                                    "entries": entries}, status=status)


@login_required
@require_POST
def circuit_tournament_remove(request, pk, entry_pk):
    circuit = circuit_for_organiser(request.user, Circuit.objects, pk)
    entry = get_object_or_404(CircuitTournament.objects.select_related("tournament"), pk=entry_pk, circuit=circuit)
    try:
        services.circuit_tournament_remove(user=request.user, entry=entry)
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
    else:
        messages.success(request, _("Tournament removed from the circuit."))
    return redirect("manage:circuit", circuit.pk)


@login_required
@require_http_methods(["GET", "POST"])
def circuit_season_rule(request, pk):
    """The circuit's ranking composed as a season rule: event categories and their terms (points by
    stage, per round or game, the tournament's own points, a winner's bonus, a rank table, game
    results), weights, best N, separate lists. Starts from the rule saved, else from the circuit's own
    settings as the season rule they are."""
    circuit = circuit_for_organiser(request.user, Circuit.objects, pk)
    if request.method == "POST" and request.POST.get("action") == "clear":
        services.circuit_season_rule_set(user=request.user, circuit=circuit, document=None)
        messages.success(request, _("The circuit is ranked by its own settings again."))
        return redirect("manage:circuit", circuit.pk)
    start = circuit.season_rule if circuit.by_season_rule else season_rule_of_settings(circuit)
    form = SeasonRuleForm(request.POST or None, initial=SeasonRuleForm.initial_of(start))
    categories = SeasonCategoryFormSet(request.POST or None, prefix="cat", initial=[
        SeasonCategoryForm.initial_of(key, doc) for key, doc in start["categories"].items()])
    if request.method == "POST" and form.is_valid() and categories.is_valid():
        chosen = [c for c in (f.category() for f in categories) if c is not None]
        try:
            services.circuit_season_rule_set(user=request.user, circuit=circuit,
                                             document=form.document(chosen))
        except ValidationError as exc:
            form.add_error(None, exc.messages)
        else:
            messages.success(request, _("Season rule saved: the circuit is ranked by it."))
            return redirect("manage:circuit", circuit.pk)
    return render(request, "circuits/season_rule.html", {"circuit": circuit, "form": form, "categories": categories},
                  status=400 if request.method == "POST" else 200)


# --- public ----------------------------------------------------------------------------------------

@require_safe
def circuits_public(request):
    return render(request, "circuits/public_list.html", {"circuits": Circuit.objects.all()})


def _cached(request, circuit, render_page, params=()):
    """A public circuit response, stored under the circuit's version (its revision and the results
    versions of its tournaments): a poll that finds nothing new is a 304. `params`: the query
    parameters the page reads (serve_cached redirects any other query)."""
    return serve_cached(request, f"circuit-{circuit.pk}", circuit_version(circuit), render_page, params=params)


@require_safe
def circuit_public(request, pk):
    circuit = get_object_or_404(Circuit, pk=pk)
    return _cached(request, circuit, lambda: render(request, "circuits/circuit.html", {
        "circuit": circuit, "standings": circuit_standings(circuit)}))


def _json_cell(entry, cell):
    data = {"tournament": entry.tournament_id, "name": entry.tournament.name,
            "date": entry.tournament.start_date.isoformat()}
    if isinstance(cell, GamesCell):
        return data | {"weight": as_float(entry.weight), "games": [as_float(r.points) for r in cell.results],
                       "counted": [r.counted for r in cell.results]}
    return data | {"rank": cell.rank, "participants": cell.participants, "points": as_float(cell.points),
                   "counted": cell.counted}


def _json_row(standings, row):
    data = {"rank": row.rank, "player": row.player.full_name, "player_id": row.player.pk,
            "club": row.player.club.name if row.player.club else "", "total": as_float(row.total),
            "counted": [as_float(c) for c in row.counted], "played": row.played, "wins": row.wins,
            "results": [_json_cell(entry, cell) for (entry, _order), cell in zip(standings.columns, row.cells)
                        if cell is not None]}
    if standings.circuit.by_games:
        del data["wins"]
        data["tournaments"] = row.tournaments
    if row.rank is None:
        del data["rank"]
    return data


def _json_settings(circuit):
    by_rank = not circuit.by_games and circuit.rule == Circuit.Rule.TABLE
    return {"id": circuit.pk, "name": circuit.name, "season": circuit.season, "basis": circuit.basis,
            "formula": circuit.formula or None if circuit.by_games else None,
            "rule": None if circuit.by_games else circuit.rule,
            "points_table": [as_float(v) for v in circuit.table_values] if by_rank else None,
            "participation": as_float(circuit.participation) if by_rank else None,
            "best_of": circuit.best_of, "min_tournaments": circuit.min_tournaments}


@require_safe
def circuit_json(request, pk):
    circuit = get_object_or_404(Circuit, pk=pk)

    def build():
        s = circuit_standings(circuit)
        return JsonResponse({
            "circuit": _json_settings(circuit),
            "tournaments": [{"id": e.tournament_id, "name": e.tournament.name,
                             "date": e.tournament.start_date.isoformat(), "weight": as_float(e.weight),
                             "participants": order.participants, "final": order.final}
                            | ({"left_out": order.refused} if circuit.by_games else {})
                            | ({"status": "final" if order.final else "provisional"}) for e, order in s.columns],
            "standings": [_json_row(s, r) for r in s.rows],
            "unranked": [_json_row(s, r) for r in s.unranked],
            # a season rule with several lists (an internal and an external ranking): every one, as the page
            "lists": [{"name": lst.name, "standings": [_json_row(s, r) for r in lst.rows],
                       "unranked": [_json_row(s, r) for r in lst.unranked]} for lst in _lists(s)]},
            json_dumps_params={"ensure_ascii": False})
    return _cached(request, circuit, build)


def _lists(s):
    """The season rule's lists ([] for a circuit of one ranking)."""
    lists = getattr(s, "lists", None) or []
    return lists if len(lists) > 1 else []


def _csv_rank_rows(s):
    """One line a player; a season rule with several lists gives every list, each line naming its own."""
    lists = _lists(s)
    head = ([_("List")] if lists else []) + [_("Rank"), _("Player"), _("Club"), _("Total"), _("Tournaments played"),
                                             _("Wins")]
    for entry, _order in s.columns:
        head += [f"{entry.tournament.name} ({entry.tournament.start_date.isoformat()})", _("counted")]
    yield head
    for name, rows in [(lst.name, lst.rows + lst.unranked) for lst in lists] or [(None, s.rows + s.unranked)]:
        for row in rows:
            line = ([name] if lists else []) + [
                row.rank if row.rank is not None else _("unranked"), row.player.full_name,
                row.player.club.name if row.player.club else "", shown(row.total), row.played, row.wins]
            for cell in row.cells:
                line += [shown(cell.points), _("yes") if cell.counted else _("no")] if cell else ["", ""]
            yield line


def _csv_games_rows(s, decimal):
    """By games: each tournament's weighted game results and, beside them, those counted (each cell
    the results separated by spaces)."""
    def joined(results):
        return " ".join(format(shown(r.points), "f").replace(".", decimal) for r in results)

    head = [_("Rank"), _("Player"), _("Club"), _("Total"), _("Games played"), _("Tournaments played")]
    for entry, _games in s.columns:
        weight = format(entry.weight.normalize(), "f").replace(".", decimal)
        head += [f"{entry.tournament.name} ({entry.tournament.start_date.isoformat()}) ×{weight}",
                 _("counted")]
    yield head
    for row in s.rows + s.unranked:
        line = [row.rank if row.rank is not None else _("unranked"), row.player.full_name,
                row.player.club.name if row.player.club else "", shown(row.total), row.played, row.tournaments]
        for cell in row.cells:
            results = cell.results if cell else []
            line += [joined(results), joined(r for r in results if r.counted)]
        yield line


@require_safe
def circuit_csv(request, pk):
    circuit = get_object_or_404(Circuit, pk=pk)

    def build():
        s = circuit_standings(circuit)
        response, writer = _csv_download(request, f"circuito-{circuit.pk}.csv")
        for line in _csv_games_rows(s, writer.decimal) if circuit.by_games else _csv_rank_rows(s):
            writer.writerow(line)
        return response
    return _cached(request, circuit, build, params={"format": tuple(FORMATS)})


@require_safe
def player_history_page(request, player_pk):
    player = get_object_or_404(Player.all_players.select_related("club", "merged_into"), pk=player_pk)
    if player.merged_into_id is not None:
        return redirect("public:player_history", player.merged_into_id, permanent=False)
    if player.removed:
        raise Http404
    rows, placings = player_history(player)
    if not rows:
        raise Http404  # nothing public about this player
    return render(request, "circuits/player_history.html", {"player": player, "rows": rows, "placings": placings})
