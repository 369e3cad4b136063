"""Rounds: draw, preview, swap, publish; table sheets; meetings; round dashboard; the public round page
(result entry at the tables is in `results_views`)."""
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_safe, require_POST

from tables import engine
from tables.rounds import drafts
from tables.rounds import services
from tables.forms import SEATING_METHODS, DrawForm
from tables.models import Seat
from tables.rounds.qr import qr_svg
from tables.rounds.selectors import (closest_names, free_draw, meetings_matrix, off_size_tables, open_round, public_round_tables,
                                    round_label, round_of, round_with_tables, seat_of_round, tournament_rounds,
                                    waiting_for_final)
from tables.rounds.inputs import present_registrations, round_penalties
from tables.standings.selectors import format_next_step, format_plan
from tournaments.rules import may_reopen_round, tournament_for_organiser, tournament_for_public
from tournaments.text import posted_id

SELECTED_SEAT = "seat-selected-{}"


def _errors(exc):
    return " ".join(exc.messages)


# --- organiser: rounds -----------------------------------------------------------------------

@login_required
def rounds(request, pk):
    """The rounds of a tournament and the form that draws the next one."""
    tournament = tournament_for_organiser(request.user, pk)
    present = present_registrations(tournament)
    all_rounds = list(tournament_rounds(tournament))
    current = open_round(all_rounds)
    step = format_next_step(tournament)
    outside = step.kind != "free" and not step.draw_is_format
    # Bound on every POST, even an empty one: the error below is added to a validated form.
    form = DrawForm(request.POST if request.method == "POST" else None, present=len(present),
                    outside_format=outside and not step.outside_refused)
    if request.method == "POST" and outside and _outside_format_refused(form, step):
        pass
    elif request.method == "POST" and len(present) < 3:
        form.is_valid()
        form.add_error(None, ngettext("At least 3 players must be checked in to draw a round: %(n)d is.",
                                      "At least 3 players must be checked in to draw a round: %(n)d are.",
                                      len(present)) % {"n": len(present)})
    elif request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            plan = _parse_plan(data.get("plan"), present) if data["method"] == "fixed" else None
            rnd = services.round_create(user=request.user, tournament=tournament, method=data["method"],
                                        sizes=data.get("sizes"), seed=data.get("seed"), fixed_plan=plan)
        except ValidationError as exc:
            form.add_error(None, exc.messages)
        else:
            for notice in rnd.notices:
                messages.warning(request, notice)
            odd = off_size_tables(rnd)
            if odd:
                messages.warning(request, _("With %(n)d players present, tables of %(sizes)s players were needed.")
                                 % {"n": len(present), "sizes": ", ".join(map(str, odd))})
            return redirect("manage:round", pk=pk, number=rnd.number)
    return render(request, "tables/rounds.html", {"tournament": tournament, "rounds": all_rounds,
                                                  "form": form, "present": present, "open_round": current,
                                                  "next_number": all_rounds[-1].number + 1 if all_rounds else 1,
                                                  "step": step,
                                                  "plan": format_plan(tournament) if not all_rounds else []})


def _outside_format_refused(form, step):
    """A round the format does not plan, drawn on the rounds page: refused where the format allows
    none, else only with its box ticked (the error on the form, True, when refused)."""
    if step.outside_refused:
        form.is_valid()
        form.add_error(None, step.outside_refused)
        return True
    if form.is_valid() and not form.cleaned_data["outside_format"]:
        form.add_error("outside_format", _("The format's next step is “%(step)s”: tick this box to draw a round it "
                                           "does not plan.") % {"step": step.label or step.view.phase.label})
        return True
    return False


def _parse_plan(text, present):
    """'1 5 9 13' per line, numbers of the check-in list (1-based) -> lists of registration ids."""
    rows = []
    for line in (text or "").splitlines():
        parts = [p for p in line.replace(",", " ").split() if p]
        for p in parts:
            if not (p.isdecimal() and 1 <= int(p) <= len(present)):
                raise ValidationError(_("%(value)s is not a number of the check-in list (1 to %(n)d).")
                                      % {"value": p[:20], "n": len(present)})
        if parts:
            rows.append([str(present[int(p) - 1].pk) for p in parts])
    return rows


def _round_context(request, tournament, rnd, error=None, pending=None):
    tables = round_with_tables(rnd)
    penalties = round_penalties(tournament, rnd, tables)
    return {"tournament": tournament, "round": rnd, "tables": tables, "penalties": penalties,
            "selected": request.session.get(SELECTED_SEAT.format(rnd.pk)), "error": error, "pending": pending,
            "has_results": any(t.reported for t in tables), "problems": services.seating_problems(rnd),
            "role": "organiser", "redraw_methods": [(v, label) for v, label in SEATING_METHODS if v != "fixed"],
            "free_draw": free_draw(rnd)}


@login_required
@require_safe
def round_detail(request, pk, number):
    tournament = tournament_for_organiser(request.user, pk)
    rnd = round_of(tournament, number)
    return render(request, "tables/round.html", _round_context(request, tournament, rnd))


@login_required
@require_POST
def seat_tap(request, pk, number):
    """Tap a name to select it; tap a second name to swap the two players."""
    tournament = tournament_for_organiser(request.user, pk)
    rnd = round_of(tournament, number)
    seat = seat_of_round(rnd, request.POST.get("seat", ""))
    key = SELECTED_SEAT.format(rnd.pk)
    selected = request.session.get(key)
    error = pending = None
    other = request.POST.get("swap_with", "")
    if posted_id(other) is not None:  # the confirmation of a named swap (a published knockout draw)
        request.session[key] = selected = posted_id(other)
    if selected is None:
        request.session[key] = seat.pk
    elif selected == seat.pk:
        del request.session[key]
    else:
        del request.session[key]
        try:
            services.seats_swap(user=request.user, rnd=rnd, seat_a=selected, seat_b=seat.pk,
                                confirm=request.POST.get("confirm") == "1")
        except services.DrawChangeUnconfirmed as exc:
            pending = {"text": exc.messages[0], **exc.change}
        except (ValidationError, Seat.DoesNotExist) as exc:
            error = _errors(exc) if isinstance(exc, ValidationError) else _("That player is no longer in the round.")
    return _round_fragment(request, tournament, rnd, error, pending)


def _round_fragment(request, tournament, rnd, error=None, pending=None):
    context = _round_context(request, tournament, rnd, error, pending)
    if request.htmx or pending:
        return render(request, "tables/round.html#seating" if request.htmx else "tables/round.html", context)
    if error:
        messages.error(request, error)
    return redirect("manage:round", pk=tournament.pk, number=rnd.number)


@login_required
@require_POST
def seat_move(request, pk, number):
    tournament = tournament_for_organiser(request.user, pk)
    rnd = round_of(tournament, number)
    error = pending = None
    try:
        table_number = int(request.POST.get("table", ""))
        if not 1 <= table_number <= 200:
            raise ValueError
        services.seat_move(user=request.user, rnd=rnd, seat=int(request.POST.get("seat", "0")),
                           table_number=table_number, confirm=request.POST.get("confirm") == "1")
    except ValueError:
        error = _("Choose a table number.")
    except Seat.DoesNotExist:
        error = _("That player is no longer in the round.")
    except services.DrawChangeUnconfirmed as exc:
        pending = {"text": exc.messages[0], **exc.change}
    except ValidationError as exc:
        error = _errors(exc)
    request.session.pop(SELECTED_SEAT.format(rnd.pk), None)
    return _round_fragment(request, tournament, rnd, error, pending)


ROUND_ACTIONS = {
    "publish": (services.round_publish, gettext_lazy("Seating published.")),
    "redraw": (services.round_redraw, gettext_lazy("Round drawn again.")),
    "reseat": (services.round_reseat, gettext_lazy("Players re-seated.")),
    "close": (services.round_close, gettext_lazy("Round closed.")),
    "reopen": (services.round_reopen, gettext_lazy("Round reopened: its results can be entered and corrected.")),
    "standings": (services.standings_publish, gettext_lazy("Standings published.")),
    "delete": (drafts.round_delete_draft, gettext_lazy("Draft round deleted.")),
}
# A draft drawn again with another method; a fixed plan is written on the rounds page instead.
REDRAW_METHODS = {value for value, _label in SEATING_METHODS if value != "fixed"}


@login_required
@require_POST
def round_action(request, pk, number, action):
    tournament = tournament_for_organiser(request.user, pk)
    rnd = round_of(tournament, number)
    if action not in ROUND_ACTIONS:
        raise Http404
    service, done = ROUND_ACTIONS[action]
    options = {}
    if action == "redraw" and request.POST.get("method") in REDRAW_METHODS:
        options["method"] = request.POST["method"]
    try:
        rnd = service(user=request.user, rnd=rnd, **options)
    except ValidationError as exc:
        messages.error(request, _errors(exc))
    else:
        messages.success(request, done)
        for notice in getattr(rnd, "notices", ()):
            messages.warning(request, notice)
        if action == "publish":
            for warning in _publish_warnings(tournament):
                messages.warning(request, warning)
        if action == "delete":
            return redirect("manage:rounds", pk=pk)
    target = "manage:round_dashboard" if action in ("close", "reopen", "standings") else "manage:round"
    return redirect(target, pk=pk, number=number)


def _publish_warnings(tournament):
    """What the organiser should know once the tables are out: nobody to enter results but them, or
    players who cannot see the tables."""
    warnings = []
    if not tournament.arbiters.exists():
        warnings.append(_("The tournament has no arbiter: only you can enter the results. Add arbiters on the "
                          "“Arbiters” page."))
    if not tournament.published:
        warnings.append(_("The tournament is not published: players cannot see the tables. Tick “Published” "
                          "in the settings."))
    return warnings


@login_required
@require_safe
def round_dashboard(request, pk, number):
    """Which tables have reported, which are missing; close the round; publish standings."""
    tournament = tournament_for_organiser(request.user, pk)
    rnd = round_of(tournament, number)
    tables = round_with_tables(rnd)
    missing = [t.number for t in tables if not t.reported]
    return render(request, "tables/dashboard.html", {
        "step": format_next_step(tournament) if rnd.status == rnd.Status.CLOSED else None,
        "tournament": tournament, "round": rnd, "tables": tables, "reported": len(tables) - len(missing),
        "missing": len(missing), "missing_text": _numbers_text(missing),
        "can_reopen": may_reopen_round(rnd)})


def _numbers_text(numbers):
    """[2, 5, 7] -> "2, 5 e 7" ("2, 5 and 7" in English)."""
    numbers = [str(n) for n in numbers]
    if len(numbers) < 2:
        return "".join(numbers)
    return _("%(first)s and %(last)s") % {"first": ", ".join(numbers[:-1]), "last": numbers[-1]}


@login_required
@require_safe
def table_sheets(request, pk, number):
    """A4 sheets, one per table: players in seat order, blank result boxes, territory values, QR code."""
    tournament = tournament_for_organiser(request.user, pk)
    rnd = round_of(tournament, number)
    tables = round_with_tables(rnd)
    per_page = 2 if request.GET.get("per_page") == "2" else 1
    for table in tables:
        url = request.build_absolute_uri(reverse("arbiter:table", args=[tournament.pk, rnd.number, table.number]))
        table.qr = qr_svg(url)
        table.result_url = url
    return render(request, "tables/sheets.html", {"tournament": tournament, "round": rnd, "tables": tables,
                                                  "per_page": per_page, "continents": engine.territory_groups()})


@login_required
@require_safe
def meetings(request, pk):
    tournament = tournament_for_organiser(request.user, pk)
    matrix = meetings_matrix(tournament)
    return render(request, "tables/meetings.html", {"tournament": tournament, "regs": matrix.regs,
                                                    "matrix": matrix.rows, "worst": matrix.worst,
                                                    "repeats": matrix.repeats})


# --- public ------------------------------------------------------------------------------------

@require_safe
def public_round(request, pk, number):
    """The round's tables on a phone: a player finds their table by name."""
    tournament = tournament_for_public(pk)
    rnd = round_of(tournament, number, published=True)
    query = request.GET.get("q", "").strip()[:60]
    tables = public_round_tables(rnd, query)
    # A player straight to the final, looking for her table during the semifinals, is told so.
    waiting = waiting_for_final(rnd, query)
    found = not query or any(t.match for t in tables) or bool(waiting)
    template = "tables/public_round.html#tables" if request.htmx else "tables/public_round.html"
    return render(request, template, {"tournament": tournament, "round": rnd, "tables": tables, "query": query,
                                      "suggestions": [] if found else closest_names(tables, query),
                                      "found": found, "waiting": waiting, "round_label": round_label(rnd)})
