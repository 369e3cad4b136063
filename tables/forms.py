import re
from decimal import Decimal, InvalidOperation

from django import forms
from django.utils.translation import gettext_lazy as _

from tournaments.forms import NumericInput, decimal_text
from tournaments.models import SEATING_METHODS


class DrawForm(forms.Form):
    method = forms.ChoiceField(label=_("Seating method"), choices=SEATING_METHODS, initial="random")
    sizes = forms.CharField(label=_("Table sizes (optional)"), required=False, max_length=400,
                            help_text=_("E.g. 5,4,4 to set every table's size; empty = automatic."))
    plan = forms.CharField(label=_("Fixed plan"), required=False, widget=forms.Textarea(attrs={"rows": 4}),
                           help_text=_("One table per line, players by their number in the check-in list, "
                                       "e.g. 1 5 9 13."))
    seed = forms.IntegerField(label=_("Draw number"), required=False, min_value=0, max_value=999_999,
                              help_text=_("The same number with the same players gives the same draw."))
    outside_format = forms.BooleanField(
        label=_("Draw a round the format does not plan"), required=False,
        help_text=_("Everyone checked in is seated; the round's points count in the qualifying standings, "
                    "and the format's next phase waits until it is closed."))

    def __init__(self, *args, present=0, outside_format=False, **kwargs):
        super().__init__(*args, **kwargs)
        self.present = present
        if not outside_format:  # only asked when the format's next step is not a round drawn here
            del self.fields["outside_format"]
        self.fields["plan"].show_when = ("method", ["fixed"])

    def clean_sizes(self):
        raw = self.cleaned_data["sizes"].strip()
        if not raw:
            return None
        parts = [p for p in re.split(r"[\s,;+]+", raw) if p]
        if not all(p.isdecimal() for p in parts):  # isdigit() also accepts "²", which int() refuses
            raise forms.ValidationError(_("Write the sizes as whole numbers separated by commas, e.g. 5,4,4."))
        sizes = [int(p) for p in parts]
        if any(not 3 <= s <= 6 for s in sizes):
            raise forms.ValidationError(_("Every table must have 3 to 6 players."))
        if self.present and sum(sizes) != self.present:
            raise forms.ValidationError(_("The sizes add up to %(sum)d, but %(n)d players are present.")
                                        % {"sum": sum(sizes), "n": self.present})
        return sizes

    def clean(self):
        data = super().clean()
        if data.get("method") == "fixed" and not (data.get("plan") or "").strip():
            self.add_error("plan", _("Write the plan for the fixed method."))
        return data


class _TablePointsInput(forms.TextInput):
    """Saved table points shown again as typed: "12,5", never "12.50"."""

    def format_value(self, value):
        if isinstance(value, (Decimal, int)) and not isinstance(value, bool):
            return decimal_text(value)
        return super().format_value(value)


class TablePointsField(forms.DecimalField):
    """Table points as typed on a phone: "12,5" (the Italian keypad's decimal comma) is 12.5, never 125;
    letters or any other text are refused with a message, never dropped. A plain text box with the
    decimal keypad: a number box lets the browser drop what it does not read before the server sees it."""

    default_error_messages = {
        "invalid": _("Write the table points in digits, e.g. 62 or 12,5: “%(value)s” is not a number."),
    }

    def __init__(self, **kwargs):
        kwargs.setdefault("widget", _TablePointsInput(attrs={"inputmode": "decimal", "autocomplete": "off",
                                                            "class": "tp-input"}))
        super().__init__(**kwargs)

    def to_python(self, value):
        if value in self.empty_values:
            return None
        text = str(value).strip().replace(" ", "")
        if text.count(",") == 1 and "." not in text:
            text = text.replace(",", ".")
        if not re.fullmatch(r"\d+(\.\d+)?", text):
            raise forms.ValidationError(self.error_messages["invalid"], code="invalid",
                                        params={"value": str(value)[:20]})
        return super().to_python(text)


class WholeNumberField(forms.IntegerField):
    """A small whole number on a phone (order of elimination, place, armies): text box with the digit
    keypad, anything else than digits refused with a message."""

    default_error_messages = {"invalid": _("Write a whole number in digits: “%(value)s” is not one.")}

    def __init__(self, **kwargs):
        kwargs.setdefault("widget", forms.TextInput(attrs={"inputmode": "numeric", "autocomplete": "off"}))
        super().__init__(**kwargs)

    def to_python(self, value):
        if value in self.empty_values:
            return None
        text = str(value).strip()
        if not text.isdecimal() or not text.isascii():
            raise forms.ValidationError(self.error_messages["invalid"], code="invalid",
                                        params={"value": text[:20]})
        return super().to_python(text)


class ResultSeatForm(forms.Form):
    """One player's line of a table result (SCORING.md section 2)."""

    seat = forms.IntegerField(widget=forms.HiddenInput)
    table_points = TablePointsField(label=_("Table points"), min_value=0, max_value=200, decimal_places=2,
                                    max_digits=6, required=False)
    risiko = forms.BooleanField(label="RisiKo!", required=False)
    eliminated = WholeNumberField(label=_("Eliminated (order)"), min_value=1, max_value=5, required=False)
    place = WholeNumberField(label=_("Place if tied"), min_value=1, max_value=6, required=False)
    territories = forms.MultipleChoiceField(required=False, widget=forms.CheckboxSelectMultiple)
    armies = WholeNumberField(label=_("Armies on the board (ties)"), min_value=0, max_value=9999, required=False)

    def __init__(self, *args, territory_choices=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["territories"].choices = territory_choices


def parse_points(raw):
    try:
        value = Decimal(str(raw).replace(",", "."))
    except InvalidOperation:
        return None
    return value if value.is_finite() else None


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


class PlayerOutForm(forms.Form):
    """A player of the table was eliminated: they leave the end roll's turn order (R.T.U. Editrice Giochi, casebook)."""
    registration = forms.TypedChoiceField(label=_("Player eliminated"), coerce=int)

    def __init__(self, *args, seats=(), out=frozenset(), **kwargs):
        super().__init__(*args, prefix="out", **kwargs)
        self.fields["registration"].choices = [(s.registration_id, s.registration.player.full_name)
                                               for s in seats if s.registration_id not in out]
