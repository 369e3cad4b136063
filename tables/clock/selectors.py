"""Reads of the round clock and the end roll ("sdadata") of timed games (SCORING.md section 10; seeds
004, 000, 003): where the clock stands, the round in play, and each table's end roll so far and whose
roll is next (the rules come from scoring.endroll). The writes are in `tables.clock.services`."""
import datetime
from dataclasses import dataclass

from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scoring.endroll import ROUNDS_BEFORE_ROLLING, end_roll, roll_order
from tables.models import Round
from tournaments.models import EndRoll, Registration

INSTRUCTIONS = {
    "standard": gettext_lazy("The round in progress when time runs out is the second-to-last. After the last "
                             "round each player, at the end of their turn, rolls two dice. A player who "
                             "conquered 3 or more territories in the turn does not roll."),
    "or_less": gettext_lazy("The round in progress when time runs out is the second-to-last. After the last "
                            "round each player, at the end of their turn, rolls two dice. A player who "
                            "conquered 3 or more territories in the turn does not roll."),
    "lariana": gettext_lazy("When time runs out, play 3 more rounds (the one in progress included); then each "
                            "player, at the end of their turn, rolls two dice, starting with the player whose "
                            "turn it was when time ran out: choose them for the first roll."),
    "firenze": gettext_lazy("When time runs out, the players finish the round in progress; then the arbiter "
                            "rolls one die at the end of every round."),
}


@dataclass
class ClockState:
    started_at: datetime.datetime | None
    minutes: int
    deadline: datetime.datetime | None
    remaining_seconds: int | None
    expired: bool

    @property
    def running(self):
        return self.started_at is not None and not self.expired


DEFAULT_MINUTES = 90  # a round's clock unless the organiser says otherwise


def clock_state(rnd, now=None):
    """Where the round clock stands: not started, running (seconds left) or run out."""
    now = now or timezone.now()
    if rnd.clock_started_at is None:
        return ClockState(None, rnd.clock_minutes, None, None, False)
    deadline = rnd.clock_started_at + datetime.timedelta(minutes=rnd.clock_minutes)
    remaining = max(0, int((deadline - now).total_seconds()))
    return ClockState(rnd.clock_started_at, rnd.clock_minutes, deadline, remaining, now >= deadline)


def live_round(tournament):
    """The round in play (seating published, not closed), else the latest published one."""
    rounds = tournament.rounds.exclude(status=Round.Status.DRAFT)
    return rounds.filter(status=Round.Status.PUBLISHED).order_by("-number").first() or \
        rounds.order_by("-number").first()


# --- end roll --------------------------------------------------------------------------------------

def ending_label(rule):
    """'4', '4, 5', '5 or less', '1 or 2' (die): what ends the game in an extra round."""
    faces = sorted(rule.ending)
    if rule.variant == "or_less":
        return _("%(n)d or less") % {"n": faces[-1]}
    if len(faces) == 1:
        return str(faces[0])
    return _("%(list)s or %(last)d") % {"list": ", ".join(str(f) for f in faces[:-1]), "last": faces[-1]}


@dataclass
class EndRollState:
    variant: str
    rolls: list
    ended: bool
    extra_round: int            # the extra round of the next roll (of the suggested player)
    rule: object                # scoring.endroll.EndRoll for that round
    next_registration: object   # whose roll it is (None: the arbiter rolls, or nobody is left)
    rounds_before_rolling: int
    out: frozenset = frozenset()  # registration ids eliminated

    @property
    def ending(self):
        return ending_label(self.rule)

    @property
    def probability_percent(self):
        return round(float(self.rule.probability) * 100, 1)

    @property
    def instructions(self):
        return INSTRUCTIONS[self.variant]


def _events(rolls):
    return [(r.registration_id, "out" if r.eliminated else "skip" if r.roll is None else "roll")
            for r in rolls if r.registration_id is not None]


def _order(rolls, seats, by_arbiter):
    """scoring.endroll.roll_order of the table: seats in turn order, the last seat last."""
    if by_arbiter:
        return None
    return roll_order([s.registration_id for s in seats], _events(rolls))


def end_roll_state(table, variant, seats=None):
    """The end roll of one table: rolls so far, whether the game is over, whose roll it is next and in
    which extra round (seed 004 and its casebook, scoring.endroll.roll_order)."""
    rolls = list(EndRoll.objects.filter(table=table).select_related("registration__player").order_by("pk"))
    seats = seats if seats is not None else list(table.seats.select_related("registration__player")
                                                 .order_by("position"))
    by_arbiter = end_roll(variant, 1).by_arbiter
    order = _order(rolls, seats, by_arbiter)
    if order is None:
        extra = rolls[-1].extra_round + 1 if rolls else 1
        next_reg, out = None, frozenset()
    else:
        registrations = {s.registration_id: s.registration for s in seats}
        extra, next_reg, out = order.next_extra_round, registrations.get(order.next_player), order.out
    return EndRollState(variant, rolls, any(r.ends_game for r in rolls), extra, end_roll(variant, extra),
                        next_reg, ROUNDS_BEFORE_ROLLING[variant], out)


def registration_of_table(table, registration_id):
    """The registration seated at `table` with this id, or None."""
    try:
        return Registration.objects.get(pk=registration_id, seats__table=table)
    except (Registration.DoesNotExist, ValueError, TypeError):
        return None
