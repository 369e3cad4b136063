"""Forms of the format, team and clock pages: they parse input; the rules live in the services."""
from django import forms
from django.utils.translation import gettext_lazy as _

from tournaments.forms import NumericInput
from tournaments.models import END_ROLL_VARIANTS, FORMAT_PRESETS, TeamMatch


class FormatForm(forms.Form):
    preset = forms.ChoiceField(label=_("Format"), choices=FORMAT_PRESETS, widget=forms.RadioSelect)
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


class ClockForm(forms.Form):
    minutes = forms.IntegerField(label=_("Minutes"), min_value=1, max_value=300, initial=90,
                                 widget=NumericInput(decimals=False))


class EndRollForm(forms.Form):
    registration = forms.TypedChoiceField(label=_("Player"), coerce=int, required=False)
    roll = forms.IntegerField(label=_("Roll"), required=False, min_value=1, max_value=12,
                              widget=NumericInput(decimals=False))
    skipped = forms.BooleanField(label=_("Conquered 3 or more territories this turn: does not roll"),
                                 required=False)

    def __init__(self, *args, seats=(), by_arbiter=False, **kwargs):
        super().__init__(*args, **kwargs)
        self.by_arbiter = by_arbiter
        self.fields["registration"].choices = [(s.registration_id, s.registration.player.full_name) for s in seats]
        if by_arbiter:
            del self.fields["registration"]
            del self.fields["skipped"]
            self.fields["roll"].label = _("Die")
        else:
            self.fields["roll"].label = _("Sum of the two dice")

    def clean(self):
        data = super().clean()
        if not data.get("skipped") and data.get("roll") is None and not self.errors:
            self.add_error("roll", _("Enter the roll."))
        return data


class TeamForm(forms.Form):
    name = forms.CharField(label=_("Team name"), max_length=80)
    players = forms.MultipleChoiceField(label=_("Players (2 or 3)"), widget=forms.CheckboxSelectMultiple)
    captain = forms.ChoiceField(label=_("Captain"))

    def __init__(self, *args, registrations=(), **kwargs):
        super().__init__(*args, **kwargs)
        choices = [(str(r.pk), r.player.full_name) for r in registrations]
        self.fields["players"].choices = choices
        self.fields["captain"].choices = [("", "—")] + choices


class LineupForm(forms.Form):
    players = forms.MultipleChoiceField(label=_("The two who play"), widget=forms.CheckboxSelectMultiple)

    def __init__(self, *args, members=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["players"].choices = [(str(m.registration_id), m.registration.player.full_name)
                                          for m in members]


class MatchResultForm(forms.Form):
    ending = forms.ChoiceField(label=_("How the match ended"), choices=TeamMatch.Ending.choices,
                               widget=forms.RadioSelect)
    decided_by = forms.ChoiceField(label=_("Which team"), required=False, help_text=_(
        "Wipeout: the team that eliminated the other. RisiKo!: the team whose player made it (it loses). "
        "Forfeit: the team present (empty: both absent). Not needed at the limit."))
    home_territories = forms.IntegerField(min_value=0, max_value=42, initial=0, widget=NumericInput(decimals=False))
    away_territories = forms.IntegerField(min_value=0, max_value=42, initial=0, widget=NumericInput(decimals=False))
    home_best = forms.IntegerField(min_value=0, max_value=42, initial=0, widget=NumericInput(decimals=False))
    away_best = forms.IntegerField(min_value=0, max_value=42, initial=0, widget=NumericInput(decimals=False))
    home_territory_points = forms.DecimalField(min_value=0, max_value=200, decimal_places=2, max_digits=6,
                                               initial=0, widget=NumericInput())
    away_territory_points = forms.DecimalField(min_value=0, max_value=200, decimal_places=2, max_digits=6,
                                               initial=0, widget=NumericInput())

    def __init__(self, *args, match=None, **kwargs):
        super().__init__(*args, **kwargs)
        home, away = match.home.name, match.away.name
        self.fields["decided_by"].choices = [("", "—"), (str(match.home_id), home), (str(match.away_id), away)]
        for side, team in (("home", home), ("away", away)):
            self.fields[f"{side}_territories"].label = _("Territories held: %(team)s") % {"team": team}
            self.fields[f"{side}_best"].label = _("Most territories of one player: %(team)s") % {"team": team}
            self.fields[f"{side}_territory_points"].label = _("Territory points: %(team)s") % {"team": team}
