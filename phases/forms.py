"""Forms of the format page: they parse input; the rules live in the services."""
from decimal import Decimal

from django import forms
from django.utils.translation import gettext_lazy as _

from tournaments.club_presets import club_rule_choices
from tournaments.forms import NumericInput
from tournaments.models import END_ROLL_VARIANTS, FORMAT_PRESETS


class ClubPresetForm(forms.Form):
    """A club's rule (SCORING.md 13.12): its format and every scoring setting at once."""
    club_preset = forms.ChoiceField(label=_("Club rule"))

    def __init__(self, *args, user=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["club_preset"].choices = [("", "—")] + club_rule_choices(user)   # published, then own


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
    # Composed formats (SCORING.md section 12). Empty: the preset's own settings.
    best_of = forms.IntegerField(label=_("Best results counted"), required=False, min_value=1, max_value=30,
                                 widget=NumericInput(decimals=False),
                                 help_text=_("Instead of discards: only the best N results count."))
    direct = forms.IntegerField(label=_("Straight to the final"), required=False, min_value=0, max_value=5,
                                widget=NumericInput(decimals=False),
                                help_text=_("How many of the top of the standings skip the semifinals."))
    semifinal_from = forms.IntegerField(label=_("Semifinals from rank"), required=False, min_value=1,
                                        max_value=99, widget=NumericInput(decimals=False),
                                        help_text=_("The first rank that plays a semifinal: right after the "
                                                    "direct finalists."))
    semifinal_to = forms.IntegerField(label=_("Semifinals up to rank"), required=False, min_value=1,
                                      max_value=99, widget=NumericInput(decimals=False),
                                      help_text=_("The last rank that plays a semifinal; empty: no semifinals."))
    repechage_seats = forms.IntegerField(label=_("Repêchage seats"), required=False, min_value=0, max_value=10,
                                         widget=NumericInput(decimals=False),
                                         help_text=_("Seats for the best single games among those not "
                                                     "qualified, whatever their rank."))
    repechage_min_games = forms.IntegerField(label=_("Repêchage: minimum games played"), required=False,
                                             min_value=0, max_value=30, widget=NumericInput(decimals=False),
                                             help_text=_("Only who played at least this many games can be "
                                                         "picked; absences are not games."))
    final_size = forms.TypedChoiceField(label=_("Players in the final"), required=False, coerce=int,
                                        choices=[("", "—"), (4, "4"), (5, "5")],
                                        help_text=_("One seat per direct finalist and per semifinal table."))
    threshold = forms.IntegerField(label=_("These settings up to participants"), required=False, min_value=1,
                                   max_value=999, widget=NumericInput(decimals=False),
                                   help_text=_("Empty: the same for any number; otherwise the settings below "
                                               "apply above this number."))
    direct_above = forms.IntegerField(label=_("Above: straight to the final"), required=False, min_value=0,
                                      max_value=5, widget=NumericInput(decimals=False),
                                      help_text=_("With more participants: how many skip the semifinals."))
    semifinal_from_above = forms.IntegerField(label=_("Above: semifinals from rank"), required=False,
                                              min_value=1, max_value=99, widget=NumericInput(decimals=False),
                                              help_text=_("With more participants: the first semifinal rank."))
    semifinal_to_above = forms.IntegerField(label=_("Above: semifinals up to rank"), required=False,
                                            min_value=1, max_value=99, widget=NumericInput(decimals=False),
                                            help_text=_("With more participants: the last semifinal rank."))
    repechage_seats_above = forms.IntegerField(label=_("Above: repêchage seats"), required=False, min_value=0,
                                               max_value=10, widget=NumericInput(decimals=False),
                                               help_text=_("With more participants: seats by best single "
                                                           "game."))

    COMPOSITION_INPUTS = ("best_of", "direct", "semifinal_from", "semifinal_to", "repechage_seats",
                          "repechage_min_games", "final_size", "threshold", "direct_above",
                          "semifinal_from_above", "semifinal_to_above", "repechage_seats_above")

    def clean(self):
        data = super().clean()
        for name, partner in (("semifinal_from", "semifinal_to"), ("semifinal_from_above", "semifinal_to_above")):
            if (data.get(name) is None) != (data.get(partner) is None):
                self.add_error(partner if data.get(partner) is None else name,
                               _("Give both ranks of the semifinals, or neither."))
        if data.get("threshold") is not None and data.get("direct_above") is None:
            self.add_error("direct_above", _("Say how many go straight to the final above the threshold."))
        return data

    def composition(self, preset_settings):
        """The composed format's settings from the form, or None to keep the preset's own."""
        data = self.cleaned_data
        if data.get("direct") is None:
            if data.get("final_size") or data.get("threshold") is not None:
                return {**preset_settings, "final_size": data.get("final_size") or preset_settings["final_size"]}
            return None
        min_games = data.get("repechage_min_games")
        min_games = 1 if min_games is None else min_games

        def tier(up_to, direct, low, high, seats):
            return {"up_to": up_to, "direct": direct, "semifinal": [low, high] if low is not None else None,
                    "repechage": {"seats": seats or 0, "min_games": min_games}}
        tiers = [tier(data.get("threshold"), data["direct"], data.get("semifinal_from"), data.get("semifinal_to"),
                      data.get("repechage_seats"))]
        if data.get("threshold") is not None:
            tiers.append(tier(None, data["direct_above"], data.get("semifinal_from_above"),
                              data.get("semifinal_to_above"), data.get("repechage_seats_above")))
        return {"tiers": tiers, "final_size": data.get("final_size") or 4}

    @staticmethod
    def initial_from(composition):
        """Form values showing a composed format's settings."""
        if not composition:
            return {}
        first = composition["tiers"][0]
        values = {"direct": first["direct"], "final_size": composition["final_size"],
                  "repechage_seats": first["repechage"]["seats"],
                  "repechage_min_games": first["repechage"]["min_games"], "threshold": first["up_to"]}
        if first.get("semifinal"):
            values.update(semifinal_from=first["semifinal"][0], semifinal_to=first["semifinal"][1])
        if len(composition["tiers"]) > 1:
            above = composition["tiers"][1]
            values.update(direct_above=above["direct"], repechage_seats_above=above["repechage"]["seats"])
            if above.get("semifinal"):
                values.update(semifinal_from_above=above["semifinal"][0], semifinal_to_above=above["semifinal"][1])
        return values


class EndRollVariantForm(forms.Form):
    variant = forms.ChoiceField(label=_("End of a timed game"), choices=END_ROLL_VARIANTS,
                                widget=forms.RadioSelect)


class FirenzeContinentsForm(forms.Form):
    points = forms.DecimalField(label=_("Firenze sheet: points per conquered continent"), min_value=Decimal("0"),
                                max_value=Decimal("100"), decimal_places=2, widget=NumericInput(),
                                help_text=_("The value on the original Firenze sheet is lost, so the default is 0. The "
                                            "arbiter counts each player's continents on the sheet."))
