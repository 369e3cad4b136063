"""The form of a club rule: every setting a rule document holds (docs/dev/club-rules.md), each with the
label and choices of the tournament setting it fills, turned into a document (`document()`) and back
(`initial_from`)."""
from decimal import Decimal

from django import forms
from django.utils.translation import gettext_lazy as _

from scoring.rule_document import SCHEMA
from tournaments.club_presets import BASE_SETTINGS
from tournaments.forms import TournamentForm
from tournaments.models import TieBreak, Tournament

TIEBREAK_CHOICES = [("", "—")] + list(TieBreak.choices)
# The formula's parameters a rule sets (scoring.rule_document.PARAMS but the tie-break chain), in the
# form's order; the tournament's numbers; each is the Tournament field of the same name.
PARAM_NAMES = ("bonus", "spartaco_malus", "risiko_total", "spartaco_risiko_losers", "standard_eliminated",
                "como_reference", "corrective_scope", "discard_worst", "best_of")
TOURNAMENT_NAMES = ("rounds_planned", "table_size", "dispute_window_minutes")
TIEBREAKS = 4


def _model_field(name, required=False):
    field = Tournament._meta.get_field(name).formfield()
    field.required = required
    return field


class ClubRuleForm(forms.Form):
    name = forms.CharField(label=_("Name of the rule"), max_length=120)
    club = forms.CharField(label=_("Club"), max_length=120, required=False)
    description = forms.CharField(label=_("Description, in the club's own words"), required=False,
                                  max_length=2000, widget=forms.Textarea(attrs={"rows": 3}))

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["formula"] = _model_field("formula", required=True)
        for name in PARAM_NAMES:
            self.fields[name] = _model_field(name)
        for i in range(1, TIEBREAKS + 1):
            self.fields[f"tiebreak_{i}"] = forms.ChoiceField(
                label=_("Tie-break %(n)s") % {"n": i}, choices=TIEBREAK_CHOICES, required=False)
        for name in TOURNAMENT_NAMES:
            self.fields[name] = _model_field(name, required=True)
        self.fields["format_preset"] = _model_field("format_preset")
        for name, formulas in TournamentForm.FORMULA_FIELDS.items():   # a formula's own settings
            self.fields[name].show_when = ("formula", formulas)

    def clean(self):
        data = super().clean()
        chain = [data.get(f"tiebreak_{i}") for i in range(1, TIEBREAKS + 1)]
        chain = [name for name in chain if name]
        if len(set(chain)) != len(chain):
            self.add_error("tiebreak_2", _("Each tie-break can appear only once."))
        data["tiebreak"] = chain
        return data

    def document_or_none(self):
        return self.document() if self.is_valid() else None

    def document(self):
        """The rule document (schema torneo.rule/1) the valid form describes."""
        data = self.cleaned_data
        doc = {"schema": SCHEMA, "name": data["name"].strip()}
        if data.get("club", "").strip():
            doc["club"] = data["club"].strip()
        if data.get("description", "").strip():
            doc["description"] = data["description"].strip()
        doc["formula"] = data["formula"]
        params = {}
        for name in PARAM_NAMES:
            value = data.get(name)
            if value in (None, "") or value == BASE_SETTINGS[name]:
                continue
            params[name] = _number(value)
        params["tiebreak"] = data["tiebreak"]
        doc["params"] = params
        doc["tournament"] = {name: int(data[name]) for name in TOURNAMENT_NAMES}
        if data.get("format_preset"):
            doc["format"] = {"preset": data["format_preset"]}
        return doc


def _number(value):
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    return value


def initial_from(rule):
    """A rule (scoring.rule_document.RuleDocument) as the form's initial values."""
    initial = {"name": rule.text("name", "it"), "club": rule.club, "description": rule.text("description", "it"),
               "formula": rule.formula}
    for name in PARAM_NAMES:
        initial[name] = rule.params.get(name, BASE_SETTINGS[name])
    chain = rule.params.get("tiebreak", BASE_SETTINGS["tiebreak"].split(","))
    for i in range(1, TIEBREAKS + 1):
        initial[f"tiebreak_{i}"] = chain[i - 1] if i <= len(chain) else ""
    for name in TOURNAMENT_NAMES:
        initial[name] = rule.tournament.get(name, BASE_SETTINGS.get(name, Tournament._meta.get_field(name).default))
    initial["format_preset"] = rule.format.get("preset", "")
    return initial


def blank_initial():
    """A blank rule: the settings of a new tournament."""
    initial = {name: BASE_SETTINGS[name] for name in PARAM_NAMES}
    initial.update(formula="bonus50", tiebreak_1="best_results", rounds_planned=BASE_SETTINGS["rounds_planned"],
                   table_size=BASE_SETTINGS["table_size"],
                   dispute_window_minutes=Tournament._meta.get_field("dispute_window_minutes").default)
    return initial


def blank_data():
    """The blank rule as a browser would post it (the worked example of a new rule's first page)."""
    return {name: ("" if value is None else value) for name, value in blank_initial().items()} | {
        "name": str(_("New rule"))}


class UploadForm(forms.Form):
    document = forms.FileField(label=_("Rule file (JSON)"))
