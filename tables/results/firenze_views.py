"""The Firenze points sheet on the arbiter's phone (SCORING.md 8.1, seed 003)."""
from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.formats import number_format
from django.utils.translation import gettext_lazy

from tables.results import firenze
from tables.rounds.selectors import table_of, table_seats
from tables.results.services import StaleResult
from tournaments.forms import NumericInput
from tournaments.rules import staff_role, tournament_for_arbiter

LABELS = {
    "objective_territories": gettext_lazy("Objective territories held (35)"),
    "adjacent_territories": gettext_lazy("Other territories next to an unconquered objective territory (15)"),
    "other_territories": gettext_lazy("Remaining territories (10)"),
    "protected_territories": gettext_lazy("Protected territories, bordering no opponent (+15)"),
    "armies": gettext_lazy("Armies on the board (0.5)"),
    "cards": gettext_lazy("Cards in hand (1)"),
    "continents": gettext_lazy("Continents conquered (%(points)s each, set by the organiser)"),
    "unconquered_adjacent": gettext_lazy("Unconquered objective territories next to one's own (ties only)"),
}


class SheetForm(forms.Form):
    """One player's counts; the rules live in scoring.firenze."""

    def __init__(self, *args, continent_points=0, **kwargs):
        super().__init__(*args, **kwargs)
        for name in firenze.COUNTS:
            label = LABELS[name]
            if name == "continents":
                label = label % {"points": number_format(
                    continent_points, decimal_pos=0 if continent_points == int(continent_points) else 2)}
            # Continents: left empty is none (a sheet counted before the setting existed has none).
            self.fields[name] = forms.IntegerField(label=label, min_value=0, required=name != "continents",
                                                   max_value=6 if name == "continents" else 999, initial=0,
                                                   widget=NumericInput(decimals=False))

    def clean_continents(self):
        return self.cleaned_data.get("continents") or 0


def _sheet_forms(data, seats, continent_points):
    """One form per seat, holding its saved counts unless `data` was posted."""
    forms_ = []
    for i, seat in enumerate(seats):
        initial = {k: (seat.firenze or {}).get(k, 0) for k in firenze.COUNTS}
        form = SheetForm(data, prefix=f"p{i}", initial=initial, continent_points=continent_points)
        form.seat_obj = seat
        forms_.append(form)
    return forms_


@login_required
def firenze_sheet(request, pk, number, table_number):
    tournament = tournament_for_arbiter(request.user, pk)
    rnd, table = table_of(tournament, number, table_number)
    seats = table_seats(table)
    data = request.POST if request.method == "POST" else None
    forms_ = _sheet_forms(data, seats, tournament.firenze_continent_points)
    errors, conflict = [], None
    if data is not None:
        lot = data.get("lot_winner", "")
        if all(f.is_valid() for f in forms_):
            try:
                version = int(data.get("version", ""))
            except ValueError:
                version = -1
            try:
                firenze.firenze_sheet_submit(
                    user=request.user, table=table, version=version,
                    counts={f.seat_obj.pk: f.cleaned_data for f in forms_},
                    lot_winner=int(lot) if lot.isdecimal() else None)
            except StaleResult as exc:
                # The form now holds what the other arbiter saved, not the rejected counts: saving
                # again on the new version is a choice, never a silent overwrite.
                conflict = exc.table
                seats = table_seats(conflict)
                conflict.saved_seats = seats
                forms_ = _sheet_forms(None, seats, tournament.firenze_continent_points)
            except ValidationError as exc:
                errors.extend(exc.messages)
            else:
                messages.success(request, _("Sheet of table %(t)d saved.") % {"t": table.number})
                return redirect("arbiter:firenze_sheet", pk=pk, number=number, table_number=table_number)
        else:
            errors.append(_("Please correct the errors below: nothing was saved."))
    table.refresh_from_db()
    return render(request, "tables/firenze_sheet.html", {
        "tournament": tournament, "round": rnd, "table": table, "forms": forms_, "errors": errors,
        "conflict": conflict, "saved": firenze.sheet_rows(table) if table.reported and any(
            s.firenze for s in seats) else None, "applies": firenze.sheet_applies(tournament),
        "role": staff_role(request.user, tournament)},
        status=409 if conflict else (400 if errors else 200))
