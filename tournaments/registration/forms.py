"""Forms of the players' lists: a CSV file, or a pasted list of names, for the list or a tournament."""
from django import forms
from django.utils.translation import gettext_lazy as _

from tournaments.registration.imports import pasted_list_to_csv


class CsvUploadForm(forms.Form):
    file = forms.FileField(label=_("CSV file"), help_text=_(
        "Columns: name, surname, nickname, club, city, email (nickname, club, city and email may be empty). "
        "Comma or semicolon separated, UTF-8."))

    MAX_BYTES = 1024 * 1024

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > self.MAX_BYTES:
            raise forms.ValidationError(_("The file is larger than 1 MB."))
        return self.decode(upload.read())

    @staticmethod
    def decode(raw):
        # A NUL byte is no text a spreadsheet writes as CSV (UTF-16 files are full of them), and
        # PostgreSQL refuses it in a text column: the file is refused before any row is read.
        if b"\x00" in raw:
            raise forms.ValidationError(_("The file holds a NUL character: it is not a CSV text file. "
                                          "Save it again as CSV UTF-8."))
        for encoding in ("utf-8-sig", "cp1252"):
            try:
                return raw.decode(encoding)
            except UnicodeDecodeError:
                continue
        raise forms.ValidationError(_("The file is not text (UTF-8 expected)."))


class RegistrationImportForm(forms.Form):
    """A CSV file or a pasted list of names, registered straight into the tournament."""

    file = forms.FileField(label=_("CSV file"), required=False, help_text=_(
        "Columns: name, surname, nickname, club, city, email. Comma or semicolon separated, UTF-8."))
    names = forms.CharField(label=_("Or paste a list"), required=False, max_length=100_000,
                            widget=forms.Textarea(attrs={"rows": 5, "placeholder": _("Marco Rossi; Club Lario")}),
                            help_text=_("One player a line: name and surname, then the club after a semicolon."))

    def clean_file(self):
        upload = self.cleaned_data.get("file")
        if not upload:
            return ""
        if upload.size > CsvUploadForm.MAX_BYTES:
            raise forms.ValidationError(_("The file is larger than 1 MB."))
        return CsvUploadForm.decode(upload.read())

    def clean(self):
        data = super().clean()
        if self.errors:
            return data
        if data.get("file"):
            data["text"] = data["file"]
        elif (data.get("names") or "").strip():
            data["text"] = pasted_list_to_csv(data["names"])
        else:
            raise forms.ValidationError(_("Choose a CSV file or paste a list of names."))
        return data
