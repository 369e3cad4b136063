"""Forms of the 2vs2 team pages: they parse input; the rules live in tournaments.teams.services."""
from django import forms
from django.utils.translation import gettext_lazy as _

from tournaments.forms import NumericInput
from tournaments.models import TeamDispute, TeamMatch


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


class TeamPenaltyForm(forms.Form):
    team = forms.ChoiceField(label=_("Team"))
    day = forms.TypedChoiceField(label=_("From day"), coerce=int)
    points = forms.IntegerField(label=_("Match points taken off"), min_value=1, max_value=99,
                                widget=NumericInput(decimals=False))
    reason = forms.CharField(label=_("Reason (public)"), max_length=2000, widget=forms.Textarea(attrs={"rows": 2}))

    def __init__(self, *args, teams=(), days=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["team"].choices = [("", "—")] + [(str(t.pk), t.name) for t in teams]
        self.fields["day"].choices = [(d, d) for d in days]


class TeamDisputeForm(forms.Form):
    about = forms.ChoiceField(label=_("Against"), choices=TeamDispute.About.choices)
    match = forms.ChoiceField(label=_("Match"), required=False)
    penalty = forms.ChoiceField(label=_("Penalty"), required=False)
    raised_by = forms.CharField(label=_("Raised by"), max_length=120)
    text = forms.CharField(label=_("Text"), max_length=4000, widget=forms.Textarea(attrs={"rows": 3}))

    def __init__(self, *args, matches=(), penalties=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["match"].choices = [("", "—")] + [
            (str(m.pk), _("Day %(n)d: %(match)s") % {"n": m.round, "match": m}) for m in matches]
        self.fields["penalty"].choices = [("", "—")] + [
            (str(p.pk), f"{p.team.name} −{p.points} ({p.reason[:40]})") for p in penalties]


class TeamDisputeDecisionForm(forms.Form):
    state = forms.ChoiceField(label=_("Decision"), widget=forms.RadioSelect, choices=[
        (TeamDispute.State.UPHELD, _("upheld")), (TeamDispute.State.REJECTED, _("rejected"))])
    decision = forms.CharField(label=_("Reasons (public)"), max_length=4000, widget=forms.Textarea(attrs={"rows": 3}))
