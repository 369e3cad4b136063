"""Services of the arbiters: penalties (seed 001 art. 20) and disputes (ricorsi, seed 001 art. 2)."""
from decimal import Decimal

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tables.arbitration.selectors import correction_for, dispute_window_closes
from tables.models import Dispute, Penalty, Round
from tournaments.audit.services import audit, snapshot
from tournaments.models import Registration
from tournaments.services import registration_update

PENALTY_FIELDS = ("kind", "points", "reason", "seat", "void_past_results", "withdrawn", "withdrawn_reason")
DISPUTE_FIELDS = ("about", "round", "table", "penalty", "raised_by", "text", "state", "decision")
# A warning may be about one game or about the player's conduct in the whole tournament.
NEEDS_GAME = {Penalty.Kind.GAME_DISQUALIFICATION, Penalty.Kind.FORFEIT}


def _label(seat):
    return seat.table.audit_label if seat else ""


@transaction.atomic
def penalty_give(*, user, tournament, registration, kind, reason, points=Decimal(0), seat=None,
                 internal_note="", void_past_results=False):
    """Record a penalty. Points come off the game (or the total when no game is given), never below 0."""
    errors = {}
    if registration.tournament_id != tournament.pk:
        errors["registration"] = _("This player is not in the tournament.")
    if not (reason or "").strip():
        errors["reason"] = _("A reason is required.")
    if kind == Penalty.Kind.POINTS and not (points and points > 0):
        errors["points"] = _("A points penalty needs more than 0 points.")
    if kind != Penalty.Kind.POINTS and points:
        errors["points"] = _("Only a points penalty takes points.")
    if kind in NEEDS_GAME and seat is None:
        errors["seat"] = _("Choose the game this penalty applies to.")
    if seat is not None and seat.registration_id != registration.pk:
        errors["seat"] = _("That game is not one of this player's.")
    if kind == Penalty.Kind.EXPULSION and seat is not None:
        errors["seat"] = _("An expulsion applies to the whole tournament, not to one game.")
    if errors:
        raise ValidationError(errors)
    # The registration as stored now (locked), not as the caller read it.
    status = Registration.objects.select_for_update().values_list("status", flat=True).get(pk=registration.pk)
    withdraws = kind == Penalty.Kind.EXPULSION and status != Registration.Status.WITHDRAWN
    penalty = Penalty.objects.create(
        tournament=tournament, registration=registration, kind=kind, points=points or Decimal(0),
        reason=reason.strip(), seat=seat, internal_note=internal_note, created_by=user,
        void_past_results=void_past_results if kind == Penalty.Kind.EXPULSION else False,
        withdrew_registration=withdraws)
    audit(user=user, action=f"penalty.{kind}", obj=penalty, tournament=tournament, player=registration.player,
          table_label=_label(seat), after=snapshot(penalty, PENALTY_FIELDS))
    if withdraws:
        # No further rounds: the player is no longer seated.
        registration_update(user=user, registration=registration, action_name="expel",
                            status=Registration.Status.WITHDRAWN)
    return penalty



@transaction.atomic
def penalty_withdraw(*, user, penalty, reason):
    """Withdraw a penalty: it stays in the log, marked withdrawn, and counts no more."""
    penalty = Penalty.objects.select_for_update(of=("self",)) \
        .select_related("registration__player", "seat__table__round").get(pk=penalty.pk)
    if penalty.withdrawn:
        raise ValidationError(_("This penalty is already withdrawn."))
    if not (reason or "").strip():
        raise ValidationError({"reason": _("A reason is required.")})
    before = snapshot(penalty, PENALTY_FIELDS)
    penalty.withdraw(user=user, reason=reason, now=timezone.now())
    penalty.save()
    entry = audit(user=user, action="penalty.withdraw", obj=penalty, tournament=penalty.tournament,
                  player=penalty.registration.player, table_label=_label(penalty.seat), before=before,
                  after=snapshot(penalty, PENALTY_FIELDS))
    # Only the withdrawal the expulsion made is undone: a player who had withdrawn stays withdrawn.
    if penalty.withdrew_registration and penalty.registration.status == Registration.Status.WITHDRAWN:
        registration_update(user=user, registration=penalty.registration, action_name="reinstate",
                            status=Registration.Status.CONFIRMED)
    return entry



def _dispute_round(tournament, about, table, penalty):
    if about == Dispute.About.RESULT:
        return table.round if table else None
    if about == Dispute.About.PENALTY:
        return penalty.seat.table.round if penalty and penalty.seat else \
            tournament.rounds.order_by("-number").first()
    return (tournament.rounds.filter(standings_published_at__isnull=False).order_by("-standings_published_at")
            .first())


@transaction.atomic
def dispute_record(*, user, tournament, about, raised_by, text, table=None, penalty=None, now=None):
    """Record a dispute; refused once the window after the standings' publication has closed."""
    now = now or timezone.now()
    errors = Dispute.text_errors(raised_by, text)
    if about == Dispute.About.RESULT and (table is None or table.round.tournament_id != tournament.pk):
        errors["table"] = _("Choose the table whose result is disputed.")
    if about == Dispute.About.PENALTY and (penalty is None or penalty.tournament_id != tournament.pk):
        errors["penalty"] = _("Choose the disputed penalty.")
    if errors:
        raise ValidationError(errors)
    rnd = _dispute_round(tournament, about, table, penalty)
    rnd = Round.objects.get(pk=rnd.pk) if rnd is not None else None  # fresh: publication time matters
    if about == Dispute.About.STANDING and rnd is None:
        raise ValidationError(_("No standings have been published yet."))
    Dispute.require_window_open(tournament, dispute_window_closes(tournament, rnd), now)
    dispute = Dispute.objects.create(tournament=tournament, about=about, round=rnd, table=table, penalty=penalty,
                                     raised_by=raised_by.strip(), text=text.strip(), recorded_by=user)
    audit(user=user, action="dispute.record", obj=dispute, tournament=tournament,
          table_label=table.audit_label if table else "",
          player=penalty.registration.player if penalty else None, after=snapshot(dispute, DISPUTE_FIELDS))
    return dispute



@transaction.atomic
def dispute_decide(*, user, dispute, state, decision, internal_note="", withdraw_penalty=False):
    """Uphold or reject a dispute. Upholding links the correction it caused (a corrected result
    or a withdrawn penalty), so the decision and its effect stay together."""
    # of=self: PostgreSQL cannot lock the nullable side of the outer joins.
    dispute = Dispute.objects.select_for_update(of=("self",)).select_related("table__round", "penalty") \
        .get(pk=dispute.pk)
    if dispute.state != Dispute.State.OPEN:
        raise ValidationError(_("This dispute is already decided."))
    if state not in (Dispute.State.UPHELD, Dispute.State.REJECTED):
        raise ValidationError({"state": _("Choose upheld or rejected.")})
    if not (decision or "").strip():
        raise ValidationError({"decision": _("Write the decision.")})
    before = snapshot(dispute, DISPUTE_FIELDS)
    correction = None
    if state == Dispute.State.UPHELD:
        if dispute.about == Dispute.About.PENALTY and withdraw_penalty and not dispute.penalty.withdrawn:
            correction = penalty_withdraw(user=user, penalty=dispute.penalty,
                                          reason=_("Dispute upheld: %(d)s") % {"d": decision.strip()})
        else:
            correction = correction_for(dispute)
        if correction is None:
            raise ValidationError(_("Make the correction first (correct the table's result or withdraw the "
                                    "penalty), then uphold the dispute."))
    dispute.decide(user=user, state=state, decision=decision, now=timezone.now())
    dispute.internal_note = internal_note
    dispute.correction = correction
    dispute.save()
    audit(user=user, action=f"dispute.{state}", obj=dispute, tournament=dispute.tournament,
          table_label=dispute.table.audit_label if dispute.table else "",
          before=before, after={**snapshot(dispute, DISPUTE_FIELDS),
                                "correction": correction.pk if correction else None})
    return dispute


