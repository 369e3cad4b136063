"""Club presets (SCORING.md 13.12): each club's rule by name, so that an organiser picks "Master" rather
than parameters. A preset fills every scoring setting of a tournament (and names the tournament format
it plays, when the application has it); every setting stays editable, and the tournament keeps the
preset's key in `club_preset` only to say where its settings came from."""
from dataclasses import dataclass, field
from decimal import Decimal

from django.utils.translation import gettext_lazy as _

from tournaments.models import FORMAT_PRESETS, TieBreak, Tournament

# The settings a preset fills, at the value they take when the club's rule does not name them: picking
# a preset after another never leaves a setting of the first behind.
BASE_SETTINGS = {
    "bonus": Decimal("50"), "spartaco_malus": Decimal("14"), "risiko_total": None,
    "spartaco_risiko_losers": "", "standard_eliminated": "", "como_reference": None, "corrective_scope": "",
    "discard_worst": 0, "best_of": None, "tiebreak": "best_results", "table_size": 4, "rounds_planned": 3,
}
MASTER_TIEBREAK = "best_results,previous_round"  # GT-M, Raduno and Master (SCORING.md 13.7)


@dataclass(frozen=True)
class ClubPreset:
    key: str
    name: object          # lazy text: the name clubs know the rule by
    source: str           # the club and the document of SCORING.md 13 the rule comes from
    description: object   # one line on what the rule is
    formula: str
    settings: dict = field(default_factory=dict)   # beside BASE_SETTINGS
    format: str = ""      # the key of its tournament format (FORMAT_PRESETS), "" for rounds only

    @property
    def tournament_settings(self):
        """Every setting the preset fills: the formula, its parameters, tie-breaks, rounds, table size."""
        return {**BASE_SETTINGS, "formula": self.formula, **self.settings}

    @property
    def format_available(self):
        """The preset's format exists in this application (FORMAT_PRESETS)."""
        return bool(self.format) and self.format in dict(FORMAT_PRESETS)

    @property
    def format_name(self):
        return dict(FORMAT_PRESETS).get(self.format, "")

    def form_initial(self):
        """The settings as a tournament form's initial values (the tie-break chain in its four boxes)."""
        initial = {name: value for name, value in self.tournament_settings.items() if name != "tiebreak"}
        chain = [name for name in self.tournament_settings["tiebreak"].split(",") if name]
        for i in range(1, 5):
            initial[f"tiebreak_{i}"] = chain[i - 1] if i <= len(chain) else ""
        initial["club_preset"] = self.key
        return initial

    def described(self):
        """[(label, value)] of what the preset sets: the formula, then every setting it changes from the
        defaults, each by the label and the value the settings page shows."""
        settings = self.tournament_settings
        shown = ["formula"] + [name for name in BASE_SETTINGS if settings[name] != BASE_SETTINGS[name]
                               or name == "rounds_planned"]
        described = [(Tournament._meta.get_field(name).verbose_name, setting_text(name, settings[name]))
                     for name in shown]
        if self.format_available:
            described.append((Tournament._meta.get_field("format_preset").verbose_name, self.format_name))
        return described


def setting_text(name, value):
    """A setting's value as the settings page shows it: the choice's label, the tie-breaks by name."""
    model_field = Tournament._meta.get_field(name)
    if name == "tiebreak":
        labels = dict(TieBreak.choices)
        return ", ".join(str(labels.get(item, item)) for item in value.split(","))
    if model_field.choices:
        return dict(model_field.flatchoices).get(value, value)
    if isinstance(value, Decimal):
        return format(value.normalize(), "f")
    return value


CLUB_PRESETS = {preset.key: preset for preset in (
    ClubPreset(
        key="raduno_open", name=_("Raduno / Open (RCU Roma)"),
        source="RCU Roma, GestioneTorneo (Raduno, Open, Sant'Eufemia)",
        description=_("Table points + win bonus of 50; at 5-player tables the table points ×1.25 (reference 4) "
                      "before the bonus; ties by the best results, then the previous round; above 76 players, "
                      "parallel finals."),
        formula="bonus50",
        settings={"como_reference": 4, "corrective_scope": "table_points", "tiebreak": MASTER_TIEBREAK,
                  "rounds_planned": 2},
        format="raduno"),
    ClubPreset(
        key="master", name=_("Master (millesimi)"),
        source="Regolamento Tornei Master; GestioneTorneo (MasterRisiko, Victory)",
        description=_("Table points in thousandths plus one unit to the winner; 2 games, then semifinals of "
                      "the top 16, or of 2nd-13th with an unbeaten leader straight to the final."),
        formula="millesimi",
        settings={"tiebreak": MASTER_TIEBREAK, "rounds_planned": 2},
        format="master"),
    ClubPreset(
        key="torneo_gufo", name=_("Torneo Gufo (RCU Roma)"),
        source="RCU Roma, GestioneTorneo (Torneo Gufo)",
        description=_("Standard points 12, 7, 5, 3 plus hundredths scaled by the table size (reference 4); an "
                      "eliminated player by final position: 5 minus the place."),
        formula="standard",
        settings={"standard_eliminated": "position", "como_reference": 4, "corrective_scope": "table_points"}),
    ClubPreset(
        key="campionato_gufo", name=_("Campionato Gufo (RCU Roma)"),
        source="RCU Roma, GestioneTorneo (Campionato Gufo)",
        description=_("Spartaco: after a RisiKo! the winner gets 186 and the others their own table points."),
        formula="spartaco",
        settings={"spartaco_risiko_losers": "own_tp"}),
    ClubPreset(
        key="maialino_2024", name=_("Coppe Maialino 2024 (RCU Modena)"),
        source="RCU Modena, Coppe Maialino 2024",
        description=_("200 to the one winner (201 with RisiKo!), 100 minus the gap to the others; the best 6 "
                      "results of 8 evenings count."),
        formula="maialino_2024",
        settings={"best_of": 6, "rounds_planned": 8}),
    ClubPreset(
        key="finale_2004", name=_("Finale nazionale 2004"),
        source="Campionato Nazionale RisiKo! 2004, final rules",
        description=_("Table points + a win bonus of 20; a RisiKo! is worth 110."),
        formula="bonus50",
        settings={"bonus": Decimal("20"), "risiko_total": Decimal("110")}),
    ClubPreset(
        key="campionato_squadre", name=_("Campionato nazionale a squadre"),
        source="Campionato Nazionale a Squadre rules",
        description=_("Standard points; teams of 4 of one club play 3 rounds, a team's best 9 results count."),
        formula="standard",
        settings={"rounds_planned": 3},
        format="team_championship"),
)}

CLUB_PRESET_CHOICES = [(key, preset.name) for key, preset in CLUB_PRESETS.items()]


def club_preset_name(key):
    """The name of the club rule `key` ("" when none, or a key this application no longer knows)."""
    preset = CLUB_PRESETS.get(key or "")
    return preset.name if preset else ""
