"""Forms of the arbiters' pages: penalties and disputes of games and of 2vs2 matches."""
from decimal import Decimal

from django import forms
from django.utils.translation import gettext_lazy as _

from tables.arbitration.selectors import player_games, registration_or_none
from tables.models import Dispute, Penalty, Table, TeamDispute
from tournaments.forms import NumericInput


def game_label(seat):
    """A game as the arbiter remembers it: "Round 1, table 3 — with Rossi, Bianchi, Verdi"."""
    mates = [s.registration.player.last_name for s in seat.table.seats.all() if s.pk != seat.pk]
    return _("Round %(r)d, table %(t)d — with %(mates)s") % {
        "r": seat.table.round.number, "t": seat.table.number, "mates": ", ".join(mates)}


class PenaltyForm(forms.Form):
    """A penalty: the game list follows the chosen player (arbiter:penalty_games reloads it)."""
    registration = forms.ModelChoiceField(label=_("Player"), queryset=None)
    kind = forms.ChoiceField(label=_("Type"))
    seat = forms.ModelChoiceField(label=_("Game"), queryset=None, required=False,
                                  empty_label=_("— whole tournament —"),
                                  help_text=_("Empty: the whole tournament (a warning about the player's conduct, "
                                              "points off the tournament total, an expulsion). A disqualification "
                                              "or a forfeit names its game."))
    points = forms.DecimalField(label=_("Points"), min_value=0, max_value=10000, decimal_places=2, required=False,
                                widget=forms.NumberInput(attrs={"inputmode": "decimal", "step": "any"}),
                                help_text=_("E.g. 1 point per army over the 130 limit (Rahal Maut rules, art. 20)."))
    reason = forms.CharField(label=_("Reason (public)"), widget=forms.Textarea(attrs={"rows": 2}), max_length=2000)
    internal_note = forms.CharField(label=_("Internal note (arbiters only)"), required=False, max_length=4000,
                                    widget=forms.Textarea(attrs={"rows": 2}))
    void_past_results = forms.BooleanField(label=_("Expulsion: void the results already played"), required=False)

    def __init__(self, *args, tournament, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["registration"].queryset = tournament.registrations.select_related("player").order_by(
            "player__last_name", "player__first_name")
        self.fields["registration"].label_from_instance = lambda r: r.player.full_name
        self.fields["kind"].choices = Penalty.Kind.choices
        chosen = registration_or_none(tournament, self["registration"].value() or "")
        self.fields["seat"].queryset = player_games(chosen)
        self.fields["seat"].label_from_instance = game_label

    def clean_points(self):
        return self.cleaned_data.get("points") or Decimal(0)


class PenaltyWithdrawForm(forms.Form):
    reason = forms.CharField(label=_("Reason for withdrawal"), max_length=2000)


class DisputeForm(forms.Form):
    about = forms.ChoiceField(label=_("Against"))
    table = forms.ModelChoiceField(label=_("Table"), queryset=None, required=False)
    penalty = forms.ModelChoiceField(label=_("Penalty"), queryset=None, required=False)
    raised_by = forms.CharField(label=_("Raised by"), max_length=120)
    text = forms.CharField(label=_("Text of the dispute"), widget=forms.Textarea(attrs={"rows": 3}), max_length=4000)

    def __init__(self, *args, tournament, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["about"].choices = Dispute.About.choices
        self.fields["table"].queryset = Table.objects.filter(round__tournament=tournament).select_related(
            "round").order_by("round__number", "number")
        self.fields["table"].label_from_instance = lambda t: _("Round %(r)d, table %(t)d") % {
            "r": t.round.number, "t": t.number}
        self.fields["penalty"].queryset = Penalty.objects.filter(tournament=tournament, withdrawn=False) \
            .select_related("registration__player")
        self.fields["penalty"].label_from_instance = lambda p: f"{p.registration.player.full_name}: " \
                                                               f"{p.get_kind_display()} {p.points or ''}"


class DisputeDecisionForm(forms.Form):
    state = forms.ChoiceField(label=_("Decision"), widget=forms.RadioSelect)
    decision = forms.CharField(label=_("Decision text (public)"), widget=forms.Textarea(attrs={"rows": 3}),
                               max_length=4000)
    internal_note = forms.CharField(label=_("Internal note (arbiters only)"), required=False, max_length=4000,
                                    widget=forms.Textarea(attrs={"rows": 2}))
    withdraw_penalty = forms.BooleanField(label=_("Withdraw the disputed penalty"), required=False)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["state"].choices = [(Dispute.State.UPHELD, _("upheld")), (Dispute.State.REJECTED, _("rejected"))]


# --- 2vs2 team penalties and disputes -----------------------------------------------------------------

class TeamPenaltyForm(forms.Form):
    """A team penalty; cleaned, its data are the service's arguments (the team itself, not its id)."""
    team = forms.ChoiceField(label=_("Team"))
    day = forms.TypedChoiceField(label=_("From day"), coerce=int)
    points = forms.IntegerField(label=_("Match points taken off"), min_value=1, max_value=99,
                                widget=NumericInput(decimals=False))
    reason = forms.CharField(label=_("Reason (public)"), max_length=2000, widget=forms.Textarea(attrs={"rows": 2}))

    def __init__(self, *args, teams=(), days=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.teams = {str(t.pk): t for t in teams}
        self.fields["team"].choices = [("", "—")] + [(pk, t.name) for pk, t in self.teams.items()]
        self.fields["day"].choices = [(d, d) for d in days]

    def clean_team(self):
        return self.teams[self.cleaned_data["team"]]


class TeamDisputeForm(forms.Form):
    """A dispute about a 2vs2 match; cleaned, its data are the service's arguments (the match and the
    penalty themselves, or None)."""
    about = forms.ChoiceField(label=_("Against"), choices=TeamDispute.About.choices)
    match = forms.ChoiceField(label=_("Match"), required=False)
    penalty = forms.ChoiceField(label=_("Penalty"), required=False)
    raised_by = forms.CharField(label=_("Raised by"), max_length=120)
    text = forms.CharField(label=_("Text"), max_length=4000, widget=forms.Textarea(attrs={"rows": 3}))

    def __init__(self, *args, matches=(), penalties=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.matches = {str(m.pk): m for m in matches}
        self.penalties = {str(p.pk): p for p in penalties}
        self.fields["match"].choices = [("", "—")] + [
            (pk, _("Day %(n)d: %(match)s") % {"n": m.round, "match": m}) for pk, m in self.matches.items()]
        self.fields["penalty"].choices = [("", "—")] + [
            (pk, f"{p.team.name} −{p.points} ({p.reason[:40]})") for pk, p in self.penalties.items()]

    def clean_match(self):
        return self.matches.get(self.cleaned_data["match"])

    def clean_penalty(self):
        return self.penalties.get(self.cleaned_data["penalty"])


class TeamDisputeDecisionForm(forms.Form):
    state = forms.ChoiceField(label=_("Decision"), widget=forms.RadioSelect, choices=[
        (TeamDispute.State.UPHELD, _("upheld")), (TeamDispute.State.REJECTED, _("rejected"))])
    decision = forms.CharField(label=_("Reasons (public)"), max_length=4000, widget=forms.Textarea(attrs={"rows": 3}))
