"""What each tournament format sets up: presets and the phases they plan.

Seed 004 ("Formule per un Torneo Ufficiale", semifinal guidance, "eliminazione diretta"), seed 000
(Como, rules 3-5), seed 001 (2vs2 teams)."""
from dataclasses import dataclass, field

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scoring.errors import ScoringError
from scoring.phases import knockout_stages, knockout_table_sizes
from tournaments.models import FORMAT_PRESETS, Phase

# Seed 003 (Firenze knockout): what the application decided where the seed is silent.
KNOCKOUT_DECISIONS = (
    gettext_lazy("A game ended by time is decided at the table by the Firenze points sheet (Firenze tournament rules): "
                 "its totals may exceed 200 and the places follow the sheet, not the objective table points; a "
                 "player eliminated before time gets an empty sheet; a complete draw for first place is settled "
                 "by a lot drawn at the table."),
    gettext_lazy("An absent or withdrawn qualifier (not checked in) is replaced by the best second of the previous "
                 "game: placed 2nd at their table; the seconds are compared on one scale, their points as a share "
                 "of their own table winner's points (table points where the game ended on the board, sheet "
                 "points where the Firenze sheet decided it), so a sheet's hundreds never win by their size alone; "
                 "equal shares by name; the next draw is never blocked."),
    gettext_lazy("A published knockout draw is not changed: a swap or a move asks for a confirmation that names "
                 "the players and tables it changes, and is logged."),
)
FINAL_LEADS = gettext_lazy(
    "After the final (and the finalina) the public standings page, its JSON and the CSV export lead with the "
    "final order, then the qualifying ranking; the page says \"definitive\" once every round is closed, its "
    "standings published and the dispute window over.")
KNOCKOUT_PAGE = gettext_lazy(
    "The public standings page shows no points ranking: who is still in, and the game in which each player "
    "went out; after the final, the final order, then by the game lost (later first) and the place at that "
    "table.")
TIES_BY_NAME = gettext_lazy("Players sharing a rank are listed by surname, then first name.")
FINAL_SIZE = 4  # seed 004: "una finale fra i primi 4 della classifica"; the finalina takes 5th-8th


@dataclass(frozen=True)
class Preset:
    """What a format of seed 004 / 000 / 001 sets up. Ranges bound the organiser's choices."""
    games: int = 0
    games_range: tuple = (0, 0)
    discards: int = 0
    discards_range: tuple = (0, 0)
    discards_optional: bool = False  # seed 004 "possibilità di scartare": 0 discards is allowed too
    final: str = "no"            # "no", "yes" or "optional"
    finalina: bool = False       # a finalina (5th-8th) may be added beside the final
    semifinals: bool = False
    knockout: bool = False
    second_chance: bool = False
    teams: bool = False
    end_roll: str = ""           # the end-roll variant the format sets (the organiser may change it after)
    tournament_settings: dict = field(default_factory=dict)
    help: str = ""
    decisions: tuple = ()        # what the application decided where the seed is silent


PRESETS = {
    "sum3": Preset(3, (3, 3), 0, (0, 1), help=gettext_lazy(
        "R.T.U. Editrice Giochi, one-day tournaments: 3 games, points summed; optionally only the 2 best "
        "count (1 discard).")),
    "sum3_final": Preset(3, (3, 3), 0, (0, 1), final="yes", decisions=(FINAL_LEADS, TIES_BY_NAME), help=gettext_lazy(
        "R.T.U. Editrice Giochi: 3 games, then a final among the top 4 of the standings.")),
    "semis16": Preset(2, (2, 2), final="yes", semifinals=True, decisions=(FINAL_LEADS, TIES_BY_NAME),
                      tournament_settings={"formula": "bonus50"}, help=gettext_lazy(
        "R.T.U. Editrice Giochi, two-day tournaments: 2 games (table points + bonus 50), semifinals of the "
        "top 16, final. "
        "With fewer than 32 players: the 1st straight to the final and 3 semifinals of 2nd-12th, or the top 2 "
        "and 2 semifinals of 3rd-10th; one finalist per semifinal.")),
    "evenings_final": Preset(5, (4, 6), 1, (1, 2), discards_optional=True, final="yes", finalina=True,
                             decisions=(gettext_lazy("\"Possibilità di scartare\": discarding is an option, so "
                                                     "0 discards is allowed."), FINAL_LEADS, TIES_BY_NAME),
                             help=gettext_lazy(
        "R.T.U. Editrice Giochi, a few evenings: 4 to 6 games with the option of discarding 1 or 2 results (0 "
        "is allowed), a "
        "final of the top 4 and optionally a finalina of 5th-8th.")),
    "championship": Preset(8, (8, 30), 2, (2, 10), discards_optional=True, final="optional", decisions=(
        gettext_lazy("\"Possibilità di scartare almeno 2 risultati\": no discard, or 2 or more; never 1."),
        FINAL_LEADS, TIES_BY_NAME), help=gettext_lazy(
        "R.T.U. Editrice Giochi, championship: at least 8 evenings with the option of discarding at least 2 "
        "results (0 is "
        "allowed; 1 is not), optionally a final of the top 4.")),
    "knockout": Preset(knockout=True, decisions=KNOCKOUT_DECISIONS + (KNOCKOUT_PAGE,), help=gettext_lazy(
        "R.T.U. Editrice Giochi, knockout without second chance (64-125 players): only the table winners go on, "
        "semifinals, final.")),
    "knockout_second_chance": Preset(knockout=True, second_chance=True, decisions=KNOCKOUT_DECISIONS + (KNOCKOUT_PAGE,),
                                     help=gettext_lazy(
        "R.T.U. Editrice Giochi, knockout with second chance (37-69 players): the losers of the first game "
        "play a second "
        "one; the winners of both go to the semifinals, then the final.")),
    "como": Preset(4, (4, 4), end_roll="lariana", decisions=(
        gettext_lazy("The F.I.RK. Como rules end timed games with their own roll (art. 44.1, Lariana): the "
                     "format sets it; the organiser may choose another below."),
        gettext_lazy("With the top 5 at table 1, the other players sit at the preferred table size: 11 present "
                     "play 5+6 preferring 5, 5+3+3 preferring 4; 12 play 5+4+3; 16 play 5+6+5 or 5+4+4+3. "
                     "Table 1 is never of 6."),
        TIES_BY_NAME), tournament_settings={
        "formula": "punti_tavolo", "best_of": 3, "como_reference": 5, "table_size": 5,
        "tiebreak": "best_results", "discard_worst": 0}, help=gettext_lazy(
        "F.I.RK. rules, Como tournament: 4 evenings at tables of 5; table 1 = the top 5 of the standings when "
        "at least 9 are "
        "present; the other tables take 3 to 6 players and their points get the correctives 3/5, 4/5, 6/5 "
        "(tables of 5 are unchanged); the best 3 results count; ties by best, then second-best result; "
        "timed games end with the Lariana roll (art. 44.1: 3 more rounds, then 4, then 4 or 7), which can "
        "be changed below.")),
    "teams_2vs2": Preset(teams=True, help=gettext_lazy(
        "Rahal Maut 2vs2 rules: teams of 2 (up to 3 registered) in a single round robin; match points "
        "3/2/1/0."), decisions=(
        gettext_lazy("A team penalty takes match points off the team's standings from the day it is given, never "
                     "below 0; head to head counts the matches only."),
        gettext_lazy("Teams still level after head to head and territories share the place and are listed by "
                     "name."),
        gettext_lazy("A day's standings are published once every match of that day has its result; a dispute about "
                     "a match of that day is accepted until the dispute window (2 hours) after the publication, "
                     "and always before it."),
        gettext_lazy("The standings of a day stay provisional until its window has closed with no dispute still "
                     "open about that day or an earlier one."))),
}

TOURNAMENT_FORMAT_FIELDS = ("format_preset", "rounds_planned", "discard_worst", "best_of", "como_reference",
                            "table_size", "formula", "tiebreak", "end_roll_variant")


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
            specs.append((Phase.Kind.KNOCKOUT, _("Knockout game %(n)d") % {"n": game}, 1, {}))
        elif kind == "second_chance":
            specs.append((Phase.Kind.KNOCKOUT, _("Second chance"), 1, {"second_chance": True}))
        elif kind == "semifinal":
            specs.append((Phase.Kind.SEMIFINAL, _("Semifinals"), 1, {}))
        else:
            specs.append((Phase.Kind.FINAL, _("Final"), 1, {"size": stage.players}))
    return specs


# Seed 004 "eliminazione diretta": the numbers of players each knockout presupposes.
KNOCKOUT_RANGES = {"knockout": (64, 125), "knockout_second_chance": (37, 69)}


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


def phase_specs(preset, *, games, final, finalina, players, table_size):
    """(kind, name, rounds, settings) of each phase of a preset, in order."""
    spec = PRESETS[preset]
    if spec.teams:
        return []
    if spec.knockout:
        try:
            stages = knockout_stages(players, table_size, second_chance=spec.second_chance)
        except ScoringError:
            raise ValidationError(_("With %(n)d players a knockout does not end with a final table of 3 to 6: "
                                    "register more players.") % {"n": players}) from None
        return knockout_specs(stages)
    specs = [(Phase.Kind.QUALIFYING, _("Evenings") if preset == "como" else _("Qualifying rounds"), games, {})]
    if spec.semifinals:
        specs.append((Phase.Kind.SEMIFINAL, _("Semifinals"), 1, {}))
    if final:
        specs.append((Phase.Kind.FINAL, _("Final"), 1, {"size": FINAL_SIZE}))
        if finalina:
            # Played beside the final, at table 2 of the same round.
            specs.append((Phase.Kind.FINALINA, _("Finalina (5th-8th)"), 0, {"size": FINAL_SIZE, "table": 2}))
    return specs
