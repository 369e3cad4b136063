"""The round clock (organiser starts it, everyone sees it) and the end roll of each table (arbiter)."""
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe, require_POST

from scoring.endroll import end_roll
from tables.clock import services as clock
from tables.clock.selectors import clock_state, end_roll_state, live_round, registration_of_table
from tables.forms import ClockForm, EndRollForm, PlayerOutForm
from tables.models import Round
from tables.rounds.selectors import round_of, round_with_tables, table_of, table_seats
from tournaments.feedback import run_with_message
from tournaments.forms import add_service_errors
from tournaments.rules import tournament_for_arbiter, tournament_for_organiser, tournament_for_public


def _epoch_ms(value):
    return int(value.timestamp() * 1000) if value else ""


def _clock_context(rnd):
    state = clock_state(rnd)
    return {"clock": state, "deadline_ms": _epoch_ms(state.deadline), "now_ms": _epoch_ms(timezone.now())}


@login_required
@require_safe
def clock_manage(request, pk, number):
    """The organiser's clock of one round: start it (default 90 minutes), stop it."""
    tournament = tournament_for_organiser(request.user, pk)
    rnd = round_of(tournament, number)
    form = ClockForm(initial={"minutes": rnd.clock_minutes or clock.DEFAULT_MINUTES})
    return render(request, "formats/clock_manage.html", {"tournament": tournament, "round": rnd, "form": form,
                                                         **_clock_context(rnd)})


@login_required
@require_POST
def clock_action(request, pk, number, action):
    tournament = tournament_for_organiser(request.user, pk)
    rnd = round_of(tournament, number)
    try:
        if action == "start":
            form = ClockForm(request.POST)
            if not form.is_valid():
                raise ValidationError(_("Minutes from 1 to %(max)d.") % {"max": clock.MAX_MINUTES})
            clock.clock_start(user=request.user, rnd=rnd, minutes=form.cleaned_data["minutes"])
            messages.success(request, _("Clock started."))
        elif action == "stop":
            clock.clock_stop(user=request.user, rnd=rnd)
            messages.success(request, _("Clock stopped."))
        else:
            raise Http404
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
    # started from the round's page or the results dashboard: back there, the clock running on it
    back = {"round": "manage:round", "dashboard": "manage:round_dashboard"}.get(request.POST.get("back"), "manage:clock")
    return redirect(back, pk=pk, number=number)


def _tables_with_end_roll(tournament, rnd):
    tables = round_with_tables(rnd)
    for table in tables:
        table.end_roll = end_roll_state(table, tournament.end_roll_variant, seats=list(table.seats.all()))
    return tables


@require_safe
@never_cache
def clock_public(request, pk):
    """Time left in the round in play, for the big screen and for phones; when it runs out, the end
    roll of every table (extra round, the sums that end the game)."""
    tournament = tournament_for_public(pk)
    rnd = live_round(tournament)
    context = {"tournament": tournament, "round": rnd}
    if rnd is not None:
        context.update(_clock_context(rnd))
        if context["clock"].expired and rnd.status == Round.Status.PUBLISHED:
            context["tables"] = _tables_with_end_roll(tournament, rnd)
    template = "formats/clock_public.html#clock-tables" if request.htmx else "formats/clock_public.html"
    return render(request, template, context)


def _record_roll(request, table, form, by_arbiter):
    data = form.cleaned_data
    registration = None if by_arbiter else registration_of_table(table, data.get("registration"))
    entry = clock.end_roll_record(user=request.user, table=table, registration=registration,
                                  roll=data.get("roll"), skipped=data.get("skipped", False))
    if entry.ends_game:
        messages.success(request, _("The game is over: enter the table's result."))


def _record_out(request, table, form, _by_arbiter):
    registration = registration_of_table(table, form.cleaned_data["registration"])
    clock.end_roll_player_out(user=request.user, table=table, registration=registration)
    messages.success(request, _("%(name)s is out of the game.") % {"name": registration.player.full_name})


@login_required
def end_roll_page(request, pk, number, table_number):
    """One table's end roll: whose roll it is, the sums that end the game; the arbiter records every
    roll (and every player eliminated) until one ends the game."""
    tournament = tournament_for_arbiter(request.user, pk)
    rnd, table = table_of(tournament, number, table_number)
    seats = table_seats(table)
    by_arbiter = end_roll(tournament.end_roll_variant, 1).by_arbiter
    state = end_roll_state(table, tournament.end_roll_variant, seats=seats)
    posted = request.POST.get("form", "roll") if request.method == "POST" else None
    form = EndRollForm(request.POST if posted == "roll" else None, seats=[s for s in seats if
                       s.registration_id not in state.out], by_arbiter=by_arbiter)
    out_form = PlayerOutForm(request.POST if posted == "out" else None, seats=seats, out=state.out)
    status = 200
    if posted:
        bound, record = (out_form, _record_out) if posted == "out" else (form, _record_roll)
        if bound.is_valid():
            try:
                record(request, table, bound, by_arbiter)
            except ValidationError as exc:
                add_service_errors(bound, exc)
            else:
                return redirect("arbiter:endroll", pk=pk, number=number, table_number=table_number)
        status = 400
    if state.next_registration is not None and not form.is_bound:
        form.initial["registration"] = state.next_registration.pk
    return render(request, "formats/endroll.html", {
        "tournament": tournament, "round": rnd, "table": table, "seats": seats, "form": form, "state": state,
        "out_form": out_form, "by_arbiter": by_arbiter, **_clock_context(rnd)}, status=status)


@login_required
@require_POST
def end_roll_undo(request, pk, number, table_number):
    tournament = tournament_for_arbiter(request.user, pk)
    _rnd, table = table_of(tournament, number, table_number)
    run_with_message(request, clock.end_roll_undo, _("Last roll taken back."), user=request.user, table=table)
    return redirect("arbiter:endroll", pk=pk, number=number, table_number=table_number)
