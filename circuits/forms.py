import re
from decimal import Decimal, InvalidOperation

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from circuits.models import WEIGHT_MESSAGE, Circuit, CircuitTournament
from tournaments.forms import NumericInput

MAX_TABLE = 200


def parse_points_table(text):
    """"25, 20, 16" or "25 20 16" or "12.5; 10" -> [Decimal]; a ValidationError names the bad entry."""
    values = []
    for item in (i for i in re.split(r"[\s,;]+", text.strip()) if i):
        try:
            value = Decimal(item)
        except InvalidOperation:
            raise ValidationError(_("“%(v)s” is not a number: write the points separated by commas, decimals "
                                    "with a point (12.5)."), params={"v": item[:20]}) from None
        if not value.is_finite() or value < 0 or value > 10000:
            raise ValidationError(_("“%(v)s”: points go from 0 to 10000."), params={"v": item[:20]})
        values.append(value)
    if len(values) > MAX_TABLE:
        raise ValidationError(_("At most %(n)d points in the table."), params={"n": MAX_TABLE})
    return values


class CircuitForm(forms.ModelForm):
    class Meta:
        model = Circuit
        fields = ["name", "season", "basis", "formula", "rule", "points_table", "participation", "best_of", "min_tournaments"]
        widgets = {"participation": NumericInput(), "best_of": NumericInput(decimals=False),
                   "min_tournaments": NumericInput(decimals=False)}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["basis"].required = False  # a form without it keeps the circuit by rank

    def clean_basis(self):
        return self.cleaned_data.get("basis") or Circuit.Basis.RANK

    def clean_points_table(self):
        values = parse_points_table(self.cleaned_data.get("points_table", ""))
        return ", ".join(format(v.normalize(), "f") for v in values)

    def clean(self):
        data = super().clean()
        if data.get("basis") == Circuit.Basis.GAMES:
            return data  # ranked by game results: the rank rule's settings are not read
        if data.get("rule") == Circuit.Rule.TABLE and not (data.get("points_table") or "").strip():
            self.add_error("points_table", _("The points-table rule needs the points of at least the 1st."))
        return data


class CircuitTournamentForm(forms.Form):
    tournament = forms.ModelChoiceField(queryset=None, label=_("tournament"))
    weight = forms.DecimalField(label=_("weight"), initial=Decimal("1"), widget=NumericInput(),
                                error_messages={"invalid": WEIGHT_MESSAGE},
                                help_text=CircuitTournament._meta.get_field("weight").help_text)

    def __init__(self, *args, tournaments, categories=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["tournament"].queryset = tournaments
        if categories:   # ranked by a season rule: the event category the tournament counts in
            self.fields["category"] = forms.ChoiceField(label=_("event category"), choices=[(c, c) for c in categories])

    def clean_weight(self):
        """Greater than 0, at most 100, at most 2 decimals: one message saying all three."""
        weight = self.cleaned_data["weight"]
        if not weight.is_finite() or weight <= 0 or weight > 100 or weight != weight.quantize(Decimal("0.01")):
            raise ValidationError(WEIGHT_MESSAGE)
        return weight


# --- a season rule composed on a page (scoring/season.py, docs/dev/season-rules.md) ------------------

def json_numbers(value):
    """Decimals as JSON numbers (a whole one as an integer), through lists and objects."""
    if isinstance(value, dict):
        return {k: json_numbers(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [json_numbers(v) for v in value]
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    return value


SLUG = r"^[a-z0-9_]{1,40}$"
STAGE_TERMS = ("winner", "final", "semifinal", "quarterfinal")
AMOUNT_TERMS = ("per_round", "per_game", "own_points", "winner_bonus")


def _amount_field(label, help_text=""):
    return forms.DecimalField(label=label, required=False, min_value=0, max_digits=10, decimal_places=3,
                              widget=NumericInput(), help_text=help_text)


class SeasonCategoryForm(forms.Form):
    """One event category of a season rule and its terms; an empty field is a term the category has not."""
    key = forms.RegexField(label=_("Category"), regex=SLUG, max_length=40, required=False,
                           help_text=_("A short name: lower-case letters, digits, _ (e.g. master, club)."),
                           error_messages={"invalid": _("Lower-case letters, digits and _ only.")})
    weight = _amount_field(_("Weight of its events"))
    winner = _amount_field(_("Winner"))
    final = _amount_field(_("Finalist"))
    semifinal = _amount_field(_("Semifinalist"))
    quarterfinal = _amount_field(_("Quarterfinalist"))
    per_round = _amount_field(_("Per qualifying round played"))
    per_game = _amount_field(_("Per game played"))
    own_points = _amount_field(_("Tournament's own points ×"), _("E.g. 100 for millesimi (1.091 becomes 109.1), 1 for points."))
    winner_bonus = _amount_field(_("Bonus to the winner"))
    rank_table = forms.CharField(label=_("Points by final rank"), required=False, max_length=2000,
                                 help_text=_("Of the 1st, 2nd, 3rd... separated by commas."))
    participation = _amount_field(_("Participation points (with the rank table)"))
    games = _amount_field(_("Each game result ×"), _("A season of the best game results (as RCU Modena's): then the only term, in every category."))

    def clean_rank_table(self):
        return parse_points_table(self.cleaned_data.get("rank_table") or "")

    def category(self):
        """(key, the category's document) or None for an empty row."""
        data = self.cleaned_data
        if not data or not data.get("key"):
            return None
        terms = []
        stages = {name: data[name] for name in STAGE_TERMS if data.get(name) is not None}
        if stages:
            terms.append({"stage": stages})
        if data.get("rank_table"):
            spec = {"rule": "table", "table": data["rank_table"]}
            if data.get("participation"):
                spec["participation"] = data["participation"]
            terms.append({"rank_points": spec})
        terms += [{name: data[name]} for name in AMOUNT_TERMS if data.get(name) is not None]
        if data.get("games") is not None:
            terms.append({"games": data["games"]})
        doc = {"terms": terms}
        if data.get("weight") is not None:
            doc["weight"] = data["weight"]
        return data["key"], doc

    @staticmethod
    def initial_of(key, doc):
        initial = {"key": key, "weight": doc.get("weight")}
        for term in doc.get("terms", []):
            (kind, value), = term.items()
            if kind == "stage":
                initial.update(value)
            elif kind == "rank_points":
                initial["rank_table"] = ", ".join(str(v) for v in value.get("table") or [])
                initial["participation"] = value.get("participation")
            else:
                initial[kind] = value
        return initial


SeasonCategoryFormSet = forms.formset_factory(SeasonCategoryForm, extra=2, max_num=8, absolute_max=8)


class SeasonRuleForm(forms.Form):
    name = forms.CharField(label=_("Name of the ranking"), max_length=120, required=False)
    unit = forms.ChoiceField(label=_("What is counted"), choices=[
        ("events", _("Each event's points")), ("games", _("Each game result"))], initial="events")
    best = forms.IntegerField(label=_("Best results counted"), required=False, min_value=1, max_value=500,
                              widget=NumericInput(decimals=False), help_text=_("Empty: every one."))
    min_events = forms.IntegerField(label=_("Minimum events to be ranked"), min_value=1, max_value=100, initial=1,
                                    widget=NumericInput(decimals=False))
    lists = forms.CharField(label=_("Separate lists (optional)"), required=False, max_length=500,
                            help_text=_("E.g. “interna: club; esterna: open, ufficiale”: each list ranks the "
                                        "categories named. Empty: one ranking of every category."))

    def clean_lists(self):
        lists = []
        for part in (p.strip() for p in (self.cleaned_data.get("lists") or "").split(";") if p.strip()):
            name, sep, cats = part.partition(":")
            categories = [c.strip() for c in cats.split(",") if c.strip()]
            if not sep or not name.strip() or not categories:
                raise ValidationError(_("Write each list as “name: category, category”, lists separated by ;."))
            lists.append({"name": name.strip(), "categories": categories})
        return lists

    def document(self, categories):
        """The season rule document (torneo.season/1) of this form and `categories` [(key, doc)]."""
        data = self.cleaned_data
        doc = {"schema": "torneo.season/1", "categories": dict(categories),
               "count": {"unit": data["unit"], "best": data.get("best")},
               "min_events": data.get("min_events") or 1,
               "order": ["counted"] if data["unit"] == "games" else ["counted", "wins"]}
        if data.get("name"):
            doc["name"] = data["name"]
        if data.get("lists"):
            doc["lists"] = data["lists"]
        return json_numbers(doc)

    @staticmethod
    def initial_of(doc):
        count = doc.get("count") or {}
        return {"name": doc.get("name", ""), "unit": count.get("unit", "events"), "best": count.get("best"),
                "min_events": doc.get("min_events", 1),
                "lists": "; ".join(f"{sl['name']}: {', '.join(sl['categories'])}" for sl in doc.get("lists") or [])}
