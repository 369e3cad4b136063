"""Forms of the 2vs2 team pages: they parse input; the rules live in tournaments.teams.services."""
from decimal import Decimal

from django import forms
from django.utils.translation import gettext_lazy as _

from tournaments.forms import NumericInput
from tournaments.models import TeamMatch


class TeamForm(forms.Form):
    name = forms.CharField(label=_("Team name"), max_length=80, required=False,
                           help_text=_("Empty: the players' surnames."))
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
        self.match = match
        home, away = match.home.name, match.away.name
        self.fields["decided_by"].choices = [("", "—"), (str(match.home_id), home), (str(match.away_id), away)]
        for side, team in (("home", home), ("away", away)):
            self.fields[f"{side}_territories"].label = _("Territories held: %(team)s") % {"team": team}
            self.fields[f"{side}_best"].label = _("Most territories of one player: %(team)s") % {"team": team}
            self.fields[f"{side}_territory_points"].label = _("Territory points: %(team)s") % {"team": team}

    def result(self):
        """The valid form's result as `tournaments.teams.services.match_result_submit` takes it."""
        data, match = self.cleaned_data, self.match
        return {"ending": data["ending"],
                "decided_by": {str(match.home_id): match.home, str(match.away_id): match.away}.get(data["decided_by"]),
                "territories": (data["home_territories"], data["away_territories"]),
                "best": (data["home_best"], data["away_best"]),
                "territory_points": (data["home_territory_points"] or Decimal(0),
                                     data["away_territory_points"] or Decimal(0))}


class ChampionshipTeamForm(forms.Form):
    """A team of the national team championship: a name and 4 players of one club (the rules:
    tournaments.teams.championship_services). Any confirmed player may be ticked, so that a player
    already in a team is refused with the service's message, not a generic one."""
    name = forms.CharField(label=_("Team name"), max_length=80, required=False,
                           help_text=_("Empty: the club's name (with 2, 3… for its next teams)."))
    players = forms.MultipleChoiceField(label=_("Players (4 of one club)"), widget=forms.CheckboxSelectMultiple,
                                        error_messages={"required": _("Tick the 4 players of the team.")})

    def __init__(self, *args, registrations=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["players"].choices = [(str(r.pk), r.player.full_name) for r in registrations]


class TeamNameForm(forms.Form):
    name = forms.CharField(label=_("Team name"), max_length=80)
