"""Forms of the format page: they parse input; the rules live in the services."""
from decimal import Decimal

from django import forms
from django.utils.translation import gettext_lazy as _

from tournaments.forms import NumericInput
from tournaments.models import END_ROLL_VARIANTS, FORMAT_PRESETS


class FormatForm(forms.Form):
    preset = forms.ChoiceField(label=_("Tournament format"), choices=FORMAT_PRESETS, widget=forms.RadioSelect)
    games = forms.IntegerField(label=_("Qualifying games"), required=False, min_value=1, max_value=30,
                               widget=NumericInput(decimals=False),
                               help_text=_("Empty: the format's usual number."))
    discards = forms.IntegerField(label=_("Results discarded (worst)"), required=False, min_value=0,
                                  max_value=10, widget=NumericInput(decimals=False),
                                  help_text=_("Empty: the format's usual number."))
    final = forms.BooleanField(label=_("Play a final of the top 4 (championship)"), required=False, initial=True)
    finalina = forms.BooleanField(label=_("Add a finalina of 5th-8th beside the final"), required=False)


class EndRollVariantForm(forms.Form):
    variant = forms.ChoiceField(label=_("End of a timed game"), choices=END_ROLL_VARIANTS,
                                widget=forms.RadioSelect)


class FirenzeContinentsForm(forms.Form):
    points = forms.DecimalField(label=_("Firenze sheet: points per conquered continent"), min_value=Decimal("0"),
                                max_value=Decimal("100"), decimal_places=2, widget=NumericInput(),
                                help_text=_("SCORING.md 8.1: the seed's value is lost, so the default is 0. The "
                                            "arbiter counts each player's continents on the sheet."))
