
from django import forms
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from tournaments.imports import pasted_list_to_csv
from tournaments.models import OFFICIAL_MAX_FEE, Club, Player, TieBreak, Tournament
from tournaments.services import club_find_duplicate
from tournaments.text import checked_name


def add_service_errors(form, exc):
    """Show a service's ValidationError on the form: next to its field, or at the top."""
    if hasattr(exc, "error_dict"):
        for name, errors in exc.error_dict.items():
            form.add_error(name if name in form.fields else None, errors)
    else:
        form.add_error(None, exc.messages)


def save_or_errors(form, service, **kwargs):
    """Run a service with the form's data; its ValidationErrors become the form's errors (None returned)."""
    try:
        return service(data=form.cleaned_data, **kwargs)
    except ValidationError as exc:
        add_service_errors(form, exc)
        return None


class NumericInput(forms.NumberInput):
    """A number field that opens the numeric keypad on phones."""

    def __init__(self, attrs=None, decimals=True):
        base = {"inputmode": "decimal" if decimals else "numeric"}
        base.update(attrs or {})
        super().__init__(base)


class ClubForm(forms.ModelForm):
    class Meta:
        model = Club
        fields = ["name", "city"]

    def clean_name(self):
        name = self.cleaned_data["name"].strip()
        if not name:
            raise forms.ValidationError(_("The name cannot be empty."))
        if club_find_duplicate(name=name, exclude_pk=self.instance.pk):
            raise forms.ValidationError(_("A club with this name already exists."))
        return name


def _required_text(value):
    value = (value or "").strip()
    if not value:
        raise forms.ValidationError(_("This field cannot be empty."))
    return value


def _name_text(value, required=True):
    """A name as stored (tournaments.text.checked_name: NFKC, no invisible characters or direction
    overrides, one alphabet)."""
    try:
        return checked_name(value, required)
    except ValidationError as exc:
        raise forms.ValidationError(exc.messages) from None


class PlayerForm(forms.ModelForm):
    class Meta:
        model = Player
        fields = ["first_name", "last_name", "nickname", "club", "city", "email"]

    def clean_first_name(self):
        return _name_text(self.cleaned_data.get("first_name"))

    def clean_last_name(self):
        return _name_text(self.cleaned_data.get("last_name"))

    def clean_nickname(self):
        return _name_text(self.cleaned_data.get("nickname"), required=False)

    def clean_city(self):
        return _name_text(self.cleaned_data.get("city"), required=False)


class SignupForm(PlayerForm):
    """The public sign-up form of a published tournament."""

    privacy = forms.BooleanField(label=_("I agree that my name, club and results are shown on the tournament's public pages."))

    class Meta(PlayerForm.Meta):
        fields = ["first_name", "last_name", "nickname", "club", "city", "email"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["email"].required = True


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


TIEBREAK_CHOICES = [("", "—")] + list(TieBreak.choices)


class TournamentForm(forms.ModelForm):
    tiebreak_1 = forms.ChoiceField(label=_("1st tie-break"), choices=TIEBREAK_CHOICES, required=False)
    tiebreak_2 = forms.ChoiceField(label=_("2nd tie-break"), choices=TIEBREAK_CHOICES, required=False)
    tiebreak_3 = forms.ChoiceField(label=_("3rd tie-break"), choices=TIEBREAK_CHOICES, required=False)
    tiebreak_4 = forms.ChoiceField(label=_("4th tie-break"), choices=TIEBREAK_CHOICES, required=False)

    class Meta:
        model = Tournament
        fields = ["name", "start_date", "end_date", "venue", "club", "formula", "bonus", "spartaco_malus",
                  "como_reference", "discard_worst", "best_of", "table_size", "rounds_planned", "entry_fee",
                  "published", "signup_open", "dispute_window_minutes"]
        widgets = {
            "start_date": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
            "end_date": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
            "bonus": NumericInput(),
            "spartaco_malus": NumericInput(),
            "entry_fee": NumericInput(attrs={"step": "0.50"}),
            "como_reference": NumericInput(decimals=False),
            "discard_worst": NumericInput(decimals=False),
            "best_of": NumericInput(decimals=False),
            "rounds_planned": NumericInput(decimals=False),
            "dispute_window_minutes": NumericInput(decimals=False),
        }

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        chain = list(self.instance.tiebreak_chain) if self.instance.pk else ["best_results"]
        for i, name in enumerate(chain[:4], start=1):
            self.fields[f"tiebreak_{i}"].initial = name
        self.fields["entry_fee"].help_text = _("The official maximum is %(max)s EUR.") % {"max": OFFICIAL_MAX_FEE}

    def clean_name(self):
        return _required_text(self.cleaned_data.get("name"))

    def clean(self):
        data = super().clean()
        start, end = data.get("start_date"), data.get("end_date")
        if start and end and end < start:
            self.add_error("end_date", _("The end date is before the start date."))
        chain = [data.get(f"tiebreak_{i}") for i in range(1, 5)]
        chain = [c for c in chain if c]
        if len(set(chain)) != len(chain):
            self.add_error("tiebreak_2", _("Each tie-break can appear only once."))
        data["tiebreak"] = ",".join(chain)
        best_of, discard = data.get("best_of"), data.get("discard_worst")
        if best_of and discard:
            self.add_error("best_of", _("Use either discards or best results counted, not both."))
        return data

    @property
    def fee_warning(self):
        fee = self.cleaned_data.get("entry_fee") if hasattr(self, "cleaned_data") else None
        return fee is not None and fee > OFFICIAL_MAX_FEE


class ModelMultipleIdsField(forms.ModelMultipleChoiceField):
    """SQLite cannot even compare an id beyond 64 bits: such an id is an invalid choice, not a crash."""

    def _check_values(self, value):
        try:
            return super()._check_values(value)
        except OverflowError:
            raise forms.ValidationError(self.error_messages["invalid_pk_value"], code="invalid_pk_value",
                                        params={"pk": max(value, key=lambda v: len(str(v)))}) from None


class ArbitersForm(forms.Form):
    arbiters = ModelMultipleIdsField(label=_("Arbiters"), queryset=get_user_model().objects.none(),
                                     required=False, widget=forms.CheckboxSelectMultiple)

    def __init__(self, *args, candidates=None, **kwargs):
        super().__init__(*args, **kwargs)
        # The organiser's own people only (tournaments.account_selectors.arbiter_candidates): never the
        # server's list of users.
        if candidates is not None:
            self.fields["arbiters"].queryset = candidates


class ArbiterAccountForm(forms.Form):
    username = forms.CharField(label=_("User name"), max_length=150,
                               help_text=_("Letters, digits and @/./+/-/_ only."))
    first_name = forms.CharField(label=_("Name"), max_length=150, required=False)


class ArbiterByNameForm(forms.Form):
    """A colleague of another club, by the exact user name they give you (their password already chosen)."""

    colleague = forms.CharField(label=_("Exact user name"), max_length=150,
                                help_text=_("An account that has already chosen its password."))


class RegistrationAddForm(forms.Form):
    player = forms.ModelChoiceField(label=_("Player"), queryset=Player.objects.select_related("club"))
    fee_paid = forms.BooleanField(label=_("Fee paid"), required=False)


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
