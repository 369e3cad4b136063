"""The round clock and the end roll ("sdadata") of timed games (SCORING.md section 10; seeds 004, 000, 003).

The organiser starts the clock of a published round (default 90 minutes); when it runs out, each
table plays the end roll: the arbiter records every roll until one ends the game. The rules (which
sums end the game in which extra round) come from scoring.endroll; the reads (the clock's state, a
table's end roll so far) are in `tables.clock.selectors`.
"""
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring.endroll import end_roll, roll_order
from tables.clock.selectors import DEFAULT_MINUTES, _events, clock_state
from tables.models import Round, Table
from tournaments.audit.services import audit
from tournaments.models import EndRoll

MAX_MINUTES = 300


@transaction.atomic
def clock_start(*, user, rnd, minutes=DEFAULT_MINUTES, started_at=None):
    """Start (or restart) the round clock: seed 004, games last 90 to 105 minutes.

    `started_at`: when the round really began, for a clock started late (default: now)."""
    rnd = Round.objects.select_for_update().select_related("tournament").get(pk=rnd.pk)
    if rnd.status != Round.Status.PUBLISHED:
        raise ValidationError(_("The clock runs only for a round whose seating is published and not closed."))
    if not isinstance(minutes, int) or not 1 <= minutes <= MAX_MINUTES:
        raise ValidationError({"minutes": _("Minutes from 1 to %(max)d.") % {"max": MAX_MINUTES}})
    now = timezone.now()
    if started_at is not None and started_at > now:
        raise ValidationError(_("The clock cannot start in the future."))
    before = {"started_at": rnd.clock_started_at, "minutes": rnd.clock_minutes}
    rnd.clock_started_at = started_at or now
    rnd.clock_minutes = minutes
    rnd.save(update_fields=["clock_started_at", "clock_minutes"])
    audit(user=user, action="clock.start", obj=rnd, tournament=rnd.tournament, before=before,
          after={"started_at": rnd.clock_started_at, "minutes": minutes, "round": rnd.number})
    return rnd


@transaction.atomic
def clock_stop(*, user, rnd):
    """Stop and reset the clock (started by mistake, or to start it again)."""
    rnd = Round.objects.select_for_update().select_related("tournament").get(pk=rnd.pk)
    if rnd.clock_started_at is None:
        raise ValidationError(_("The clock of this round is not running."))
    before = {"started_at": rnd.clock_started_at, "minutes": rnd.clock_minutes}
    rnd.clock_started_at = None
    rnd.save(update_fields=["clock_started_at"])
    audit(user=user, action="clock.stop", obj=rnd, tournament=rnd.tournament, before=before,
          after={"started_at": None, "round": rnd.number})
    return rnd


# --- end roll --------------------------------------------------------------------------------------

def _locked_table(table):
    """The table, locked, once checked that its end roll can go on."""
    table = Table.objects.select_for_update().select_related("round__tournament").get(pk=table.pk)
    if table.round.status != Round.Status.PUBLISHED:
        raise ValidationError(_("The round is not in play."))
    if not clock_state(table.round).expired:
        raise ValidationError(_("The round's time is not up yet: the end roll starts when the clock runs out."))
    if table.reported:
        raise ValidationError(_("This table already has its result."))
    rolls = list(EndRoll.objects.filter(table=table).order_by("pk"))
    if any(r.ends_game for r in rolls):
        raise ValidationError(_("The game is already over: enter the table's result."))
    return table, rolls


def _seated(table):
    return list(table.seats.order_by("position"))


@transaction.atomic
def end_roll_record(*, user, table, registration=None, roll=None, skipped=False):
    """Record one roll of the end of a timed game; the game ends on a sum of the extra round's list
    (seed 004: 4; 4-5; 4-6; 4-7; variants "or less", Lariana, Firenze). A player who conquered 3 or
    more territories in the turn does not roll (`skipped`). The extra round follows the turn order of
    the players still in the game (scoring.endroll.roll_order)."""
    table, rolls = _locked_table(table)
    rnd, tournament = table.round, table.round.tournament
    variant = tournament.end_roll_variant
    by_arbiter = end_roll(variant, 1).by_arbiter
    if by_arbiter:
        registration, skipped = None, False
        if roll is None or not 1 <= roll <= 6:
            raise ValidationError({"roll": _("The arbiter rolls one die: 1 to 6.")})
        extra = rolls[-1].extra_round + 1 if rolls else 1
    else:
        seats = _seated(table)
        if registration is None or registration.pk not in {s.registration_id for s in seats}:
            raise ValidationError({"registration": _("Choose a player of this table.")})
        order = roll_order([s.registration_id for s in seats], _events(rolls) + [(registration.pk, "roll")])
        if registration.pk in order.out:
            raise ValidationError({"registration": _("%(name)s is out of the game.")
                                   % {"name": registration.player.full_name}})
        if skipped:
            roll = None
        elif roll is None or not 2 <= roll <= 12:
            raise ValidationError({"roll": _("Two dice make 2 to 12.")})
        extra = order.extra_rounds[-1]
    ends = roll is not None and roll in end_roll(variant, extra).ending
    entry = EndRoll.objects.create(table=table, extra_round=extra, registration=registration, roll=roll,
                                   ends_game=ends, variant=variant, recorded_by=user)
    audit(user=user, action="endroll.record", obj=entry, tournament=tournament,
          player=registration.player if registration else None, table_label=f"{rnd.number}/{table.number}",
          after={"extra_round": extra, "roll": roll, "skipped": skipped, "ends_game": ends, "variant": variant})
    return entry


@transaction.atomic
def end_roll_player_out(*, user, table, registration):
    """Record that a player was eliminated (before or during the end roll): they leave the turn order.
    Seed 004 casebook: when the last player of the round is out, the player before them takes their
    place as the first to roll, or starts the next extra round if the rolls have begun."""
    table, rolls = _locked_table(table)
    tournament = table.round.tournament
    if end_roll(tournament.end_roll_variant, 1).by_arbiter:
        raise ValidationError(_("The arbiter rolls for the whole table: eliminations do not change the roll."))
    seats = _seated(table)
    if registration is None or registration.pk not in {s.registration_id for s in seats}:
        raise ValidationError({"registration": _("Choose a player of this table.")})
    order = roll_order([s.registration_id for s in seats], _events(rolls))
    if registration.pk in order.out:
        raise ValidationError({"registration": _("%(name)s is out of the game.")
                               % {"name": registration.player.full_name}})
    if len(seats) - len(order.out) <= 2:
        raise ValidationError(_("Only one player would be left: the game is over, enter the table's result."))
    extra = rolls[-1].extra_round if rolls else 0
    entry = EndRoll.objects.create(table=table, extra_round=extra, registration=registration, roll=None,
                                   eliminated=True, variant=tournament.end_roll_variant, recorded_by=user)
    audit(user=user, action="endroll.out", obj=entry, tournament=tournament, player=registration.player,
          table_label=table.audit_label, after={"eliminated": True, "extra_round": extra})
    return entry


@transaction.atomic
def end_roll_undo(*, user, table):
    """Take back the last roll recorded at a table (a typing mistake); the log keeps both."""
    table = Table.objects.select_for_update().select_related("round__tournament").get(pk=table.pk)
    if table.reported:
        raise ValidationError(_("This table already has its result."))
    last = EndRoll.objects.filter(table=table).select_related("registration__player").order_by("-pk").first()
    if last is None:
        raise ValidationError(_("No roll to take back."))
    before = {"extra_round": last.extra_round, "roll": last.roll, "ends_game": last.ends_game,
              "eliminated": last.eliminated, "player": last.registration.player.full_name if last.registration else None}
    last.delete()
    audit(user=user, action="endroll.undo", obj=table, tournament=table.round.tournament,
          table_label=table.audit_label, before=before, after=None)
    return table
