"""Reads of tournament formats: each phase's rounds and state, what the organiser can do next.

The standings of the phases (qualifying, who qualifies, the final order, a knockout's progress) are
read by tables.standings.selectors, like every standings."""
from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _, ngettext

from tables.rounds.inputs import present_registrations
from scoring.qualify import semifinal_table_count, unbeaten_rules
# Each phase's rounds and state, the format's plan: read in tables.standings (the rounds page shows them
# too), named here for the pages of formats.
from tables.standings.selectors import (PhaseView, composed_summary, composition_of, format_plan,  # noqa: F401
                                       phase_rounds, phases_overview, qualifying_outcome)
from tournaments.models import Phase


def phase_of(tournament, order):
    """The tournament's phase in this place of the order, else 404."""
    return get_object_or_404(Phase, tournament=tournament, order=order)


def present_ids(tournament):
    """The ids of the players who can be seated in the next phase."""
    return {r.pk for r in present_registrations(tournament)}


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
