"""Results at the tables: the arbiter's home (the tables of the round in play), one table's result on a
phone, and the organiser's one "Results" place (the dashboard of the round being played)."""
import dataclasses
import logging
import uuid
from collections import namedtuple

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.db import DatabaseError
from django.http import JsonResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from scoring.numeric import as_float
from tables import engine
from tables.results import services as table_results
from tables.results.own_tables import own_tables, own_tables_set, parse_range, tables_to_follow
from tables.results.selectors import submission_applied
from tables.forms import ResultSeatForm
from tables.rounds.selectors import (latest_published_round, next_table_to_enter, published_rounds, round_of,
                                    round_with_tables, table_of, table_seats)
from tournaments.forms import posted_version
from tournaments.text import posted_id
from tournaments.rules import staff_role, tournament_for_arbiter, tournament_for_organiser

logger = logging.getLogger(__name__)


@login_required
@require_safe
def results(request, pk):
    """The latest published round's dashboard: which tables are in, enter or correct one, close the round."""
    tournament = tournament_for_organiser(request.user, pk)
    live = latest_published_round(tournament)
    if live is None:
        messages.info(request, _("No round is published yet."))
        return redirect("manage:rounds", pk=pk)
    return redirect("manage:round_dashboard", pk=pk, number=live.number)


@login_required
@require_safe
def arbiter_home(request, pk, number=None):
    tournament = tournament_for_arbiter(request.user, pk)
    live = round_of(tournament, number, published=True) if number else latest_published_round(tournament)
    tables = round_with_tables(live) if live else []
    own = own_tables(request, tournament)
    return render(request, "tables/arbiter_home.html", {
        "tournament": tournament, "round": live, "role": staff_role(request.user, tournament),
        "tables": [t for t in tables if own is None or own[0] <= t.number <= own[1]], "own": own,
        "others": 0 if own is None else sum(1 for t in tables if not own[0] <= t.number <= own[1]),
        "rounds": published_rounds(tournament)})


@login_required
@require_POST
def own_tables_choose(request, pk):
    """The arbiter's own tables on this phone (from, to), or every table again ("all")."""
    tournament = tournament_for_arbiter(request.user, pk)
    chosen = None if request.POST.get("all") else parse_range(request.POST.get("first"), request.POST.get("last"))
    if chosen is None and not request.POST.get("all"):
        messages.error(request, _("My tables: write two table numbers, the first not above the second."))
    else:
        own_tables_set(request, tournament, *(chosen or (None, None)))
    number = posted_id(request.POST.get("round"))
    if number is not None and published_rounds(tournament).filter(number=number).exists():
        return redirect("arbiter:round", pk=pk, number=number)
    return redirect("arbiter:home", pk=pk)


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


@login_required
def table_result(request, pk, number, table_number):
    """One table's result, entered by an arbiter on a phone: its page, or, for a save sent by the
    phone's offline queue (header X-Torneo-Sync), the queue's answer in JSON."""
    sync = request.method == "POST" and request.headers.get("X-Torneo-Sync") == "1"
    return (_table_result_sync if sync else _table_result_page)(request, pk, number, table_number)


def _table_result_page(request, pk, number, table_number):
    """The result form; a save sent from it goes on to the next table, or the form comes back (PAGE)."""
    entry = _entry(request, pk, number, table_number)
    outcome = _attempt(request, entry) if request.method == "POST" else Outcome("form", entry.table)
    return PAGE[outcome.word](request, entry, outcome)


def _table_result_sync(request, pk, number, table_number):
    """A save sent by the phone's offline queue (static/js/offline-queue.js), told in JSON what happened:
    saved, duplicate (applied once, whatever the number of sends), conflict (someone saved the table
    since), invalid (with every message) or retry (the database did not answer)."""
    entry = _entry(request, pk, number, table_number)
    outcome = _attempt(request, entry)
    fields = [f"{f.seat_obj.registration.player.display_name}: {e}" for f in entry.forms
              for errs in f.errors.values() for e in errs] if outcome.word == "invalid" else []
    errors = [*(outcome.question or []), *outcome.errors, *fields]
    return JsonResponse({"status": outcome.word, "version": outcome.table.version,
                         "saved": _saved_json(outcome.table), "errors": [str(e) for e in errors]},
                        status=SYNC_STATUS[outcome.word])


# One table's result form as the request finds it: the forms hold what was posted, if anything, and
# `submission` is the phone's id for the save.
Entry = namedtuple("Entry", "tournament rnd table forms submission")


def _entry(request, pk, number, table_number):
    tournament = tournament_for_arbiter(request.user, pk)
    rnd, table = table_of(tournament, number, table_number)
    forms = _result_forms(table, table_seats(table), request.POST if request.method == "POST" else None)
    return Entry(tournament, rnd, table, forms, _submission(request))


@dataclasses.dataclass
class Outcome:
    """How a save ended, in the offline queue's words: saved, duplicate, invalid, conflict or retry ("form":
    the page opened, nothing sent). `table` is the one the queue is shown as saved; `notice` is told on
    the page a duplicate goes back to."""
    word: str
    table: object
    errors: list = dataclasses.field(default_factory=list)
    question: list | None = None
    notice: str | None = None


def _attempt(request, entry):
    """Save what the phone sent: the one service call, once the save is known new and its forms valid.
    What the service refuses is answered in ENDINGS."""
    if submission_applied(entry.table, entry.submission):
        return Outcome("duplicate", entry.table, notice=_("This result of table %(t)d was already saved.")
                       % {"t": entry.table.number})
    if not all(f.is_valid() for f in entry.forms):
        return Outcome("invalid", entry.table, errors=[_("Please correct the errors below: nothing was saved.")])
    try:
        saved = table_results.table_result_save(user=request.user, table=entry.table, lines=_lines(entry.forms),
                                                version=posted_version(request.POST), submission=entry.submission,
                                                confirmed=request.POST.get("confirmed") == "1")
    except tuple(ENDINGS) as exc:
        ending = next(ENDINGS[kind] for kind in type(exc).__mro__ if kind in ENDINGS)
        return ending(exc, entry)
    return Outcome("saved", saved)


def _lines(forms):
    return [table_results.ResultLine(seat_id=f.seat_obj.pk, table_points=f.cleaned_data["table_points"],
                                     risiko=f.cleaned_data["risiko"], eliminated=f.cleaned_data["eliminated"],
                                     place=f.cleaned_data["place"], territories=tuple(f.cleaned_data["territories"]),
                                     armies=f.cleaned_data["armies"]) for f in forms]


def _stale(exc, entry):
    """Someone saved the table since the form was loaded: a conflict, unless it was this very save,
    sent twice at once."""
    return Outcome("duplicate" if submission_applied(entry.table, entry.submission) else "conflict", exc.table)


def _broken_rule(exc, entry):
    _attach_result_error(entry.forms, exc)
    return Outcome("invalid", entry.table, errors=[str(exc.message)])


def _unanswered(exc, entry):
    logger.exception("saving the result of table %s failed", entry.table.pk)
    return Outcome("retry", entry.table)


# What each refusal of the save is answered, in one place (the closest class of the exception counts).
ENDINGS = {
    table_results.ResultQuestion: lambda exc, entry: Outcome("invalid", entry.table, question=exc.asked),
    table_results.AlreadyApplied: lambda exc, entry: Outcome("duplicate", entry.table),
    table_results.StaleResult: _stale,
    engine.ResultError: _broken_rule,
    ValidationError: lambda exc, entry: Outcome("invalid", entry.table, errors=exc.messages),
    DatabaseError: _unanswered,
}
# The offline queue's HTTP status for each outcome.
SYNC_STATUS = {"saved": 200, "duplicate": 200, "invalid": 400, "conflict": 409, "retry": 503}


def _form_page(request, entry, outcome, conflict=None):
    """The result form: as opened, refused (with its errors, or a question to confirm), or on the values
    someone else saved (`conflict`)."""
    entry.table.refresh_from_db()
    _focus_first_error(entry.forms)
    return render(request, "tables/table_result.html", {
        "tournament": entry.tournament, "round": entry.rnd, "table": entry.table, "forms": entry.forms,
        "errors": outcome.errors, "conflict": conflict, "question": outcome.question,
        "continents": engine.territory_groups(), "submission": uuid.uuid4()},
        status=409 if conflict else (400 if outcome.errors else 200))


def _conflict_page(request, entry, outcome):
    # The form now holds what the other arbiter saved, on the new version: saving again is a choice
    # made on their values, never a silent overwrite with the rejected ones.
    conflict = outcome.table
    conflict.saved_seats = table_seats(conflict)
    typed = {line.seat_id: line for line in _lines(entry.forms)}
    conflict.rows = [(seat, typed.get(seat.pk)) for seat in conflict.saved_seats]
    return _form_page(request, entry._replace(forms=_result_forms(conflict, conflict.saved_seats)), outcome,
                      conflict)


def _unsaved_page(request, entry, outcome):
    # The save is one transaction: it rolled back whole, the earlier result stands and the form keeps
    # what was typed, so the arbiter only has to send it again.
    return render(request, "tables/table_result.html", {
        "tournament": entry.tournament, "round": entry.rnd, "table": entry.table, "forms": entry.forms,
        "conflict": None, "continents": engine.territory_groups(),
        "errors": [_("The database did not answer: nothing was saved and the previous result is unchanged. "
                     "Please save again.")]}, status=503)


def _saved_page(request, entry, outcome):
    messages.success(request, _("Result of table %(t)d saved.") % {"t": entry.table.number})
    # Typing a pile of sheets: straight on to the next of the arbiter's own tables still without a result,
    # else back to their list (own_tables.py).
    numbers = tables_to_follow(request, entry.tournament)
    following = next_table_to_enter(entry.table, numbers) if numbers is not None else None
    pk, number = entry.tournament.pk, entry.rnd.number
    if following is not None:
        return redirect("arbiter:table", pk=pk, number=number, table_number=following.number)
    if staff_role(request.user, entry.tournament) == "organiser" and next_table_to_enter(entry.table) is None:
        return redirect("manage:round_dashboard", pk=pk, number=number)   # all in: closing is next
    return redirect("arbiter:round", pk=pk, number=number)


def _duplicate_page(request, entry, outcome):
    if outcome.notice:
        messages.info(request, outcome.notice)
    return redirect("arbiter:home", pk=entry.tournament.pk)


# What the page does with each outcome of a save.
PAGE = {"form": _form_page, "invalid": _form_page, "conflict": _conflict_page, "retry": _unsaved_page,
        "saved": _saved_page, "duplicate": _duplicate_page}


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
