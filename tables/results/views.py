"""Results at the tables: the arbiter's home (the tables of the round in play), one table's result on a
phone, and the organiser's one "Results" place (the dashboard of the round being played)."""
import logging
import uuid

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.db import DatabaseError
from django.http import JsonResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from scoring.numeric import as_float
from tables import engine
from tables.results import services as table_results
from tables.results.selectors import submission_applied
from tables.forms import ResultSeatForm
from tables.rounds.selectors import (latest_published_round, next_table_to_enter, published_rounds, round_of,
                                    round_with_tables, table_of, table_seats)
from tournaments.rules import staff_role, tournament_for_arbiter, tournament_for_organiser

logger = logging.getLogger(__name__)


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


@login_required
@require_GET
def arbiter_home(request, pk, number=None):
    tournament = tournament_for_arbiter(request.user, pk)
    live = round_of(tournament, number, published=True) if number else latest_published_round(tournament)
    tables = round_with_tables(live) if live else []
    return render(request, "tables/arbiter_home.html", {
        "tournament": tournament, "round": live, "tables": tables,
        "role": staff_role(request.user, tournament),
        "rounds": published_rounds(tournament)})


def _result_forms(table, seats, data=None):
    choices = [(t["name"], t["name"]) for group in engine.territory_groups() for t in group["territories"]]
    forms = []
    for i, seat in enumerate(seats):
        initial = {"seat": seat.pk, "table_points": seat.table_points, "risiko": seat.risiko,
                   "eliminated": seat.eliminated, "place": seat.place, "territories": seat.territories,
                   "armies": seat.armies}
        form = ResultSeatForm(data, prefix=f"p{i}", initial=initial, territory_choices=choices)
        if i == 0 and table.reported_at is None:
            form.fields["table_points"].widget.attrs["autofocus"] = True
        form.seat_obj = seat
        forms.append(form)
    return forms


def _submission(request):
    """The phone's id for this save (a UUID the form carries), or None."""
    try:
        return uuid.UUID(request.POST.get("submission", ""))
    except ValueError:
        return None


def _saved_json(table):
    return [{"seat": s.pk, "player": s.registration.player.display_name,
             "table_points": None if s.table_points is None else as_float(s.table_points),
             "risiko": s.risiko, "eliminated": s.eliminated, "place": s.place} for s in table_seats(table)]


def _sync_answer(status, table, errors=(), http_status=200):
    """What the offline queue of a phone is told (static/js/offline-queue.js)."""
    return JsonResponse({"status": status, "version": table.version, "saved": _saved_json(table),
                         "errors": [str(e) for e in errors]}, status=http_status)


@login_required
def table_result(request, pk, number, table_number):
    """One table's result, entered by an arbiter on a phone.

    A save sent by the phone's offline queue (header X-Torneo-Sync) is answered in JSON: saved,
    already applied, conflict (someone saved the table since) or invalid."""
    tournament = tournament_for_arbiter(request.user, pk)
    rnd, table = table_of(tournament, number, table_number)
    seats = table_seats(table)
    forms = _result_forms(table, seats, request.POST if request.method == "POST" else None)
    errors, conflict, question = [], None, None
    sync = request.method == "POST" and request.headers.get("X-Torneo-Sync") == "1"
    if request.method == "POST":
        try:
            version = int(request.POST.get("version", ""))
        except ValueError:
            version = -1
        submission = _submission(request)
        if submission is not None and submission_applied(table, submission):
            if sync:
                return _sync_answer("duplicate", table)
            messages.info(request, _("This result of table %(t)d was already saved.") % {"t": table.number})
            return redirect("arbiter:home", pk=pk)
        if all(f.is_valid() for f in forms):
            lines = [table_results.ResultLine(seat_id=f.seat_obj.pk, table_points=f.cleaned_data["table_points"],
                                         risiko=f.cleaned_data["risiko"], eliminated=f.cleaned_data["eliminated"],
                                         place=f.cleaned_data["place"],
                                         territories=tuple(f.cleaned_data["territories"]),
                                         armies=f.cleaned_data["armies"]) for f in forms]
            asked = [] if request.POST.get("confirmed") == "1" else table_results.questions(lines)
            try:
                if asked:
                    raise ResultQuestion(asked)
                table_results.table_result_submit(user=request.user, table=table, lines=lines, version=version,
                                                  submission=submission)
            except ResultQuestion as exc:
                if sync:   # the phone asked before queueing; a save without the answer is refused
                    return _sync_answer("invalid", table, errors=exc.asked, http_status=400)
                question = exc.asked
            except table_results.AlreadyApplied:
                return _sync_answer("duplicate", table) if sync else redirect("arbiter:home", pk=pk)
            except table_results.StaleResult as exc:
                if submission_applied(table, submission):  # the same save, sent twice at once
                    return _sync_answer("duplicate", exc.table) if sync else redirect("arbiter:home", pk=pk)
                if sync:
                    return _sync_answer("conflict", exc.table, http_status=409)
                # The form now holds what the other arbiter saved, on the new version: saving again
                # is a choice made on their values, never a silent overwrite with the rejected ones.
                conflict = exc.table
                conflict.saved_seats = table_seats(conflict)
                typed = {line.seat_id: line for line in lines}
                conflict.rows = [(seat, typed.get(seat.pk)) for seat in conflict.saved_seats]
                forms = _result_forms(conflict, conflict.saved_seats)
            except engine.ResultError as exc:
                _attach_result_error(forms, exc)
                errors.append(str(exc.message))
            except ValidationError as exc:
                errors.extend(exc.messages)
            except DatabaseError:
                if sync:
                    logger.exception("saving the result of table %s failed", table.pk)
                    return _sync_answer("retry", table, http_status=503)
                # The save is one transaction: it rolled back whole, the earlier result stands and the
                # form keeps what was typed, so the arbiter only has to send it again.
                logger.exception("saving the result of table %s failed", table.pk)
                return render(request, "tables/table_result.html", {
                    "tournament": tournament, "round": rnd, "table": table, "forms": forms, "conflict": None,
                    "errors": [_("The database did not answer: nothing was saved and the previous result is "
                                 "unchanged. Please save again.")],
                    "continents": engine.territory_groups()}, status=503)
            else:
                if sync:
                    table.refresh_from_db()
                    return _sync_answer("saved", table)
                messages.success(request, _("Result of table %(t)d saved.") % {"t": table.number})
                # Typing a pile of sheets: straight on to the next table still without a result.
                following = next_table_to_enter(table)
                if following is not None:
                    return redirect("arbiter:table", pk=pk, number=rnd.number, table_number=following.number)
                if staff_role(request.user, tournament) == "organiser":   # all in: closing is next
                    return redirect("manage:round_dashboard", pk=pk, number=rnd.number)
                return redirect("arbiter:home", pk=pk)
        else:
            errors.append(_("Please correct the errors below: nothing was saved."))
        if sync:
            field_errors = [f"{f.seat_obj.registration.player.display_name}: {e}"
                            for f in forms for errs in f.errors.values() for e in errs]
            return _sync_answer("invalid", table, errors=errors + field_errors, http_status=400)
    table.refresh_from_db()
    _focus_first_error(forms)
    return render(request, "tables/table_result.html", {
        "tournament": tournament, "round": rnd, "table": table, "forms": forms, "errors": errors,
        "conflict": conflict, "question": question, "continents": engine.territory_groups(),
        "submission": uuid.uuid4()},
        status=409 if conflict else (400 if errors else 200))


class ResultQuestion(Exception):
    """A result the rules accept but that looks like a slip: asked before it is saved."""

    def __init__(self, asked):
        super().__init__("confirm")
        self.asked = asked


FOCUS_ORDER = ("table_points", "eliminated", "place", "risiko", "armies", "territories")


def _focus_first_error(forms):
    """After a refused save the cursor goes to the first field in error, not back to player 1."""
    for form in forms:
        if not form.errors:
            continue
        names = [name for name in FOCUS_ORDER if name in form.errors] or ["table_points"]
        for other in forms:
            other.fields["table_points"].widget.attrs.pop("autofocus", None)
        widget = form.fields[names[0]].widget
        widget.attrs["autofocus"] = True
        widget.attrs["aria-invalid"] = "true"
        return


def _attach_result_error(forms, exc):
    for form in forms:
        if exc.player is not None and str(form.seat_obj.pk) == str(exc.player):
            field = exc.field if exc.field in form.fields else "table_points"
            form.add_error(field, exc.detail)
            return
