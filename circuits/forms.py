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

    def __init__(self, *args, tournaments, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["tournament"].queryset = tournaments

    def clean_weight(self):
        """Greater than 0, at most 100, at most 2 decimals: one message saying all three."""
        weight = self.cleaned_data["weight"]
        if not weight.is_finite() or weight <= 0 or weight > 100 or weight != weight.quantize(Decimal("0.01")):
            raise ValidationError(WEIGHT_MESSAGE)
        return weight
