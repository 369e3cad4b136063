"""The one writer of seat results' fields (SCORING.md section 2): every way a result is saved
(typed table points, the territory calculator, the offline queue, the Firenze sheet:
`tables.results.services`) and a seating change's erasing (`results_clear`, called by
`tables.rounds.services`) writes a seat's result fields through `write_seat_results`. It sits below
the rounds (which erase) and the results' services (which save)."""
from django.db.models import F

from tables.models import Table
from tournaments.audit.services import audit_many

RESULT_FIELDS = ("table_points", "risiko", "eliminated", "place", "territories", "armies", "firenze")


def seat_result(seat):
    """A seat's result fields, as the audit log records them before and after a change."""
    return {f: getattr(seat, f) for f in RESULT_FIELDS}


def write_seat_results(*, user, table, results, audit_entry=None):
    """The one place a seat's result fields are written. `results`: (seat, {field: value}) pairs, the
    fields among RESULT_FIELDS; `audit_entry(seat, before, after)` gives
    the seat's audit entry (a dict of action, before and after) or None for no entry, where
    before/after are the seat's RESULT_FIELDS.
    Call it inside the transaction of the change."""
    entries = []
    for seat, values in results:
        before = seat_result(seat)
        for field, value in values.items():
            setattr(seat, field, value)
        # One UPDATE a seat: cheaper than one UPDATE for the table (bulk_update's CASE expressions
        # cost more to build than the round trips they save).
        seat.save(update_fields=list(values))
        entry = audit_entry(seat, before, seat_result(seat)) if audit_entry else None
        if entry is not None:
            entries.append(dict(user=user, obj=seat, tournament=table.round.tournament,
                                player=seat.registration.player, table_label=table.audit_label, **entry))
    if entries:
        audit_many(entries)  # the table's entries in one INSERT


BLANK_RESULT = {"table_points": None, "risiko": False, "eliminated": None, "place": None, "territories": [],
                "armies": None, "firenze": None}


def results_clear(table_ids):
    """A confirmed change of seating voids the results of the tables it touches: they are entered again.

    Returns what was erased, {"round/table": {player: {field: value}}}, for the seating change's audit
    entry (the caller writes it)."""
    reported = Table.objects.filter(pk__in=table_ids, reported_at__isnull=False).select_related("round")
    erased = {}
    for table in reported.order_by("number"):
        seats = list(table.seats.select_related("registration__player").order_by("position"))
        for seat in seats:
            erased.setdefault(table.audit_label, {})[seat.registration.player.full_name] = seat_result(seat)
        write_seat_results(user=None, table=table, results=[(seat, {**BLANK_RESULT, "territories": []}) for seat in seats])
    if erased:
        reported.update(reported_at=None, reported_by=None, version=F("version") + 1)
    return erased
