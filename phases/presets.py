"""What each tournament format plans: the phases of a preset, the checks of a composed format, the
advice below a knockout's range. The presets themselves (what each sets up, its help and decisions) are
data, in phases/preset_data.py."""
from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from phases.preset_data import FINAL_SIZE, KNOCKOUT_RANGES, PRESETS, RADUNO
from scoring.errors import ScoringError
from scoring.phases import knockout_stages, knockout_table_sizes
from scoring.qualify import check_composition, composition_tiers
from tournaments.models import FORMAT_PRESETS, Phase
from tournaments.models.phase_names import name as phase_name


def raduno_specs(games):
    """The phases of a Raduno: the qualifying games, the semifinals of every group, the parallel
    finals (their number is known once the qualifying games are played)."""
    return [(Phase.Kind.QUALIFYING, phase_name("Qualifying rounds"), games, {"parallel_finals": True}),
            (Phase.Kind.SEMIFINAL, phase_name("Semifinals"), 1, {}),
            (Phase.Kind.FINAL, phase_name("Finals"), 1, {"size": FINAL_SIZE})]


def fixed_qualify(preset):
    """Whether a format's qualification is fixed by its rules (the Master's conditional plan): the format
    page offers no fields to compose it."""
    tiers = PRESETS[preset].qualify.get("tiers", []) if preset in PRESETS else []
    return any(t.get("direct_if_unbeaten") for t in tiers)


TOURNAMENT_FORMAT_FIELDS = ("format_preset", "rounds_planned", "discard_worst", "best_of", "como_reference",
                            "table_size", "formula", "tiebreak", "end_roll_variant", "corrective_scope")


def check_composed(composition, games):
    """ValidationError naming the form field when a composed format of `games` qualifying games cannot
    be played."""
    tiers = composition_tiers(composition)
    if composition.get("final_size") not in (4, 5):
        raise ValidationError({"final_size": _("The final seats 4 or 5 players.")})
    ups = [t.up_to for t in tiers]
    if ups[-1] is not None or any(u is None or u < 1 for u in ups[:-1]) or ups[:-1] != sorted(set(ups[:-1])):
        raise ValidationError({"threshold": _("The number of participants must be a whole number of at least 1.")})
    if len({t.rules.semifinal is None for t in tiers}) > 1:
        raise ValidationError({"threshold": _("Both settings must have semifinals, or neither.")})
    for i, tier in enumerate(tiers):
        try:
            check_composition([tier], composition["final_size"])
        except ScoringError as exc:
            suffix = "_above" if i else ""
            rules = tier.rules
            if exc.code == "range_start":
                message = _("The semifinals start right after the direct finalists: at rank %(a)d.") % {
                    "a": rules.direct + 1}
                raise ValidationError({"semifinal_from" + suffix: message}) from None
            if exc.code == "range_end":
                raise ValidationError({"semifinal_to" + suffix: _("The last rank of the semifinals comes "
                                                                   "before the first.")}) from None
            if exc.code == "final_seats":
                raise ValidationError({"direct" + suffix: _(
                    "Without semifinals the final of %(size)d takes the direct finalists and the repêchage: "
                    "they must add up to %(size)d.") % {"size": composition["final_size"]}}) from None
            if exc.code == "no_semifinal_seat":
                raise ValidationError({"direct" + suffix: _(
                    "The direct finalists fill the final of %(size)d: no seat is left for a semifinal "
                    "winner.") % {"size": composition["final_size"]}}) from None
            if exc.code == "semifinal_tables":
                raise ValidationError({"semifinal_to" + suffix: _(
                    "%(seats)d semifinal seats (with the repêchage) cannot make %(tables)d tables of 3 to 6 "
                    "players: one finalist per table.") % exc.context}) from None
            raise ValidationError({"direct" + suffix: str(exc)}) from None
    # A repêchage asking for more games than the qualifying rounds play could pick nobody.
    min_games = max(tier.rules.min_games for tier in tiers)
    if min_games > games:
        raise ValidationError({"repechage_min_games": ngettext(
            "At most %(games)d: the qualifying rounds play %(games)d game, so a minimum of %(min)d leaves "
            "nobody to pick.",
            "At most %(games)d: the qualifying rounds play %(games)d games, so a minimum of %(min)d leaves "
            "nobody to pick.", games) % {"games": games, "min": min_games}})


def snapshot(tournament):
    return {name: getattr(tournament, name) for name in TOURNAMENT_FORMAT_FIELDS}


def knockout_specs(stages, games_before=0, continuing=False):
    """Phases of knockout stages (scoring.phases.Stage); when `continuing` after games already played,
    the last game before the final is the semifinal."""
    specs, game = [], games_before
    for i, stage in enumerate(stages):
        kind = stage.kind
        if continuing and kind == "knockout" and i == len(stages) - 2:
            kind = "semifinal"
        if kind == "knockout":
            game += 1
            specs.append((Phase.Kind.KNOCKOUT, phase_name("Knockout game %(n)d", n=game), 1, {}))
        elif kind == "second_chance":
            specs.append((Phase.Kind.KNOCKOUT, phase_name("Second chance"), 1, {"second_chance": True}))
        elif kind == "semifinal":
            specs.append((Phase.Kind.SEMIFINAL, phase_name("Semifinals"), 1, {}))
        else:
            specs.append((Phase.Kind.FINAL, phase_name("Final"), 1, {"size": stage.players}))
    return specs




@dataclass(frozen=True)
class KnockoutAdvice:
    """A knockout below the seed's range: what the seed presupposes and the format it offers instead."""
    low: int
    high: int
    players: int
    alternative: str   # a key of PRESETS
    table_sizes: tuple  # the first game's tables if drawn anyway

    @property
    def alternative_label(self):
        return dict(FORMAT_PRESETS)[self.alternative]


def knockout_advice(preset, players, table_size=4):
    """None when `preset` is not a knockout or `players` reach the seed's range; else the advice:
    with second chance from 37 players (seed 004), else the one-day format, 3 games and a final."""
    bounds = KNOCKOUT_RANGES.get(preset)
    if bounds is None or players >= bounds[0]:
        return None
    alternative = "knockout_second_chance" if preset == "knockout" and players >= 37 else "sum3_final"
    sizes = tuple(knockout_table_sizes(players, table_size)) if players >= 3 else ()
    return KnockoutAdvice(bounds[0], bounds[1], players, alternative, sizes)


def phase_specs(preset, *, games, final, finalina, players, table_size, composition=None):
    """(kind, name, rounds, settings) of each phase of a preset, in order."""
    spec = PRESETS[preset]
    if spec.teams:
        return []
    if preset == RADUNO:
        return raduno_specs(games)
    if spec.knockout:
        try:
            stages = knockout_stages(players, table_size, second_chance=spec.second_chance)
        except ScoringError:
            raise ValidationError(_("With %(n)d players a knockout does not end with a final table of 3 to 6: "
                                    "register more players.") % {"n": players}) from None
        return knockout_specs(stages)
    first = {"qualify": composition} if composition else {}
    first_name = phase_name("Evenings" if preset == "como" else "Qualifying rounds")
    specs = [(Phase.Kind.QUALIFYING, first_name, games, first)]
    size = composition["final_size"] if composition else FINAL_SIZE
    semifinals = spec.semifinals or bool(composition and composition["tiers"][0].get("semifinal"))
    if semifinals:
        specs.append((Phase.Kind.SEMIFINAL, phase_name("Semifinals"), 1, {}))
    if final:
        specs.append((Phase.Kind.FINAL, phase_name("Final"), 1, {"size": size}))
        if finalina:
            # Played beside the final, at table 2 of the same round.
            label = phase_name("Finalina (5th-8th)" if size == 4 else "Finalina (6th-10th)")
            specs.append((Phase.Kind.FINALINA, label, 0, {"size": size, "table": 2}))
    return specs
