"""Club presets (SCORING.md 13.12): each club's rule by name, so that an organiser picks "Master" rather
than parameters. The published rules are documents (scoring/data/club_rules.json, schema in
docs/dev/club-rules.md), loaded as ClubRule rows by a data migration and never edited; an organiser's
own rules are ClubRule rows too (tournaments/club_rules/). A preset is a rule as the forms use it: it
fills every scoring setting of a tournament (and names the tournament format it plays, when the
application has it); every setting stays editable, and the tournament keeps the
preset's key in `club_preset` only to say where its settings came from."""
from dataclasses import dataclass, field
from decimal import Decimal

from django.db.models import DecimalField
from django.utils.functional import lazy
from django.utils.translation import get_language

from scoring.rule_document import DEFAULT_TIEBREAK, parse_rule_document, published_rules
from tournaments.models import FORMAT_PRESETS, ClubRule, TieBreak, Tournament
from tournaments.rules import club_rules_usable_in

# The settings a preset fills, at the value they take when the club's rule does not name them: picking
# a preset after another never leaves a setting of the first behind.
BASE_SETTINGS = {
    "bonus": Decimal("50"), "spartaco_malus": Decimal("14"), "risiko_total": None,
    "spartaco_risiko_losers": "", "standard_eliminated": "", "como_reference": None, "corrective_scope": "",
    "discard_worst": 0, "best_of": None, "tiebreak": ",".join(DEFAULT_TIEBREAK), "table_size": 4, "rounds_planned": 3,
}
MASTER_TIEBREAK = "best_results,previous_round"  # GT-M, Raduno and Master (SCORING.md 13.7)


@dataclass(frozen=True)
class ClubPreset:
    key: str
    name: object          # lazy text: the name clubs know the rule by, in the language of the page
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


def _preset(rule, key=None):
    """A rule document (a published one of scoring/data/club_rules.json, or an organiser's own) as the
    preset the forms offer: its texts in the language of the page, its numbers as the tournament's
    fields hold them."""
    settings = {}
    for name, value in {**rule.params, **rule.tournament}.items():
        if name == "tiebreak":
            value = ",".join(value)
        elif value is not None and isinstance(Tournament._meta.get_field(name), DecimalField):
            value = Decimal(value)
        settings[name] = value
    return ClubPreset(
        key=key or rule.key, name=_rule_text(rule, "name"), source=rule.source,
        description=_rule_text(rule, "description"), formula=rule.formula, settings=settings,
        format=rule.format.get("preset", ""))


def _rule_text(rule, which):
    return lazy(lambda: rule.text(which, (get_language() or "it")[:2]), str)()


CLUB_PRESETS = {rule.key: _preset(rule) for rule in published_rules()}

CLUB_PRESET_CHOICES = [(key, preset.name) for key, preset in CLUB_PRESETS.items()]


def club_preset_name(tournament):
    """The name of the club rule the settings of `tournament` came from ("" when none, or a key this
    application no longer knows): a published rule, or its organiser's own (ClubRule, named "r<pk>");
    another organiser's own rule is never named (rules.club_rules_usable_in)."""
    key = tournament.club_preset
    preset = CLUB_PRESETS.get(key or "")
    if preset:
        return preset.name
    return club_rules_usable_in(tournament, ClubRule.objects.filter(key=key)).values_list(
        "name", flat=True).first() or "" if key else ""


# --- the organisers' own rules (ClubRule rows): offered beside the published ones --------------------

def own_rule_preset(row):
    """An organiser's own rule (a ClubRule) as a preset, under its key "r<pk>"."""
    return _preset(row.rule, key=row.key)


def own_rules(user):
    """The organiser's own rules (ClubRule), by name."""
    return ClubRule.objects.filter(owner_id=user.pk, published=False).order_by("name", "pk") \
        if user is not None and user.is_authenticated else ClubRule.objects.none()


def club_rule_choices(user):
    """[(key, name)] of the rules a tournament's settings may be filled from: the published ones, then
    the organiser's own."""
    return CLUB_PRESET_CHOICES + [(row.key, row.name) for row in own_rules(user)]


def club_preset_for(user, key):
    """The preset `key` names for `user`: a published rule, or one of their own; None otherwise."""
    if not key:
        return None
    if key in CLUB_PRESETS:
        return CLUB_PRESETS[key]
    row = own_rules(user).filter(key=key).first()
    return own_rule_preset(row) if row else None


def draft_preset(document):
    """A rule being composed, never saved (its document), as a preset; raises the engine's
    InvalidDocument naming the field at fault."""
    return _preset(parse_rule_document(document), key="")


def is_club_rule_key(key):
    """`key` names a rule this server knows (published, or anyone's own)."""
    return bool(key) and (key in CLUB_PRESETS or ClubRule.objects.filter(key=key).exists())
