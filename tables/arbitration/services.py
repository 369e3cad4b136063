"""Services of the arbiters, for games and 2vs2 matches alike: penalties (seed 001 art. 20, on teams
too) and disputes (ricorsi, seed 001 art. 2: "a questa potrà essere presentato ricorso entro 2 ore
dalla pubblicazione"), and the publication of a 2vs2 day's standings, which opens its window.

One service per write; what a game's arbitration and a match's differ in (the models, whom a penalty is
against, what a dispute is about, the standings whose publication opens its window, the log's entries)
is data: tables.arbitration.kinds, given as `of` (a game's by default) or read from the penalty or
dispute at hand.

Decisions where the seed is silent (stated on the format's help page): a team penalty takes match
points off the team's standings from its day on, never below 0; a day's standings can be published
once every match of that day has its result; a dispute about a match counts from the publication of
its day, about the standings from the latest published day, and before the day is published a
dispute is always accepted.
"""
from decimal import Decimal
from functools import partial

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tables.arbitration.kinds import GAME, MATCH, kind_of
from tables.arbitration.selectors import correction_for, dispute_window_closes
from tables.models import Dispute, Penalty
from tournaments.audit.services import audit, snapshot
from tournaments.models import Registration, TeamDay, Tournament
from tournaments.services import registration_update


def _refusals(tournament, asked, rules):
    """{field: message} of the rules (field, refused(tournament, asked), message) that refuse `asked`."""
    return {field: str(message) for field, refused, message in rules if refused(tournament, asked)}


def _penalty_rules(of):
    """The refusals every penalty shares, whatever its kind of play."""
    return (
        (of.offender, lambda tournament, p: p[of.offender] is None or p[of.offender].tournament_id != tournament.pk,
         of.offender_refused),
        ("reason", lambda tournament, p: not (p["reason"] or "").strip(), _("A reason is required.")),
        ("points", lambda tournament, p: p["kind"] == Penalty.Kind.POINTS and not (
            isinstance(p["points"], of.points_type) and p["points"] > 0),
         _("A points penalty needs more than 0 points.")),
        ("points", lambda tournament, p: p["kind"] != Penalty.Kind.POINTS and p["points"],
         _("Only a points penalty takes points.")),
    )


def _only(given, allowed):
    """Refuse arguments that name nothing of this kind of play (a seat given for a match, say)."""
    unknown = set(given) - set(allowed)
    if unknown:
        raise TypeError(f"unexpected arguments: {', '.join(sorted(unknown))}")


def _locked(model, pk, related):
    # of=self: PostgreSQL cannot lock the nullable side of the outer joins.
    rows = model.objects.select_for_update(of=("self",))
    return (rows.select_related(*related) if related else rows).get(pk=pk)


@transaction.atomic
def penalty_give(*, user, tournament, reason, kind=Penalty.Kind.POINTS, points=Decimal(0), of=GAME, **against):
    """Record a penalty against a player of a game (`registration`, `kind`, perhaps the `seat` of the
    game, an `internal_note`, `void_past_results` for an expulsion) or a team (of=MATCH: `team`, from
    `day` on). Points come off the game (or the player's total when no game is given; the team's
    standings from its day on), never below 0. An expulsion withdraws the player from the tournament."""
    _only(against, of.penalty_columns + tuple(of.penalty_defaults))
    asked = {**of.penalty_defaults, **against, "kind": kind, "points": points, "reason": reason}
    errors = _refusals(tournament, asked, _penalty_rules(of) + of.penalty_rules)
    if errors:
        raise ValidationError(errors)
    columns = {name: asked[name] for name in of.penalty_columns}
    if of.expels:
        # The registration as stored now (locked), not as the caller read it.
        status = Registration.objects.select_for_update().values_list("status", flat=True).get(
            pk=asked["registration"].pk)
        expels = kind == Penalty.Kind.EXPULSION
        columns.update(void_past_results=expels and asked["void_past_results"],
                       withdrew_registration=expels and status != Registration.Status.WITHDRAWN)
    penalty = of.penalty.objects.create(tournament=tournament, points=points or Decimal(0), reason=reason.strip(),
                                        created_by=user, **columns)
    audit(user=user, obj=penalty, tournament=tournament, after=snapshot(penalty, of.penalty_log), **of.given(penalty))
    if columns.get("withdrew_registration"):
        # No further rounds: the player is no longer seated.
        registration_update(user=user, registration=penalty.registration, action_name="expel",
                            status=Registration.Status.WITHDRAWN)
    return penalty


@transaction.atomic
def penalty_withdraw(*, user, penalty, reason):
    """Withdraw a penalty (a game's or a match's): it stays in the log, marked withdrawn, and counts no
    more. Returns the log's entry."""
    of = kind_of(penalty)
    penalty = _locked(of.penalty, penalty.pk, of.penalty_locked_with)
    if penalty.withdrawn:
        raise ValidationError(_("This penalty is already withdrawn."))
    if not (reason or "").strip():
        raise ValidationError({"reason": _("A reason is required.")})
    before = snapshot(penalty, of.penalty_log)
    penalty.withdraw(user=user, reason=reason, now=timezone.now())
    penalty.save()
    entry = audit(user=user, obj=penalty, tournament=penalty.tournament, before=before,
                  after=snapshot(penalty, of.penalty_log), **of.withdrawn(penalty))
    # Only the withdrawal the expulsion made is undone: a player who had withdrawn stays withdrawn.
    if of.expels and penalty.withdrew_registration and penalty.registration.status == Registration.Status.WITHDRAWN:
        registration_update(user=user, registration=penalty.registration, action_name="reinstate",
                            status=Registration.Status.CONFIRMED)
    return entry


@transaction.atomic
def dispute_record(*, user, tournament, about, raised_by, text, penalty=None, now=None, of=GAME, **result):
    """Record a dispute about a result (a game's `table`, of=MATCH a match's `match`), a `penalty` or the
    standings; refused once the window after the publication of the standings it concerns (a
    round's, a day's) has closed."""
    _only(result, (of.result,))
    now = now or timezone.now()
    disputed = result.get(of.result)
    errors = of.dispute.text_errors(raised_by, text)
    if about == of.dispute.About.RESULT and (disputed is None or of.result_tournament(disputed) != tournament.pk):
        errors[of.result] = str(of.result_refused)
    if about == of.dispute.About.PENALTY and (penalty is None or penalty.tournament_id != tournament.pk):
        errors["penalty"] = _("Choose the disputed penalty.")
    if about not in of.dispute.About.values:
        errors["about"] = _("Say what the dispute is about.")
    if errors:
        raise ValidationError(errors)
    standings, published = of.disputed(tournament, about, disputed, penalty)
    if about == of.dispute.About.STANDING and published is None:
        raise ValidationError(_("No standings have been published yet."))
    of.dispute.require_window_open(tournament, dispute_window_closes(tournament, published), now)
    dispute = of.dispute.objects.create(tournament=tournament, about=about, penalty=penalty,
                                        raised_by=raised_by.strip(), text=text.strip(), recorded_by=user,
                                        **{of.result: disputed}, **standings)
    audit(user=user, obj=dispute, tournament=tournament, after=snapshot(dispute, of.recorded_log),
          **of.recorded(dispute))
    return dispute


def _correction(*, user, dispute, decision, withdraw_penalty):
    """The correction an upheld dispute links: the penalty it withdraws now, or the correction of its
    table (or penalty) made since it was raised; refused when there is none yet."""
    if dispute.about == Dispute.About.PENALTY and withdraw_penalty and not dispute.penalty.withdrawn:
        correction = penalty_withdraw(user=user, penalty=dispute.penalty,
                                      reason=_("Dispute upheld: %(d)s") % {"d": decision.strip()})
    else:
        correction = correction_for(dispute)
    if correction is None:
        raise ValidationError(_("Make the correction first (correct the table's result or withdraw the "
                                "penalty), then uphold the dispute."))
    return correction


@transaction.atomic
def dispute_decide(*, user, dispute, state, decision, internal_note="", withdraw_penalty=False):
    """Uphold or reject a dispute (a game's or a match's). Upholding a game's dispute links the correction
    it caused (a corrected result or a withdrawn penalty), so the decision and its effect stay together;
    a match's correction is a corrected match result or a withdrawn penalty, each logged by its own
    service."""
    of = kind_of(dispute)
    dispute = _locked(of.dispute, dispute.pk, of.dispute_locked_with)
    if dispute.state != of.dispute.State.OPEN:
        raise ValidationError(_("This dispute is already decided."))
    if state not in (of.dispute.State.UPHELD, of.dispute.State.REJECTED):
        raise ValidationError({"state": _("Choose upheld or rejected.")})
    if not (decision or "").strip():
        raise ValidationError({"decision": _("Write the decision.")})
    before = snapshot(dispute, of.dispute_log)
    correction = None
    if of.links_correction and state == of.dispute.State.UPHELD:
        correction = _correction(user=user, dispute=dispute, decision=decision, withdraw_penalty=withdraw_penalty)
    dispute.decide(user=user, state=state, decision=decision, now=timezone.now())
    if of.links_correction:
        dispute.internal_note, dispute.correction = internal_note, correction
    dispute.save()
    after = snapshot(dispute, of.dispute_log)
    if of.links_correction:
        after["correction"] = correction.pk if correction else None
    audit(user=user, obj=dispute, tournament=dispute.tournament, before=before, after=after, **of.decided(dispute))
    return dispute


# The names the 2vs2 pages know these services by: the same services, for a match (a withdrawal and a
# decision take their kind from the penalty or the dispute).
team_penalty_give = partial(penalty_give, of=MATCH)
team_dispute_record = partial(dispute_record, of=MATCH)
team_dispute_decide = dispute_decide


@transaction.atomic
def team_day_publish(*, user, tournament, number, now=None):
    """Publish the standings after 2vs2 day `number`: the dispute window opens (seed 001 art. 2)."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    matches = tournament.team_matches.filter(round=number)
    if not matches.exists():
        raise ValidationError(_("Day %(n)d is not in the schedule.") % {"n": number})
    if matches.filter(reported_at__isnull=True).exists():
        raise ValidationError(_("Every match of day %(n)d needs its result before its standings are published.")
                              % {"n": number})
    if TeamDay.objects.filter(tournament=tournament, number=number).exists():
        raise ValidationError(_("The standings of day %(n)d are already published.") % {"n": number})
    day = TeamDay.objects.create(tournament=tournament, number=number, standings_published_at=now or timezone.now(),
                                 published_by=user)
    audit(user=user, action="team.standings.publish", obj=day, tournament=tournament,
          after={"day": number, "published_at": day.standings_published_at})
    return day
