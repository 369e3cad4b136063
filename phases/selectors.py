"""Reads of tournament formats: each phase's rounds and state, what the organiser can do next.

The standings of the phases (qualifying, who qualifies, the final order, a knockout's progress) are
read by tables.standings.selectors, like every standings."""
from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _, ngettext

from tables.models import Round
from tables.rounds.inputs import present_registrations
from scoring.qualify import composition_tiers, semifinal_table_count, unbeaten_rules
from tables.standings.selectors import composition_of, phase_rounds, phase_status, qualifying_outcome
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


def composed_summary(tournament):
    """A composed format's settings in words, one line a tier (SCORING.md section 12), restated on the
    format page once saved; [] for any other format."""
    composition = composition_of(tournament)
    if not composition:
        return []
    final_size = composition.get("final_size", 4)
    tiers = composition_tiers(composition)
    lines = []
    for i, tier in enumerate(tiers):
        rules, parts = tier.rules, []
        if rules.direct:
            parts.append(ngettext("the 1st straight to the final", "the top %(n)s straight to the final",
                                  rules.direct) % {"n": rules.direct})
        if rules.semifinal:
            tables = semifinal_table_count(rules, final_size)
            parts.append(ngettext("ranks %(a)s-%(b)s to %(t)s semifinal", "ranks %(a)s-%(b)s to %(t)s semifinals",
                                  tables) % {"a": rules.semifinal[0], "b": rules.semifinal[1], "t": tables})
        if rules.repechage_seats:
            parts.append(ngettext("%(n)s repêchage seat for the best single game (at least %(m)s games)",
                                  "%(n)s repêchage seats for the best single games (at least %(m)s games)",
                                  rules.repechage_seats) % {"n": rules.repechage_seats, "m": rules.min_games})
        if rules.unbeaten_semifinal:  # SCORING.md 13.8, the Master
            parts.append(_("when the 1st alone has won every game: straight to the final, ranks %(a)s-%(b)s to "
                           "%(t)s semifinals") % {"a": rules.unbeaten_semifinal[0], "b": rules.unbeaten_semifinal[1],
                                                 "t": semifinal_table_count(unbeaten_rules(rules), final_size)})
        parts.append(_("final of %(n)s") % {"n": final_size})
        if len(tiers) > 1:
            lead = (_("Up to %(n)s participants") % {"n": tier.up_to} if tier.up_to is not None
                    else _("Above %(n)s participants") % {"n": tiers[i - 1].up_to})
            lines.append(f"{lead}: {'; '.join(parts)}.")
        else:
            lines.append("; ".join(parts) + ".")
    return lines


def master_case_words(case, semifinal, tables):
    """The Master's semifinal plan in words (SCORING.md 13.8): `case` "unbeaten", "fewer" or "base"."""
    values = {"tables": tables, "low": semifinal[0], "high": semifinal[1]}
    if case == "unbeaten":
        return _("The 1st won both games and leads alone: straight to the final; %(tables)d semifinals of "
                 "%(low)d-%(high)d.") % values
    if case == "fewer":
        return _("Too few players present for 4 semifinals: the 1st straight to the final; %(tables)d semifinals "
                 "of %(low)d-%(high)d.") % values
    return _("Nobody leads alone having won both games: %(tables)d semifinals of %(low)d-%(high)d.") % values


def master_case_preview(tournament, view):
    """Before the Master's semifinals are seated (`view` a PhaseView that can be drawn): the plan that
    seating them now would apply, with the players checked in; "" otherwise."""
    if view.phase.kind != Phase.Kind.SEMIFINAL or not view.can_draw:
        return ""
    composition = composition_of(tournament)
    if not composition or not any(t.get("direct_if_unbeaten") for t in composition.get("tiers", [])):
        return ""
    try:
        outcome = qualifying_outcome(tournament, composition, present=present_ids(tournament))
    except ValidationError:
        return ""
    if not outcome.standings or not outcome.rules.semifinal:
        return ""
    seats = len(outcome.result.semifinal) + len(outcome.result.repechage)
    if seats < 3 * outcome.tables:  # phases.draw refuses it: say so
        return _("The Master's semifinals need at least %(min)d players checked in; %(n)d are.") % {
            "min": 3 * outcome.tables + outcome.rules.direct, "n": len(present_ids(tournament))}
    return _("Seated now: %(plan)s") % {"plan": master_case_words(outcome.case, outcome.rules.semifinal,
                                                                   outcome.tables)}
