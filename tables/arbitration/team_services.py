"""Arbitration of the 2vs2 team tournament (seed 001): team penalties, the standings published day by
day, and disputes (ricorsi) within the window after a day's publication (art. 2: "a questa potrà
essere presentato ricorso entro 2 ore dalla pubblicazione").

Decisions where the seed is silent (stated on the format's help page):
- a penalty takes match points off the team's standings from its day on, never below 0;
- a day's standings can be published once every match of that day has its result;
- a dispute about a match counts from the publication of its day; about the standings, from the
  latest published day; before the day is published a dispute is always accepted.
Every write is a service with its audit entry; the days and their state are read by
tables.standings.selectors.team_days, the pages' rows by tables.arbitration.selectors.
"""
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tables.models import TeamDispute, TeamPenalty
from tournaments.audit.services import audit, snapshot
from tournaments.models import TeamDay, Tournament

PENALTY_FIELDS = ("day", "points", "reason", "withdrawn", "withdrawn_reason")
DISPUTE_FIELDS = ("about", "day", "raised_by", "text", "state", "decision")


def _penalty_after(penalty):
    return {**snapshot(penalty, PENALTY_FIELDS), "team": penalty.team.name}


@transaction.atomic
def team_penalty_give(*, user, tournament, team, points, reason, day):
    """Take `points` match points off `team` from day `day` on (never below 0 in the standings)."""
    errors = {}
    if team is None or team.tournament_id != tournament.pk:
        errors["team"] = _("Choose a team of this tournament.")
    if not isinstance(points, int) or points < 1:
        errors["points"] = _("A points penalty needs more than 0 points.")
    if not (reason or "").strip():
        errors["reason"] = _("A reason is required.")
    days = set(tournament.team_matches.values_list("round", flat=True))
    if day not in days:
        errors["day"] = _("Choose a day of the schedule.")
    if errors:
        raise ValidationError(errors)
    penalty = TeamPenalty.objects.create(tournament=tournament, team=team, day=day, points=points,
                                         reason=reason.strip(), created_by=user)
    audit(user=user, action="team.penalty", obj=penalty, tournament=tournament, after=_penalty_after(penalty))
    return penalty


@transaction.atomic
def team_penalty_withdraw(*, user, penalty, reason):
    """Withdraw a team penalty: it stays in the log, marked withdrawn, and counts no more."""
    penalty = TeamPenalty.objects.select_for_update(of=("self",)).select_related("team").get(pk=penalty.pk)
    if penalty.withdrawn:
        raise ValidationError(_("This penalty is already withdrawn."))
    if not (reason or "").strip():
        raise ValidationError({"reason": _("A reason is required.")})
    before = _penalty_after(penalty)
    penalty.withdraw(user=user, reason=reason, now=timezone.now())
    penalty.save()
    return audit(user=user, action="team.penalty.withdraw", obj=penalty, tournament=penalty.tournament,
                 before=before, after=_penalty_after(penalty))


@transaction.atomic
def team_day_publish(*, user, tournament, number, now=None):
    """Publish the standings after day `number`: the dispute window opens (seed 001 art. 2)."""
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


def window_closes(tournament, day):
    """When disputes about `day` stop being accepted (None: its standings are not published yet)."""
    return TeamDispute.window_closes(tournament, day.standings_published_at if day is not None else None)


@transaction.atomic
def team_dispute_record(*, user, tournament, about, raised_by, text, match=None, penalty=None, now=None):
    """Record a dispute; refused once the window after its day's publication has closed."""
    now = now or timezone.now()
    errors = TeamDispute.text_errors(raised_by, text)
    if about == TeamDispute.About.RESULT and (match is None or match.tournament_id != tournament.pk):
        errors["match"] = _("Choose the match whose result is disputed.")
    if about == TeamDispute.About.PENALTY and (penalty is None or penalty.tournament_id != tournament.pk):
        errors["penalty"] = _("Choose the disputed penalty.")
    if about not in TeamDispute.About.values:
        errors["about"] = _("Say what the dispute is about.")
    if errors:
        raise ValidationError(errors)
    days = TeamDay.objects.filter(tournament=tournament)
    if about == TeamDispute.About.RESULT:
        number, day = match.round, days.filter(number=match.round).first()
    elif about == TeamDispute.About.PENALTY:
        number, day = penalty.day, days.filter(number=penalty.day).first()
    else:
        day = days.order_by("-number").first()
        if day is None:
            raise ValidationError(_("No standings have been published yet."))
        number = day.number
    TeamDispute.require_window_open(tournament, window_closes(tournament, day), now)
    dispute = TeamDispute.objects.create(tournament=tournament, about=about, day=number, match=match,
                                         penalty=penalty, raised_by=raised_by.strip(), text=text.strip(),
                                         recorded_by=user)
    audit(user=user, action="team.dispute.record", obj=dispute, tournament=tournament,
          table_label=f"{match.round}: {match}"[:120] if match else "",
          after={**snapshot(dispute, DISPUTE_FIELDS), "match": str(match) if match else None})
    return dispute


@transaction.atomic
def team_dispute_decide(*, user, dispute, state, decision):
    """Uphold or reject a dispute (the correction itself is a corrected match result or a withdrawn
    penalty, each logged by its own service)."""
    dispute = TeamDispute.objects.select_for_update(of=("self",)).get(pk=dispute.pk)
    if dispute.state != TeamDispute.State.OPEN:
        raise ValidationError(_("This dispute is already decided."))
    if state not in (TeamDispute.State.UPHELD, TeamDispute.State.REJECTED):
        raise ValidationError({"state": _("Choose upheld or rejected.")})
    if not (decision or "").strip():
        raise ValidationError({"decision": _("Write the decision.")})
    before = snapshot(dispute, DISPUTE_FIELDS)
    dispute.decide(user=user, state=state, decision=decision, now=timezone.now())
    dispute.save()
    audit(user=user, action=f"team.dispute.{state}", obj=dispute, tournament=dispute.tournament, before=before,
          after=snapshot(dispute, DISPUTE_FIELDS))
    return dispute
