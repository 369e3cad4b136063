"""The past tournament's name, date and scoring settings (the new tournament form's own fields and
checks), the file, and the tournament read kept between the preview and the confirmation: signed, so
the confirmation imports exactly what the preview showed."""
from django import forms
from django.core import signing
from django.utils.translation import gettext_lazy as _

from tournaments.club_presets import club_preset_for, club_rule_choices
from tournaments.forms import TournamentForm
from transfer.workbooks.book import MAX_BYTES
from transfer.workbooks.model import SETTINGS, from_document, to_document

SALT = "transfer.workbooks.preview"
PREVIEW_HOURS = 12


class PastTournamentForm(TournamentForm):
    """Name, date, formula and the settings the standings read; published or not."""

    class Meta(TournamentForm.Meta):
        fields = ["name", "start_date", "formula", "bonus", "spartaco_malus", "como_reference", "discard_worst",
                  "best_of", "risiko_total", "spartaco_risiko_losers", "standard_eliminated", "corrective_scope",
                  "published"]

    FIRST_SCREEN = ("name", "start_date", "preset", "formula")
    preset = forms.ChoiceField(label=_("Club rule"), required=False,
                               help_text=_("A club's rule (a published one, or one of yours) sets the formula and "
                                           "every setting it names (the settings below are then those of the "
                                           "rule)."))

    def __init__(self, *args, user=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.user = user   # the organiser: their own rules are offered beside the published ones
        self.fields["preset"].choices = [("", _("None: the settings below"))] + club_rule_choices(user)
        self.fields["published"].initial = False
        self.fields["formula"].required = False    # a club rule names its own
        self.fields["published"].help_text = _("A past tournament's public page shows its final standings.")

    def clean(self):
        data = super().clean()
        preset = club_preset_for(self.user, data.get("preset") or "")
        if preset is not None:
            data["formula"] = data.get("formula") or preset.formula
        elif not data.get("formula"):
            self.add_error("formula", _("Choose a formula, or a club rule."))
        return data

    def settings(self):
        """The scoring settings chosen, as transfer.workbooks.services.past_tournament_import takes them: a
        club rule's own when one is chosen (como_reference included)."""
        data = self.cleaned_data
        chosen = {name: data.get(name) for name in SETTINGS if name != "club_preset"}
        preset = club_preset_for(self.user, data.get("preset") or "")
        if preset is not None:
            chosen.update({name: value for name, value in preset.tournament_settings.items() if name in SETTINGS})
            chosen["club_preset"] = preset.key
        return chosen


class WorkbookUploadForm(forms.Form):
    file = forms.FileField(label=_("Workbook or CSV file"),
                           help_text=_("Excel (.xlsx, .xls), LibreOffice (.ods) or CSV: a club's sheets (one sheet a "
                                       "round) or GestioneTorneo's workbook."),
                           widget=forms.ClearableFileInput(attrs={"accept": ".xlsx,.xlsm,.xls,.ods,.csv"}))

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > MAX_BYTES:
            raise forms.ValidationError(_("The file is larger than %(n)d MB.") % {"n": MAX_BYTES // (1024 * 1024)})
        return upload


def sign_preview(past, filename):
    return signing.dumps({"past": to_document(past), "file": filename[:200]}, salt=SALT, compress=True)


def unsign_preview(token):
    """(the tournament read, its file name), or None when the token is not one this server signed (or is old)."""
    try:
        value = signing.loads(token or "", salt=SALT, max_age=PREVIEW_HOURS * 3600)
        return from_document(value["past"]), value["file"]
    except (signing.BadSignature, KeyError, TypeError, ValueError):
        return None
