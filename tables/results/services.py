"""Saving seat results (SCORING.md section 2): typed table points, the territory calculator, the
offline queue's saves (`table_result_save`, `table_result_submit`), the Firenze sheet
(`tables.results.firenze`), each writing a seat's result fields through
`tables.results.writer.write_seat_results`. Also: saving on the version the form was loaded with, and
who may correct a table once the round's standings are published."""
from dataclasses import dataclass
from decimal import Decimal

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from tables import engine
from tables.models import Dispute, ResultSubmission, Round, Table
from tables.results.selectors import submission_applied
from tables.results.writer import write_seat_results
from tournaments.rules import may_correct_result

@dataclass
class ResultLine:
    seat_id: int
    table_points: Decimal | None
    risiko: bool = False
    eliminated: int | None = None
    place: int | None = None
    territories: tuple = ()
    armies: int | None = None


class AlreadyApplied(Exception):
    """This submission (the phone's id for one save) was applied before: nothing more to do."""

    def __init__(self, table):
        super().__init__("already applied")
        self.table = table


class StaleResult(Exception):
    """The table was saved by someone else since the form was loaded."""

    def __init__(self, table):
        super().__init__("stale result")
        self.table = table


class ResultQuestion(Exception):
    """A result the rules accept but that looks like a slip (`questions`): asked before it is saved."""

    def __init__(self, asked):
        super().__init__("confirm")
        self.asked = asked


def questions(lines):
    """What to ask the arbiter before saving a result the rules accept but that is most likely a slip:
    everybody at 0 table points, or players level on table points with no place given to tell them
    apart (no order of elimination, no armies counted). Empty: nothing to ask."""
    typed = [line for line in lines if line.table_points is not None or line.territories]
    asked = []
    if typed and len(typed) == len(lines) and all(not line.table_points and not line.territories
                                                 and not line.risiko for line in lines):
        asked.append(_("Every player has 0 table points."))
    level = {}
    for line in lines:
        if line.table_points and line.eliminated is None and not line.risiko:
            level.setdefault(Decimal(line.table_points), []).append(line)
    for points, tied in sorted(level.items(), reverse=True):
        if len(tied) > 1 and any(line.place is None for line in tied) and \
                any(line.armies is None for line in tied):
            asked.append(_("%(n)d players are level on %(points)s table points and no place is given.")
                         % {"n": len(tied), "points": f"{points.normalize():f}"})
    return asked


def claim_version(*, table, version, user):
    """Mark the table reported by `user` on the next version, if it is still on `version`; else StaleResult
    with what was saved. One UPDATE: of two concurrent saves on the same version exactly one wins."""
    updated = Table.objects.filter(pk=table.pk, version=version).update(
        version=F("version") + 1, reported_at=timezone.now(), reported_by=user)
    if updated != 1:
        table.refresh_from_db()
        raise StaleResult(table)


def require_correction_allowed(*, user, table):
    """Once a round's standings are published, its results change only through the arbitration: the
    organiser (or an administrator) corrects, or an arbiter corrects a table while a dispute about its
    result (or about the published standings) is open, and upholding that dispute links the
    correction. Otherwise the arbiter is refused with the rule."""
    rnd = table.round
    open_disputes = Dispute.objects.filter(tournament_id=rnd.tournament_id, state=Dispute.State.OPEN).filter(
        Q(about=Dispute.About.RESULT, table=table) | Q(about=Dispute.About.STANDING))
    if not may_correct_result(user, table, open_disputes):
        raise ValidationError(_(
            "The standings of round %(round)d are published: a correction of table %(table)d is a dispute "
            "decision. Record the dispute about this table's result first, or ask the organiser.")
            % {"round": rnd.number, "table": table.number})


def table_result_save(*, user, table, lines, version, submission=None, confirmed=False):
    """A table's result sent from an arbiter's phone (its result page or its offline queue): what looks
    like a slip (`questions`) is asked first, as ResultQuestion, unless the arbiter `confirmed` it; then
    `table_result_submit`, with its exceptions."""
    asked = [] if confirmed else questions(lines)
    if asked:
        _refuse_before_asking(table, lines)
        raise ResultQuestion(asked)
    return table_result_submit(user=user, table=table, lines=lines, version=version, submission=submission)


def _refuse_before_asking(table, lines):
    """A result the rules refuse is refused before anything is asked about it: under `maialino_2024` (one
    winner, SCORING.md 13.5) players level on top with no place are not a slip to confirm but a tie the
    arbiter must settle."""
    table = Table.objects.select_related("round__tournament").get(pk=table.pk)
    seats = {s.pk: s for s in table.seats.select_related("registration__player")}
    if sorted(seats) == sorted(line.seat_id for line in lines):
        engine.settle_result(table=table, seats=seats, lines=lines)


@transaction.atomic
def table_result_submit(*, user, table, lines, version, submission=None):
    """Save a table's result (SCORING.md section 2), refusing a save made on an older version.

    Of two concurrent saves on the same version exactly one wins; the other gets StaleResult with
    what the winner saved (`claim_version`).
    `submission` is the phone's id for this save (a UUID): one already applied raises
    AlreadyApplied and changes nothing; it is stored, and written in the save's audit entries."""
    table = Table.objects.select_related("round", "round__tournament").get(pk=table.pk)
    if submission_applied(table, submission):
        raise AlreadyApplied(table)
    if table.round.status == Round.Status.DRAFT:
        raise ValidationError(_("The seating of this round is not published yet."))
    require_correction_allowed(user=user, table=table)
    seats = {s.pk: s for s in table.seats.select_related("registration__player")}
    if sorted(seats) != sorted(line.seat_id for line in lines):
        raise ValidationError(_("The result must list exactly the players of the table."))
    lines = engine.settle_result(table=table, seats=seats, lines=lines)
    claim_version(table=table, version=version, user=user)
    if submission is not None:
        ResultSubmission.objects.create(key=submission, table=table, user=user if user.is_authenticated else None)

    def entry(seat, before, after):
        if before == after:
            return None
        return dict(action="result.correct" if before["table_points"] is not None else "result.enter",
                    before=before, after={**after, "submission": str(submission)} if submission is not None else after)

    # Typed table points replace a Firenze sheet (tables.results.firenze).
    write_seat_results(user=user, table=table, audit_entry=entry, results=[
        (seats[line.id], {"table_points": line.table_points, "risiko": line.risiko, "eliminated": line.eliminated,
                          "place": line.place, "territories": list(line.territories), "armies": line.armies,
                          "firenze": None}) for line in lines])
    table.refresh_from_db()
    return table
