
from decimal import Decimal

from django import forms
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.utils.formats import get_format
from django.utils.translation import gettext_lazy as _

from scoring.errors import InvalidParams
from scoring.formulas import get_formula
from scoring.model import Params
from tournaments.club_presets import is_club_rule_key
from tournaments.models import OFFICIAL_MAX_FEE, Club, Player, TieBreak, Tournament
from tournaments.registration.selectors import clubs_of, known_label, match_person
from tournaments.services import club_find_duplicate
from tournaments.text import checked_name, clean_name, posted_id


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


def posted_version(data):
    """The version a result form was loaded with (its hidden field "version"); -1, which nothing is on,
    when it is missing or not a number, so that the save is refused as made on an older version."""
    try:
        return int(data.get("version", ""))
    except ValueError:
        return -1


def decimal_text(value):
    """A decimal as an Italian writes it: 12.50 -> "12,5", 60 -> "60" (the language's separator, no
    trailing zeros)."""
    text = format(Decimal(value).normalize(), "f")
    return text.replace(".", get_format("DECIMAL_SEPARATOR"))


def decimal_typed(text):
    """What was typed, with a decimal comma read as the point ("12,5" -> "12.5")."""
    if isinstance(text, str) and text.count(",") == 1 and "." not in text:
        return text.replace(",", ".")
    return text


class NumericInput(forms.NumberInput):
    """A number field that opens the numeric keypad on phones. With decimals it is a text box: a
    value shows with the language's decimal comma ("12,5", never "12.50") and a comma typed is
    read as the decimal point (a number box would show and want the point)."""

    def __init__(self, attrs=None, decimals=True):
        base = {"inputmode": "decimal" if decimals else "numeric"}
        base.update(attrs or {})
        if decimals:
            base.pop("step", None)
            self.input_type = "text"
        self.decimals = decimals
        super().__init__(base)

    def format_value(self, value):
        if self.decimals and isinstance(value, (Decimal, int, float)) and not isinstance(value, bool):
            return decimal_text(value)
        return super().format_value(value)

    def value_from_datadict(self, data, files, name):
        value = super().value_from_datadict(data, files, name)
        return decimal_typed(value) if self.decimals else value


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
    # A name of three words or more may have been split at the wrong word (a pasted list guesses):
    # the card offers every split of the whole name, the one saved chosen.
    surname_from = forms.TypedChoiceField(label=_("Where does the surname start?"), required=False, coerce=int,
                                          empty_value=None, widget=forms.RadioSelect)

    class Meta:
        model = Player
        fields = ["first_name", "last_name", "surname_from", "nickname", "club", "city", "email", "national_id"]

    def clean_national_id(self):
        return " ".join((self.cleaned_data.get("national_id") or "").split())

    def _get_validation_exclusions(self):
        # One national ID, one player: checked by the service (services.player_save), which says nothing
        # of a record the organiser may not see.
        return super()._get_validation_exclusions() | {"national_id"}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        player = self.instance
        words = f"{player.first_name} {player.last_name}".split() if player.pk else []
        if len(words) < 3:
            del self.fields["surname_from"]
            return
        self.fields["surname_from"].choices = [
            (cut, _("Name: %(first)s · Surname: %(last)s") % {"first": " ".join(words[:cut]),
                                                              "last": " ".join(words[cut:])})
            for cut in range(1, len(words))]
        self.fields["surname_from"].initial = len(player.first_name.split())

    def clean(self):
        data = super().clean()
        cut = data.get("surname_from")
        if cut is not None and cut != len(self.instance.first_name.split()) and not self.errors:
            words = f"{data.get('first_name', '')} {data.get('last_name', '')}".split()
            if 0 < cut < len(words):
                data["first_name"], data["last_name"] = " ".join(words[:cut]), " ".join(words[cut:])
        return data

    def clean_first_name(self):
        return _name_text(self.cleaned_data.get("first_name"))

    def clean_last_name(self):
        return _name_text(self.cleaned_data.get("last_name"))

    def clean_nickname(self):
        return _name_text(self.cleaned_data.get("nickname"), required=False)

    def clean_city(self):
        return _name_text(self.cleaned_data.get("city"), required=False)


class NewPlayerForm(PlayerForm):
    """The "new player" form, which never makes a silent namesake: the name (and club, when chosen) is
    matched against the players `viewer` may see, case, accents and spacing aside. Registering in a
    tournament (`registering`), the one known player by that name is the one registered
    (`known_player`); several, or a known one while filling the players' list, and the form asks who
    it is: one of them, or someone else with the same name."""

    same_as = forms.ChoiceField(label=_("Who is it?"), required=False, widget=forms.RadioSelect)

    def __init__(self, *args, viewer, registering=False, **kwargs):
        super().__init__(*args, **kwargs)
        self.registering, self.known_player = registering, None
        self.known = self._namesakes(viewer) if self.is_bound else []
        if not self.known:
            del self.fields["same_as"]
            return
        self.fields["same_as"].choices = [(str(p.pk), known_label(p)) for p in self.known] + [
            ("new", _("Someone else: a new player with the same name"))]

    def _namesakes(self, viewer):
        """The known players the name may be (`match_person`): the one or several by this name (and club),
        else the near misses (a typo, the names in the other order)."""
        self.question = ""
        first, last = clean_name(self.data.get("first_name")), clean_name(self.data.get("last_name"))
        if not first or not last:
            return []
        club_id = str(self.data.get("club") or "")
        club = Club.objects.filter(pk=posted_id(club_id)).first() if posted_id(club_id) is not None else None
        if club_id and club is None:
            return []
        found = match_person(viewer=viewer, first_name=first, last_name=last, club_name=club.name if club else "")
        if found.question == "elsewhere":
            return []     # another club chosen on purpose in the form's list: someone else
        self.question = found.question
        return [found.player] if found.player is not None else list(found.asked)

    def clean(self):
        data = super().clean()
        if not self.known or self.errors:
            return data
        choice = data.get("same_as")
        chosen = next((p for p in self.known if str(p.pk) == choice), None)
        if choice == "new":
            return data
        if chosen is None and self.registering and len(self.known) == 1 and not self.question:
            chosen = self.known[0]
        if chosen is not None:
            self.known_player = chosen
        elif self.question == "near":
            self.add_error("same_as", _("Did you mean %(players)s? Choose them, or tell us it is someone else.")
                           % {"players": "; ".join(known_label(p) for p in self.known)})
        elif len(self.known) == 1:
            self.add_error("same_as", _("Known player: %(player)s. Choose them to open their card, or tell us it is "
                                        "someone else.") % {"player": known_label(self.known[0])})
        else:
            self.add_error("same_as", _("Several players are called %(name)s (%(clubs)s): choose which one.")
                           % {"name": self.known[0].full_name, "clubs": clubs_of(self.known)})
        return data


class SignupForm(PlayerForm):
    """The public sign-up form of a published tournament."""

    privacy = forms.BooleanField(label=_("I agree that my name, club and results are shown on the tournament's public pages."))

    class Meta(PlayerForm.Meta):
        fields = ["first_name", "last_name", "nickname", "club", "city", "email"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["email"].required = True


TIEBREAK_CHOICES = [("", "—")] + list(TieBreak.choices)


# Seed 004 ("Formule per un Torneo Ufficiale"): the formulas clubs use for each kind of tournament.
# A suggestion only: every formula stays available.
FORMULA_SUGGESTIONS = _(
    "What official clubs use (Editrice Giochi guidelines), any formula allowed: one day (3 games, or 3 + final): conversion 150 "
    "or 200, table points + win bonus, standard points; a few evenings (4 to 6 games, 1 or 2 discards): a "
    "conversion, table points + win bonus, standard points, Spartaco; Campionato (8 evenings or more, 2 "
    "discards or more): standard points, Faenza method, Spartaco, Olympic medal table.")
TIEBREAK_DEFAULT_HELP = _(
    "A new tournament starts with \"best results\" (the best single results compared in turn). The scoring "
    "engine's command line (python -m scoring) applies no tie-break unless its document "
    "names one: there players level on points share the rank.")


class TournamentForm(forms.ModelForm):
    tiebreak_1 = forms.ChoiceField(label=_("1st tie-break"), choices=TIEBREAK_CHOICES, required=False)
    tiebreak_2 = forms.ChoiceField(label=_("2nd tie-break"), choices=TIEBREAK_CHOICES, required=False)
    tiebreak_3 = forms.ChoiceField(label=_("3rd tie-break"), choices=TIEBREAK_CHOICES, required=False)
    tiebreak_4 = forms.ChoiceField(label=_("4th tie-break"), choices=TIEBREAK_CHOICES, required=False)

    class Meta:
        model = Tournament
        fields = ["name", "start_date", "end_date", "venue", "club", "formula", "bonus", "spartaco_malus",
                  "risiko_total", "spartaco_risiko_losers", "standard_eliminated",
                  "como_reference", "corrective_scope", "discard_worst", "best_of", "table_size", "rounds_planned", "entry_fee",
                  "published", "signup_open", "dispute_window_minutes", "club_preset"]
        widgets = {
            "club_preset": forms.HiddenInput(),
            "start_date": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
            "end_date": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
            "bonus": NumericInput(),
            "spartaco_malus": NumericInput(),
            "risiko_total": NumericInput(),
            "entry_fee": NumericInput(attrs={"step": "0.50"}),
            "como_reference": NumericInput(decimals=False),
            "discard_worst": NumericInput(decimals=False),
            "best_of": NumericInput(decimals=False),
            "rounds_planned": NumericInput(decimals=False),
            "dispute_window_minutes": NumericInput(decimals=False),
        }

    # A new tournament's first screen: what every club evening sets; the rest under "More settings".
    FIRST_SCREEN = ("name", "start_date", "formula")
    # Settings that only some formulas read: shown only when the formula chosen needs them.
    FORMULA_FIELDS = {"bonus": ["bonus50", "vittorie"], "spartaco_malus": ["spartaco"],
                      "risiko_total": ["bonus50", "vittorie", "punti_tavolo"],
                      "spartaco_risiko_losers": ["spartaco"], "standard_eliminated": ["standard"]}
    # Their values when the formula chosen does not read them (hidden on the page: never an error).
    FORMULA_FIELD_DEFAULTS = {"risiko_total": None, "spartaco_risiko_losers": "", "standard_eliminated": ""}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        chain = list(self.instance.tiebreak_chain) if self.instance.pk else ["best_results"]
        for i, name in enumerate(chain[:4], start=1):
            self.fields[f"tiebreak_{i}"].initial = name
        if "entry_fee" in self.fields:   # a past tournament's form leaves the fee out
            self.fields["entry_fee"].help_text = _("The official maximum is %(max)s EUR.") % {"max": OFFICIAL_MAX_FEE}
        self.fields["formula"].help_text = FORMULA_SUGGESTIONS
        self.fields["tiebreak_1"].help_text = TIEBREAK_DEFAULT_HELP
        if not self.instance.pk:
            self.fields["published"].initial = True   # a new tournament is public unless unticked
        for name, formulas in self.FORMULA_FIELDS.items():
            if name in self.fields:
                self.fields[name].show_when = ("formula", formulas)

    @classmethod
    def initial_from(cls, source):
        """Every setting of `source` (an earlier tournament) as the initial values of a new one: the
        formula and its parameters, tie-breaks, rounds, discards... but not its name nor its dates:
        last month's name is never saved again by accident."""
        initial = {name: getattr(source, name) for name in cls._meta.fields
                   if name not in ("name", "start_date", "end_date") and hasattr(source, name)}
        initial["club"] = source.club_id
        for i, name in enumerate(list(source.tiebreak_chain)[:4], start=1):
            initial[f"tiebreak_{i}"] = name
        for i in range(len(list(source.tiebreak_chain)) + 1, 5):
            initial[f"tiebreak_{i}"] = ""
        return initial

    # The formula's own settings every club evening may touch; the club variants stay under "More settings".
    FIRST_FORMULA_FIELDS = ("bonus", "spartaco_malus")

    def first_fields(self):
        return [self[name] for name in self.FIRST_SCREEN + self.FIRST_FORMULA_FIELDS if name in self.fields]

    def more_fields(self):
        first = set(self.FIRST_SCREEN) | set(self.FIRST_FORMULA_FIELDS)
        return [field for field in self.visible_fields() if field.name not in first]

    def more_has_errors(self):
        return any(field.errors for field in self.more_fields())

    def clean_name(self):
        return _required_text(self.cleaned_data.get("name"))

    def clean_club_preset(self):
        """The club rule the settings were filled from (SCORING.md 13.12): one this application knows, else none."""
        key = self.cleaned_data.get("club_preset") or ""
        return key if is_club_rule_key(key) else ""

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
        self._clean_club_variants(data)
        return data

    def _clean_club_variants(self, data):
        """SCORING.md section 13: a variant the formula does not read is cleared (its field is hidden);
        the engine's own check names any other mismatch on the field at fault."""
        formula = data.get("formula")
        if not formula or "formula" not in self.fields:
            return
        for name, default in self.FORMULA_FIELD_DEFAULTS.items():
            if name in self.fields and formula not in self.FORMULA_FIELDS[name]:
                data[name] = default
        if data.get("corrective_scope") and data.get("como_reference") is None:
            self.add_error("corrective_scope", _("Choose the reference table size as well."))
            return
        if data.get("como_reference") is not None and not get_formula(formula).corrective:
            self.add_error("como_reference", _("This formula has its own factor at 5-player tables: leave the "
                                               "Como corrective empty."))
            return
        try:
            get_formula(formula).check_params(Params(
                como_reference=data.get("como_reference"), corrective_scope=data.get("corrective_scope") or None,
                risiko_total=data.get("risiko_total"),
                spartaco_risiko_losers=data.get("spartaco_risiko_losers") or None,
                standard_eliminated=data.get("standard_eliminated") or None))
        except InvalidParams as exc:
            self.add_error(exc.field if exc.field in self.fields else None, str(exc))

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
        # The organiser's own people only (tournaments.accounts.selectors.arbiter_candidates): never the
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
