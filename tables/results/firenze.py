"""The Firenze points sheet at the table (SCORING.md 8.1; seed 003, "Condizione di vittoria").

When a knockout game of the Firenze format ends by time, the arbiter enters each player's counts on
the phone; scoring.firenze computes the sheet, the order and its tie-break chain, and the sheet
decides the table: the totals (above 200 allowed) are the seats' table points, the places follow
the sheet, not the objective table points.

Decisions where the seed is silent (stated on the format's help page):
- the sheet decides tables of knockout formats only, where points do not count for a standings;
- a player eliminated before time gets an empty sheet (0) and the last places;
- a complete draw on the sheet for first place ("ultima risorsa il sorteggio") is settled by a lot
  drawn at the table: the arbiter names its winner, the others tied share 2nd place.
"""
from decimal import Decimal

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scoring.errors import ScoringError
from scoring.firenze import FirenzeSheet, deciding_tie_break, firenze_order
from tables.models import Round, Table
from tables.results.services import claim_version, require_correction_allowed
from tables.results.writer import write_seat_results

COUNTS = ("objective_territories", "adjacent_territories", "other_territories", "protected_territories",
          "armies", "cards", "continents", "unconquered_adjacent")
SHEET_FIELDS = ("table_points", "place", "firenze")

# scoring.firenze rule codes in the interface's language.
MESSAGES = {
    "firenze_count": gettext_lazy("counts are whole numbers from 0"),
    "firenze_territories": gettext_lazy("a player holds at most 42 territories"),
    "firenze_protected": gettext_lazy("protected territories are among the held ones"),
    "firenze_continents": gettext_lazy("there are 6 continents"),
}


def sheet_applies(tournament):
    return tournament.format_preset.startswith("knockout")


@transaction.atomic
def firenze_sheet_submit(*, user, table, counts, version, lot_winner=None):
    """Save the sheet of a table: `counts` maps each seat id to its counts (COUNTS); `lot_winner`, a
    seat id, settles a draw for first place. Returns the table; refuses a save on an older version."""
    table = Table.objects.select_related("round__tournament").get(pk=table.pk)
    tournament = table.round.tournament
    if not sheet_applies(tournament):
        raise ValidationError(_("The Firenze points sheet decides the tables of knockout formats only."))
    if table.round.status == Round.Status.DRAFT:
        raise ValidationError(_("The seating of this round is not published yet."))
    require_correction_allowed(user=user, table=table)
    seats = {s.pk: s for s in table.seats.select_related("registration__player")}
    if sorted(seats) != sorted(counts):
        raise ValidationError(_("The result must list exactly the players of the table."))
    sheets = [FirenzeSheet(player=seat_id, **{k: counts[seat_id].get(k, 0) for k in COUNTS}) for seat_id in seats]
    try:
        rows = firenze_order(sheets, continent_value=tournament.firenze_continent_points)
    except ScoringError as exc:
        name = seats[exc.player].registration.player.full_name if exc.player in seats else ""
        raise ValidationError("%s: %s" % (name, MESSAGES.get(exc.code, exc.detail))) from None
    places = {row.player: row.place for row in rows}
    tied = [row.player for row in rows if row.place == 1]
    if len(tied) > 1:
        if lot_winner not in tied:
            raise ValidationError(_("The sheet ends in a draw between %(names)s: draw lots at the table and name "
                                    "the winner.") % {"names": ", ".join(seats[p].registration.player.full_name
                                                                       for p in tied)})
        for p in tied:
            places[p] = 1 if p == lot_winner else 2
    claim_version(table=table, version=version, user=user)

    def entry(seat, before, after):
        sheet_before = {f: before[f] for f in SHEET_FIELDS}
        return dict(action="result.firenze", before=sheet_before if sheet_before["table_points"] is not None
                    else None, after={f: after[f] for f in SHEET_FIELDS})

    write_seat_results(user=user, table=table, audit_entry=entry, results=[
        (seats[row.player], {
            "table_points": row.points, "place": places[row.player],
            "firenze": {**{k: counts[row.player].get(k, 0) for k in COUNTS}, "points": str(row.points),
                        "lot": row.player == lot_winner and len(tied) > 1},
            "risiko": False, "eliminated": None, "territories": [], "armies": counts[row.player].get("armies")})
        for row in rows])
    table.refresh_from_db()
    return table


TIE_BREAK_LABELS = {
    "objective_territories": gettext_lazy("more objective territories"),
    "territories": gettext_lazy("more territories"),
    "unconquered_adjacent": gettext_lazy("more unconquered objective territories next to their own"),
    "protected_territories": gettext_lazy("more protected territories"),
    "armies": gettext_lazy("more armies"),
}


def sheet_rows(table):
    """The seats of a table with their saved sheet, best first, and for a seat level on points with
    the one above it the step of the tie-break chain that decided (or the lot): (seat, points, why)."""
    seats = [s for s in table.seats.select_related("registration__player").order_by("place", "position")
             if s.firenze]
    rows, previous = [], None
    for seat in seats:
        sheet = FirenzeSheet(player=seat.pk, **{k: seat.firenze.get(k, 0) for k in COUNTS})
        points = Decimal(seat.firenze["points"])
        why = None
        if previous is not None and previous[1] == points:
            step = deciding_tie_break(previous[0], sheet)
            if step:
                why = _("Level on points with the player above, who has %(what)s.") % {
                    "what": TIE_BREAK_LABELS[step]}
            elif previous[2].firenze.get("lot"):
                why = _("Level on everything with the player above: decided by lot.")
            else:
                why = _("Level on everything with the player above: same place.")
        rows.append((seat, points, why))
        previous = (sheet, points, seat)
    return rows
