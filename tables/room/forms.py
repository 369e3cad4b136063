from django import forms
from django.utils.translation import gettext_lazy as _

from tournaments.models.core import SCREEN_PANELS, SCREEN_SECONDS_MAX, SCREEN_SECONDS_MIN

PANEL_LABELS = {"clock": _("Round clock (while it runs)"), "seating": _("Seating by player name"),
                "results": _("Latest results"), "standings": _("Standings")}


class RoomSettingsForm(forms.Form):
    screen_panels = forms.MultipleChoiceField(
        label=_("Big screen panels"), widget=forms.CheckboxSelectMultiple,
        choices=[(p, PANEL_LABELS[p]) for p in SCREEN_PANELS],
        error_messages={"required": _("Choose at least one panel.")})
    screen_seconds = forms.IntegerField(label=_("Seconds per page"), min_value=SCREEN_SECONDS_MIN,
                                        max_value=SCREEN_SECONDS_MAX)
    embed_origins = forms.CharField(
        label=_("Sites allowed to embed the standings"), required=False, widget=forms.Textarea(attrs={"rows": 3}),
        help_text=_("One address per line, e.g. https://www.myclub.it. Empty: no site may embed them."))

    def __init__(self, *args, tournament, **kwargs):
        super().__init__(*args, **kwargs)
        self.initial = {"screen_panels": tournament.screen_panel_list, "screen_seconds": tournament.screen_seconds,
                        "embed_origins": tournament.embed_origins}
