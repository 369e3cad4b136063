"""Helpers of the formats tests: players of known strength and rounds played to that strength."""
from phases import draw
from phases import services as phase_services
from tables.rounds import services as table_services
from tests.factories import RegistrationFactory, report
from tournaments.models import Tournament

TP = [80, 60, 40, 25, 15, 10]


def players(tournament, n, present=True):
    """n confirmed registrations; the i-th (from 0) is the i-th strongest."""
    return [RegistrationFactory(tournament=tournament, present=present, player__last_name=f"P{i:02d}")
            for i in range(n)]


def strength_of(regs):
    return {r.pk: len(regs) - i for i, r in enumerate(regs)}


def report_by_strength(rnd, strength, user=None):
    """Every table of `rnd` reported with TP = 2 x strength: the strongest player wins, and under
    table points the standings follow the strength exactly."""
    for table in rnd.tables.order_by("number"):
        seats = list(table.seats.order_by("position"))
        report(table, [(2 * strength[s.registration_id],) for s in seats], user=user)


def play(rnd, strength, user):
    """Publish, report to strength and close a drawn round."""
    table_services.round_publish(user=user, rnd=rnd)
    report_by_strength(rnd, strength, user)
    return table_services.round_close(user=user, rnd=rnd)


def report_order(table, winners_first, user=None):
    """Report `table` so that the registrations in `winners_first` place in that order."""
    seats = list(table.seats.order_by("position"))
    tp = {reg.pk: TP[i] for i, reg in enumerate(winners_first)}
    report(table, [(tp[s.registration_id],) for s in seats], user=user)


def seated(rnd):
    """The round's tables as lists of last names, by table then seat."""
    return [[s.registration.player.last_name for s in t.seats.order_by("position")]
            for t in rnd.tables.order_by("number")]


def names(regs):
    return [r.player.last_name for r in regs]


def sum3_final_played(tournament, organiser, **settings):
    """sum3 and a final, published: 8 players of known strength, the top 4 to the final, won by the 4th;
    every round's standings published. `settings`: tournament fields set before the games."""
    Tournament.objects.filter(pk=tournament.pk).update(published=True)
    regs = players(tournament, 8)
    phase_services.format_apply(user=organiser, tournament=tournament, preset="sum3_final")
    Tournament.objects.filter(pk=tournament.pk).update(formula="punti_tavolo", **settings)
    tournament.refresh_from_db()
    qualifying, final = tournament.phases.order_by("order")
    for i in range(qualifying.rounds):
        play(draw.phase_draw(user=organiser, phase=qualifying, seed=i), strength_of(regs), organiser)
    rnd = draw.phase_draw(user=organiser, phase=final)
    table_services.round_publish(user=organiser, rnd=rnd)
    report_order(rnd.tables.get(), [regs[3], regs[1], regs[0], regs[2]])
    table_services.round_close(user=organiser, rnd=rnd)
    for r in tournament.rounds.all():
        table_services.standings_publish(user=organiser, rnd=r)
    return regs
