"""Reads of tournament formats: each phase's rounds and state, what the organiser can do next.

The standings of the phases (qualifying, who qualifies, the final order, a knockout's progress) are
read by tables.standings.selectors, like every standings."""
from dataclasses import dataclass

from django.shortcuts import get_object_or_404

from tables.models import Round
from tables.rounds.inputs import present_registrations
from tables.standings.selectors import phase_rounds, phase_status
from tournaments.models import Phase


def phase_of(tournament, order):
    """The tournament's phase in this place of the order, else 404."""
    return get_object_or_404(Phase, tournament=tournament, order=order)


@dataclass
class PhaseView:
    phase: object
    rounds: list
    status: str
    current: object = None      # the round in play (draft or published), if any
    can_draw: bool = False

    @property
    def played(self):
        return sum(1 for r in self.rounds if r.status == Round.Status.CLOSED)


def phases_overview(tournament):
    """Every phase with its rounds (tables.standings.selectors.phase_rounds) and what the organiser can
    do next."""
    phases = list(tournament.phases.order_by("order"))
    views, earlier_done = [], True
    for phase in phases:
        rounds = phase_rounds(phase, phases)
        status = phase_status(phase, rounds)
        current = next((r for r in rounds if r.status != Round.Status.CLOSED), None)
        can_draw = (earlier_done and phase.kind != Phase.Kind.FINALINA and current is None
                    and status != "done")
        views.append(PhaseView(phase, rounds, status, current, can_draw))
        if phase.kind != Phase.Kind.FINALINA:
            earlier_done = earlier_done and status == "done"
    return views


def present_ids(tournament):
    """The ids of the players who can be seated in the next phase."""
    return {r.pk for r in present_registrations(tournament)}
