"""Services that write rounds and their seating; each writes its audit entry in the same transaction.

A confirmed seating change erases the results of the tables it touches through
`tables.results.writer.results_clear`, the one writer of seat results."""

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tables import engine
from tables.models import Round, Seat, Table
from tables.push.services import round_published, seats_moved
from tables.results.writer import results_clear
from tables.rounds.inputs import player_names, present_registrations, seating_request
from tables.rounds.selectors import free_draw
from tournaments.audit.services import audit
from tournaments.models import Registration, Tournament
from tournaments.rules import may_reopen_round


def _seating_snapshot(rnd):
    return [[s.registration.player.full_name for s in t.seats.all()] for t in
            rnd.tables.prefetch_related("seats__registration__player")]


def round_has_results(rnd):
    return Table.objects.filter(round=rnd, reported_at__isnull=False).exists()


def _require_free_draw(rnd):
    """Semifinals, finals and later knockout games seat exactly their qualifiers: no free re-draw."""
    if not free_draw(rnd):
        raise ValidationError(_("The tables of this phase come from the results: they cannot be drawn again."))


class DrawChangeUnconfirmed(ValidationError):
    """Seed 003: "Tali sorteggi non devono essere modificati in nessun caso": a published knockout
    draw changes only with a confirmation that names the change (`change`, for the confirm form)."""

    def __init__(self, message, change):
        super().__init__(message)
        self.change = change


def _knockout_draw_published(rnd):
    return rnd.status == Round.Status.PUBLISHED and rnd.tournament.format_preset.startswith("knockout")


def _require_unlocked(rnd, confirm):
    if rnd.status == Round.Status.CLOSED:
        raise ValidationError(_("The round is closed: its seating can no longer change."))
    if round_has_results(rnd) and not confirm:
        raise ValidationError(_("This round already has results: confirm to change its seating."))


def _write_tables(rnd, tables):
    regs = {str(r.pk): r for r in Registration.objects.filter(tournament=rnd.tournament)}
    for number, ids in enumerate(tables, start=1):
        table = Table.objects.create(round=rnd, number=number)
        Seat.objects.bulk_create([Seat(table=table, registration=regs[i], position=pos)
                                  for pos, i in enumerate(ids, start=1)])


def _check_plan(tournament, plan, *, partial):
    """An organiser's (or a phase's) fixed plan seats registered players who are checked in, each
    once; unless `partial` (a phase seats only its qualifiers) it seats every player checked in."""
    regs = {str(r.pk): r for r in tournament.registrations.select_related("player")}
    seen = set()
    for pid in (str(p) for table in plan for p in table):
        reg = regs.get(pid)
        if reg is None:
            raise ValidationError(_("The plan names a player who is not registered in this tournament."))
        name = reg.player.full_name
        if reg.status == Registration.Status.WITHDRAWN:
            raise ValidationError(_("%(player)s has withdrawn from the tournament: take them out of the plan.")
                                  % {"player": name})
        if reg.status != Registration.Status.CONFIRMED or not reg.present:
            raise ValidationError(str(engine.SEATING_MESSAGES["plan_absent"]) % {"player": name})
        if pid in seen:
            raise ValidationError(str(engine.SEATING_MESSAGES["plan_twice"]) % {"player": name})
        seen.add(pid)
    if not partial:
        left_out = [r for r in present_registrations(tournament) if str(r.pk) not in seen]
        if left_out:
            raise ValidationError(str(engine.SEATING_MESSAGES["plan_missing"])
                                  % {"player": left_out[0].player.full_name})


@transaction.atomic
def round_create(*, user, tournament, method="random", sizes=None, seed=None, fixed_plan=None, pinned=None,
                 partial_plan=False):
    """Draw the next round from the players checked in (SEATING.md); the draw starts as a draft.

    `fixed_plan` (lists of registration ids) must seat every player checked in, unless
    `partial_plan` (a phase's tables seat only its qualifiers)."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if tournament.rounds.exclude(status=Round.Status.CLOSED).exists():
        raise ValidationError(_("Close the current round before drawing the next one."))
    if method == "fixed" or fixed_plan:
        _check_plan(tournament, fixed_plan or [], partial=partial_plan)
    number = (tournament.rounds.order_by("-number").values_list("number", flat=True).first() or 0) + 1
    seed = seed if seed is not None else int(timezone.now().timestamp()) % 1_000_000
    request = seating_request(tournament=tournament, number=number, method=method, sizes=sizes, seed=seed,
                              fixed_plan=fixed_plan, pinned=pinned)
    result = engine.seat(request, names=player_names(tournament))
    rnd = Round.objects.create(tournament=tournament, number=number, method=method, seed=seed)
    _write_tables(rnd, result["tables"])
    # What the organiser should know about the draw (e.g. no standings for a seeded method).
    rnd.notices = result["notices"]
    audit(user=user, action="round.draw", obj=rnd, tournament=tournament,
          after={"round": number, "method": method, "seed": seed, "tables": _seating_snapshot(rnd),
                 "penalties": result["penalties"]})
    return rnd


def _redo_draft(*, user, rnd, action, refused, seat):
    """Replace a draft round's tables with `seat(rnd)`'s result (draw again, re-seat), logged."""
    rnd = Round.objects.select_for_update().get(pk=rnd.pk)
    if rnd.status != Round.Status.DRAFT:
        raise ValidationError(refused)
    _require_free_draw(rnd)
    before = _seating_snapshot(rnd)
    result, changes = seat(rnd)
    Seat.objects.filter(table__round=rnd).delete()
    rnd.tables.all().delete()
    if changes:
        for name, value in changes.items():
            setattr(rnd, name, value)
        rnd.save(update_fields=list(changes))
    _write_tables(rnd, result["tables"])
    rnd.notices = result["notices"]
    audit(user=user, action=action, obj=rnd, tournament=rnd.tournament, before={"tables": before},
          after={**changes, "tables": _seating_snapshot(rnd), "penalties": result["penalties"]})
    return rnd


@transaction.atomic
def round_redraw(*, user, rnd, method=None, sizes=None, seed=None):
    """Draw a draft round again (new method, sizes or seed): only before publishing."""
    def seat(rnd):
        changes = {"method": method or rnd.method, "seed": seed if seed is not None else rnd.seed + 1}
        request = seating_request(tournament=rnd.tournament, number=rnd.number, sizes=sizes, **changes)
        return engine.seat(request, names=player_names(rnd.tournament)), changes
    return _redo_draft(user=user, rnd=rnd, action="round.redraw", seat=seat,
                       refused=_("Only a draft round can be drawn again."))


@transaction.atomic
def round_reseat(*, user, rnd):
    """Late arrivals and drop-outs before publishing: seat who is present now, changing the draft least."""
    def seat(rnd):
        draft = [[str(s.registration_id) for s in t.seats.all()] for t in rnd.tables.prefetch_related("seats")]
        request = seating_request(tournament=rnd.tournament, number=rnd.number, method=rnd.method, seed=rnd.seed)
        return engine.reseat(request, draft, names=player_names(rnd.tournament)), {}
    return _redo_draft(user=user, rnd=rnd, action="round.reseat", seat=seat,
                       refused=_("Only a draft round can be re-seated."))


@transaction.atomic
def seats_swap(*, user, rnd, seat_a, seat_b, confirm=False):
    """Swap two players of a round (tap one name, then the other)."""
    rnd = Round.objects.select_for_update().get(pk=rnd.pk)
    _require_unlocked(rnd, confirm)
    a = Seat.objects.select_related("table", "registration__player").get(pk=seat_a, table__round=rnd)
    b = Seat.objects.select_related("table", "registration__player").get(pk=seat_b, table__round=rnd)
    if a.table_id == b.table_id:
        raise ValidationError(_("The two players are already at the same table."))
    if _knockout_draw_published(rnd) and not confirm:
        raise DrawChangeUnconfirmed(_(
            "This knockout draw is published and is not changed (Firenze tournament rules). Confirm to swap "
            "%(a)s (table %(ta)d) "
            "and %(b)s (table %(tb)d).") % {"a": a.registration.player.full_name, "ta": a.table.number,
                                           "b": b.registration.player.full_name, "tb": b.table.number},
            change={"swap": [a.pk, b.pk]})
    if a.table.reported or b.table.reported:
        if not confirm:
            raise ValidationError(_("A table with a result cannot change without confirmation."))
    before = {"a": f"{a.registration.player.full_name} @ {a.table.number}",
              "b": f"{b.registration.player.full_name} @ {b.table.number}"}
    a_table, b_table = a.table_id, b.table_id
    erased = results_clear([a_table, b_table])
    Seat.objects.filter(pk=a.pk).update(table_id=b_table, position=b.position)
    Seat.objects.filter(pk=b.pk).update(table_id=a_table, position=a.position)
    after = {"a": f"{a.registration.player.full_name} @ {b.table.number}",
             "b": f"{b.registration.player.full_name} @ {a.table.number}", "confirmed": confirm}
    audit(user=user, action="round.swap", obj=rnd, tournament=rnd.tournament,
          table_label=f"{rnd.number}/{a.table.number}", **_with_erased(before, after, erased))
    seats_moved(rnd, [a.registration_id, b.registration_id])  # a published table changed: their phones are told
    return rnd


@transaction.atomic
def seat_move(*, user, rnd, seat, table_number, confirm=False):
    """Move one player to another table (e.g. to turn a 5 and a 3 into two 4s)."""
    rnd = Round.objects.select_for_update().get(pk=rnd.pk)
    _require_unlocked(rnd, confirm)
    seat = Seat.objects.select_related("table", "registration__player").get(pk=seat, table__round=rnd)
    target = Table.objects.filter(round=rnd, number=table_number).first()
    if target is None:
        target = Table.objects.create(round=rnd, number=table_number)
    if target.pk == seat.table_id:
        raise ValidationError(_("The player is already at that table."))
    if _knockout_draw_published(rnd) and not confirm:
        raise DrawChangeUnconfirmed(_(
            "This knockout draw is published and is not changed (Firenze tournament rules). Confirm to move "
            "%(name)s from table "
            "%(source)d to table %(target)d.") % {"name": seat.registration.player.full_name,
                                                  "source": seat.table.number, "target": table_number},
            change={"move": seat.pk, "table": table_number})
    source = seat.table
    position = (target.seats.order_by("-position").values_list("position", flat=True).first() or 0) + 1
    erased = results_clear([source.pk, target.pk])
    Seat.objects.filter(pk=seat.pk).update(table=target, position=position)
    if not source.seats.exists():
        source.delete()
    audit(user=user, action="round.move", obj=rnd, tournament=rnd.tournament, player=seat.registration.player,
          **_with_erased({"table": source.number}, {"table": target.number, "confirmed": confirm}, erased))
    seats_moved(rnd, [seat.registration_id])
    return rnd


def _with_erased(before, after, erased):
    """A seating change's audit entry with the results it erased: their values before, blank after."""
    if erased:
        before["results"] = erased
        after["results"] = {label: {name: None for name in seats} for label, seats in erased.items()}
    return {"before": before, "after": after}


def seating_problems(rnd):
    """Messages that stop publishing: tables outside 3..6 players."""
    problems = []
    for table in rnd.tables.prefetch_related("seats"):
        n = len(table.seats.all())
        if not 3 <= n <= 6:
            problems.append(_("Table %(t)d has %(n)d players: tables need 3 to 6.") % {"t": table.number, "n": n})
    return problems


_NOW = object()  # a `stamp` value: the time of the step


def _round_step(*, user, rnd, status, refused, action, stamp, check=None, snapshot=None):
    """One step of a round's life: lock the round, check its status (and `check(rnd)`), stamp the
    fields of `stamp`, save them and write the audit entry, all in one transaction."""
    rnd = Round.objects.select_for_update().get(pk=rnd.pk)
    if rnd.status != status:
        raise ValidationError(refused)
    if check is not None:
        check(rnd)
    now = timezone.now()
    for name, value in stamp.items():
        setattr(rnd, name, now if value is _NOW else value)
    rnd.save(update_fields=list(stamp))
    after = {"round": rnd.number, **(snapshot(rnd) if snapshot else {})}
    audit(user=user, action=action, obj=rnd, tournament=rnd.tournament, after=after)
    return rnd


def _publishable(rnd):
    problems = seating_problems(rnd)
    if problems:
        raise ValidationError(problems)


def _all_reported(rnd):
    missing = list(rnd.tables.filter(reported_at__isnull=True).values_list("number", flat=True))
    if missing:
        raise ValidationError(_("Tables still without a result: %(t)s.") % {"t": ", ".join(map(str, missing))})


@transaction.atomic
def round_publish(*, user, rnd):
    rnd = _round_step(user=user, rnd=rnd, status=Round.Status.DRAFT, action="round.publish",
                      refused=_("This round is already published."), check=_publishable,
                      stamp={"status": Round.Status.PUBLISHED, "published_at": _NOW},
                      snapshot=lambda r: {"tables": _seating_snapshot(r)})
    round_published(rnd)  # once this commits, the phones following its players are told their table
    return rnd


@transaction.atomic
def round_close(*, user, rnd):
    return _round_step(user=user, rnd=rnd, status=Round.Status.PUBLISHED, action="round.close",
                       refused=_("Only a published round can be closed."), check=_all_reported,
                       stamp={"status": Round.Status.CLOSED, "closed_at": _NOW})


@transaction.atomic
def round_reopen(*, user, rnd):
    """A round closed too early is opened again by the organiser while the next one is not drawn:
    its results can be entered and corrected again; its standings, if published, are withdrawn until
    it is closed again (the audit entry keeps when they had been published)."""
    Tournament.objects.select_for_update().get(pk=rnd.tournament_id)   # no draw of the next one meanwhile
    rnd = Round.objects.select_for_update().get(pk=rnd.pk)
    if not may_reopen_round(rnd):
        if rnd.status != Round.Status.CLOSED:
            raise ValidationError(_("Only a closed round can be reopened."))
        raise ValidationError(_("Round %(n)d is already drawn: round %(r)d can no longer be reopened.")
                              % {"n": rnd.number + 1, "r": rnd.number})
    before = {"round": rnd.number, "status": rnd.status, "closed_at": rnd.closed_at,
              "standings_published_at": rnd.standings_published_at}
    rnd.status, rnd.closed_at, rnd.standings_published_at = Round.Status.PUBLISHED, None, None
    rnd.save(update_fields=["status", "closed_at", "standings_published_at"])
    audit(user=user, action="round.reopen", obj=rnd, tournament=rnd.tournament, before=before,
          after={"round": rnd.number, "status": rnd.status, "closed_at": None, "standings_published_at": None})
    return rnd


@transaction.atomic
def standings_publish(*, user, rnd):
    return _round_step(user=user, rnd=rnd, status=Round.Status.CLOSED, action="standings.publish",
                       refused=_("Close the round before publishing its standings."),
                       stamp={"standings_published_at": _NOW})
