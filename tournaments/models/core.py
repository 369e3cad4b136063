"""Clubs, players, tournaments, registrations, roles and the audit log."""
from datetime import timedelta
from decimal import Decimal

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models.functions import Lower
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from scoring.formulas import get_formula
from tournaments.models import phase_names
from tournaments.text import fold

# The big screen's panels, in the order it shows them (tables.room).
SCREEN_PANELS = ("clock", "seating", "results", "standings")
SCREEN_PANELS_DEFAULT = ",".join(SCREEN_PANELS)
SCREEN_SECONDS_MIN, SCREEN_SECONDS_MAX = 5, 120

# The official maximum entry fee (seed 004, R.T.U.): above it the form warns.
OFFICIAL_MAX_FEE = Decimal("10.00")


class Formula(models.TextChoices):
    PUNTI_TAVOLO = "punti_tavolo", _("Table points")
    CONVERSIONE150 = "conversione150", _("Conversion 150")
    CONVERSIONE200 = "conversione200", _("Conversion 200")
    BONUS50 = "bonus50", _("Table points + win bonus")
    VITTORIE = "vittorie", _("Number of wins")
    TRIESTINO = "triestino", _("Trieste method")
    STANDARD = "standard", _("Standard points")
    FAENTINO = "faentino", _("Faenza method")
    SPARTACO = "spartaco", _("Spartaco formula")
    MAIALINO = "maialino", _("Maialino formula")
    VERONESE = "veronese", _("Verona/Trento formula")
    MEDAGLIERE = "medagliere", _("Olympic medal table")
    MILLESIMI = "millesimi", _("Thousandths (Master)")
    MAIALINO_2024 = "maialino_2024", _("Maialino 2024 formula (Modena)")


class TieBreak(models.TextChoices):
    BEST_RESULTS = "best_results", _("Best single results")
    WINS = "wins", _("Games won")
    TABLE_POINTS = "table_points", _("Total table points")
    HEAD_TO_HEAD = "head_to_head", _("Head to head")
    PREVIOUS_ROUND = "previous_round", _("Standing after the previous round")


# SCORING.md 13.1, 13.3, 13.6: the choices of the club variants (empty: the rule of sections 4-6).
CORRECTIVE_SCOPES = [("score", _("the whole score (Como)")),
                     ("table_points", _("the table points, before the formula"))]
SPARTACO_RISIKO_LOSERS = [("flat", _("100 minus the malus (86)")), ("own_tp", _("their own table points"))]
STANDARD_ELIMINATED = [("order", _("by elimination order: 1st eliminated 1 point")),
                       ("position", _("by final place: 5 minus the place"))]

# Tournament formats (seed 004 "Formule per un Torneo Ufficiale", seed 000 Como, seed 001 2vs2,
# seed 003 knockout, SCORING.md 13.10 team championship); their phases are built by the phases app.
FORMAT_PRESETS = [
    ("sum3", _("3 games, points summed")),
    ("sum3_final", _("3 games + final of the top 4")),
    ("semis16", _("2 games + semifinals of the top 16 + final")),
    ("master", _("Master: 2 games in thousandths + semifinals of the top 16, or the unbeaten leader to the final")),
    ("evenings_final", _("4-6 games with discards + final (+ finalina)")),
    ("championship", _("Championship: 8 or more evenings with discards + final")),
    ("evenings_top2_repechage", _("Evenings with discards: top 2 to the final, 2 semifinals + repêchage")),
    ("evenings_top1_repechage", _("Evenings, worst discarded: 1st to the final, 3 semifinals + repêchage")),
    ("composed", _("Build your own: direct finalists, semifinals, repêchage")),
    ("knockout", _("Knockout without second chance")),
    ("knockout_second_chance", _("Knockout with second chance")),
    ("como", _("Como: best 3 of 4 evenings")),
    ("teams_2vs2", _("2vs2 teams, round robin")),
    ("team_championship", _("National team championship: club teams of 4, 3 games")),
]
# SCORING.md 13.9: the Raduno, parallel finals above 76 players.
FORMAT_PRESETS += [
    ("raduno", _("Raduno: qualifying games, semifinals, parallel finals above 76 players")),
]

# SCORING.md section 10: the sums that end a timed game.
END_ROLL_VARIANTS = [
    ("standard", _("Two dice: 4, then 4-5, 4-6, 4-7")),
    ("or_less", _("Two dice, or less: 4 or less, then 5, 6, 7 or less")),
    ("lariana", _("Lariana: 3 more rounds, then 4, then 4 or 7")),
    ("firenze", _("Firenze: the arbiter rolls one die, 1-2 ends")),
]

# How a round's tables are drawn (tables.seating): the draw form's choices and the audit log's words.
SEATING_METHODS = [
    ("random", _("Random draw (fewest same-club pairs and rematches)")),
    ("seeded_top", _("Table 1 = current top players (Como)")),
    ("snake", _("Snake (strength spread evenly)")),
    ("swiss", _("Swiss (ranks 1-4 at table 1, 5-8 at table 2...)")),
    ("greek", _("Greek (winners stay, the others move on)")),
    ("fixed", _("Fixed plan written by the organiser")),
]


class Club(models.Model):
    name = models.CharField(_("name"), max_length=120)
    city = models.CharField(_("city"), max_length=120, blank=True)
    # fold(name city): what the accent- and case-insensitive search compares (tournaments.text).
    search_key = models.CharField(max_length=250, blank=True, editable=False)
    # The organiser who created the club: with an administrator, the only one who renames or deletes it
    # (tournaments.rules.may_change_club). Every organiser may name it on their players and tournaments.
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, editable=False,
                                   on_delete=models.SET_NULL, related_name="+")

    class Meta:
        ordering = [Lower("name")]
        constraints = [models.UniqueConstraint(Lower("name"), name="club_name_unique_ci")]
        verbose_name = _("club")
        verbose_name_plural = _("clubs")

    def __str__(self):
        return self.name

    def save(self, *args, **kwargs):
        self.search_key = fold(f"{self.name} {self.city}")
        if kwargs.get("update_fields") is not None:
            kwargs["update_fields"] = set(kwargs["update_fields"]) | {"search_key"}
        super().save(*args, **kwargs)


class ListedPlayers(models.Manager):
    """Players merged into another one or deleted stay in the database for the audit log, unlisted."""

    def get_queryset(self):
        return super().get_queryset().filter(removed=False)


class Player(models.Model):
    first_name = models.CharField(_("name"), max_length=80)
    last_name = models.CharField(_("surname"), max_length=80)
    nickname = models.CharField(_("nickname"), max_length=80, blank=True)
    club = models.ForeignKey(Club, verbose_name=_("club"), null=True, blank=True,
                             on_delete=models.PROTECT, related_name="players")
    city = models.CharField(_("city"), max_length=120, blank=True)
    email = models.EmailField(_("email"), blank=True)
    # The federation's number of the player (GestioneTorneo's "ID NAZIONALE"): one person, one number,
    # so a workbook naming it finds the player before any name does (transfer.workbooks).
    national_id = models.CharField(_("national ID"), max_length=40, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)
    # fold("first last"): two players of one club with the same name_key are the same person.
    name_key = models.CharField(max_length=170, blank=True, editable=False, db_index=True)
    # fold(first last nickname city): what the search compares, with the club's search_key.
    search_key = models.CharField(max_length=420, blank=True, editable=False)
    removed = models.BooleanField(default=False, editable=False)
    merged_into = models.ForeignKey("self", null=True, blank=True, editable=False, on_delete=models.PROTECT,
                                    related_name="+")
    # The organiser who typed or imported the player (for a public sign-up: the tournament's organiser):
    # the record's owner, who alone (with an administrator) reads their e-mail and changes, merges or
    # deletes them. Other organisers register them in their own tournaments (tournaments.rules).
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, editable=False,
                                   on_delete=models.SET_NULL, related_name="+")

    objects = ListedPlayers()
    all_players = models.Manager()

    class Meta:
        base_manager_name = "all_players"
        ordering = [Lower("last_name"), Lower("first_name")]
        verbose_name = _("player")
        verbose_name_plural = _("players")
        indexes = [models.Index(Lower("last_name"), Lower("first_name"), name="player_name_ci")]
        constraints = [models.UniqueConstraint(fields=["national_id"], condition=~models.Q(national_id=""),
                                               name="player_national_id_unique",
                                               violation_error_message=_("Another player has this national ID."))]

    def __str__(self):
        return self.full_name

    @property
    def full_name(self):
        return f"{self.first_name} {self.last_name}"

    def save(self, *args, **kwargs):
        self.name_key = fold(f"{self.first_name} {self.last_name}")
        self.search_key = fold(f"{self.first_name} {self.last_name} {self.nickname} {self.city}")
        if kwargs.get("update_fields") is not None:
            kwargs["update_fields"] = set(kwargs["update_fields"]) | {"name_key", "search_key"}
        super().save(*args, **kwargs)

    @property
    def display_name(self):
        return f"{self.full_name} ({self.nickname})" if self.nickname else self.full_name


class Tournament(models.Model):
    name = models.CharField(_("name"), max_length=160)
    start_date = models.DateField(_("start date"))
    end_date = models.DateField(_("end date"), null=True, blank=True)
    venue = models.CharField(_("venue"), max_length=200, blank=True)
    club = models.ForeignKey(Club, verbose_name=_("organising club"), null=True, blank=True,
                             on_delete=models.SET_NULL, related_name="tournaments")
    organiser = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("organiser"),
                                  on_delete=models.PROTECT, related_name="organised_tournaments")
    arbiters = models.ManyToManyField(settings.AUTH_USER_MODEL, verbose_name=_("arbiters"), blank=True,
                                      related_name="arbitrated_tournaments")
    formula = models.CharField(_("scoring formula"), max_length=20, choices=Formula.choices,
                               default=Formula.CONVERSIONE150)
    bonus = models.DecimalField(_("win bonus"), max_digits=6, decimal_places=2, default=Decimal("50"),
                                validators=[MinValueValidator(0), MaxValueValidator(500)],
                                help_text=_("Bonus to the winner (table points + bonus, number of wins)."))
    spartaco_malus = models.DecimalField(_("Spartaco RisiKo! malus"), max_digits=6, decimal_places=2,
                                         default=Decimal("14"), validators=[MinValueValidator(0), MaxValueValidator(100)])
    como_reference = models.PositiveSmallIntegerField(
        _("Como correctives: reference table size"), null=True, blank=True,
        validators=[MinValueValidator(3), MaxValueValidator(6)],
        help_text=_("Leave empty for no corrective; 5 multiplies by 3/5, 4/5, 6/5 at tables of 3, 4, 6."))
    # Club variants (SCORING.md section 13): empty keeps the rule of sections 4-6.
    corrective_scope = models.CharField(
        _("Como correctives scale"), max_length=12, blank=True, default="", choices=CORRECTIVE_SCOPES,
        help_text=_("The whole score (Como), or the table points before the formula (RCU Roma: Raduno, Open, "
                    "Torneo Gufo). Needs the reference table size."))
    risiko_total = models.DecimalField(
        _("points of a RisiKo! winner"), max_digits=7, decimal_places=2, null=True, blank=True,
        validators=[MinValueValidator(0), MaxValueValidator(1000)],
        help_text=_("Empty: 100 table points plus the bonus. The 2004 national final gave 110."))
    spartaco_risiko_losers = models.CharField(
        _("Spartaco: the others after a RisiKo!"), max_length=8, blank=True, default="",
        choices=SPARTACO_RISIKO_LOSERS)
    standard_eliminated = models.CharField(
        _("standard points of an eliminated player"), max_length=8, blank=True, default="",
        choices=STANDARD_ELIMINATED)
    # The club rule (SCORING.md 13.12) whose settings the organiser started from; every setting stays
    # editable, so this only names where they came from.
    club_preset = models.CharField(_("club rule"), max_length=24, blank=True, default="")
    discard_worst = models.PositiveSmallIntegerField(_("results discarded (worst)"), default=0,
                                                     validators=[MaxValueValidator(20)])
    best_of = models.PositiveSmallIntegerField(_("best results counted"), null=True, blank=True,
                                               validators=[MinValueValidator(1), MaxValueValidator(50)])
    tiebreak = models.CharField(_("tie-break chain"), max_length=120, default="best_results", blank=True,
                                help_text=_("Comma-separated, in order: best_results, wins, table_points, head_to_head."))
    table_size = models.PositiveSmallIntegerField(_("preferred table size"), choices=[(4, "4"), (5, "5")], default=4)
    rounds_planned = models.PositiveSmallIntegerField(_("number of rounds"), default=3,
                                                      validators=[MinValueValidator(1), MaxValueValidator(30)])
    entry_fee = models.DecimalField(_("entry fee (EUR)"), max_digits=7, decimal_places=2, default=Decimal("0"),
                                    validators=[MinValueValidator(0)])
    published = models.BooleanField(_("published"), default=False,
                                    help_text=_("Published tournaments have a public page."))
    signup_open = models.BooleanField(_("public sign-up open"), default=False)
    dispute_window_minutes = models.PositiveIntegerField(_("dispute window (minutes)"), default=120)
    format_preset = models.CharField(_("tournament format"), max_length=24, blank=True, default="",
                                     choices=[("", _("Rounds only (no phases)"))] + FORMAT_PRESETS)
    end_roll_variant = models.CharField(_("end of a timed game"), max_length=10, choices=END_ROLL_VARIANTS,
                                        default="standard")
    # SCORING.md 8.1: the Firenze points sheet's value of a conquered continent (the seed's is lost).
    firenze_continent_points = models.DecimalField(
        _("Firenze sheet: points per conquered continent"), max_digits=5, decimal_places=2, default=Decimal("0"),
        validators=[MinValueValidator(0), MaxValueValidator(100)],
        help_text=_("The original sheet's value is lost: 0 unless the organiser decides otherwise. Announce it before the "
                    "tournament."))
    # The room (tables.room): what the big screen shows and at what pace; the sites that may frame
    # the standings widget.
    screen_panels = models.CharField(_("big screen panels"), max_length=60, default=SCREEN_PANELS_DEFAULT,
                                     blank=True)
    screen_seconds = models.PositiveSmallIntegerField(
        _("seconds per big screen page"), default=15,
        validators=[MinValueValidator(SCREEN_SECONDS_MIN), MaxValueValidator(SCREEN_SECONDS_MAX)])
    embed_origins = models.TextField(_("sites allowed to embed the standings"), blank=True, default="",
                                     help_text=_("One address per line, e.g. https://www.myclub.it"))
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-start_date", "name"]
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")

    def __str__(self):
        return self.name

    def get_absolute_url(self):
        return reverse("public:tournament", args=[self.pk])

    @property
    def tiebreak_chain(self):
        return tuple(item.strip() for item in self.tiebreak.split(",") if item.strip())

    @property
    def points_decimals(self):
        """The decimals the tournament's points (totals, games, penalties) are shown with: 3 under
        `millesimi` (SCORING.md 13.4), else 2; table points keep their own."""
        return get_formula(self.formula).decimals

    @property
    def fee_above_official_max(self):
        return self.entry_fee > OFFICIAL_MAX_FEE

    @property
    def screen_panel_list(self):
        return [p for p in self.screen_panels.split(",") if p in SCREEN_PANELS]

    @property
    def embed_origin_list(self):
        return [line.strip() for line in self.embed_origins.splitlines() if line.strip()]

    def dispute_window_closes(self, published_at):
        """Disputes about standings published at `published_at` are accepted until this moment (seed 001
        art. 2: 2 hours by default), in every format; None while nothing is published."""
        return None if published_at is None else published_at + timedelta(minutes=self.dispute_window_minutes)


class Registration(models.Model):
    class Status(models.TextChoices):
        PENDING = "pending", _("pending approval")
        CONFIRMED = "confirmed", _("confirmed")
        WITHDRAWN = "withdrawn", _("withdrawn")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="registrations")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="registrations")
    status = models.CharField(_("status"), max_length=12, choices=Status.choices, default=Status.CONFIRMED)
    fee_paid = models.BooleanField(_("fee paid"), default=False)
    present = models.BooleanField(_("checked in"), default=False)
    late_entry = models.BooleanField(_("late entry"), default=False)
    from_round = models.PositiveSmallIntegerField(_("plays from round"), default=1)
    self_registered = models.BooleanField(_("signed up online"), default=False)
    # A public sign-up that named a player already in the list: the organiser checks it is them.
    existing_player = models.BooleanField(_("matches an existing player"), default=False, editable=False)
    note = models.CharField(_("note"), max_length=200, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    withdrawn_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = [Lower("player__last_name"), Lower("player__first_name")]
        constraints = [models.UniqueConstraint(fields=["tournament", "player"], name="one_registration_per_player")]
        verbose_name = _("registration")
        verbose_name_plural = _("registrations")

    def __str__(self):
        return f"{self.player} @ {self.tournament}"

    @property
    def active(self):
        return self.status == self.Status.CONFIRMED


class AccountOwner(models.Model):
    """Who made an account from the app (an organiser, on a tournament's "Arbitri" page): the owner
    alone offers it in their lists and gives it a one-time link to choose its password."""

    account = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="owned_by")
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="owned_accounts")
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self):
        return f"{self.account} ({self.owner})"


class AuditLogQuerySet(models.QuerySet):
    def delete(self):
        raise PermissionError("the audit log is append-only")

    def update(self, **kwargs):
        raise PermissionError("the audit log is append-only")


class AuditLog(models.Model):
    """Append-only record of every change: who changed what from what to what."""

    tournament = models.ForeignKey(Tournament, null=True, blank=True, on_delete=models.PROTECT,
                                   related_name="audit_entries")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT)
    action = models.CharField(max_length=60)
    object_type = models.CharField(max_length=40)
    object_id = models.CharField(max_length=40, blank=True)
    player = models.ForeignKey(Player, null=True, blank=True, on_delete=models.PROTECT)
    # "round/table", or "round: home team - away team" for a 2vs2 match (two team names of 80).
    table_label = models.CharField(max_length=200, blank=True)
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    objects = AuditLogQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at", "-pk"]

    def save(self, *args, **kwargs):
        if self.pk is not None:
            raise PermissionError("the audit log is append-only")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise PermissionError("the audit log is append-only")


class LoginThrottle(models.Model):
    """A counter of login tries in a window, keyed "address:...", "account:..." or "pair:account|address"
    (see tournaments.accounts.throttle)."""

    key = models.CharField(max_length=255, unique=True)
    count = models.PositiveIntegerField(default=0)
    started_at = models.DateTimeField(db_index=True)


class Phase(models.Model):
    """A stage of a tournament: qualifying rounds, semifinals, final, finalina, knockout stage."""

    class Kind(models.TextChoices):
        QUALIFYING = "qualifying", _("qualifying rounds")
        SEMIFINAL = "semifinal", _("semifinals")
        FINAL = "final", _("final")
        FINALINA = "finalina", _("finalina")
        KNOCKOUT = "knockout", _("knockout")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="phases")
    order = models.PositiveSmallIntegerField(_("order"))
    kind = models.CharField(_("kind"), max_length=12, choices=Kind.choices, default=Kind.QUALIFYING)
    name = models.CharField(_("name"), max_length=80)
    rounds = models.PositiveSmallIntegerField(_("rounds"), default=1)
    settings = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["tournament", "order"]
        constraints = [models.UniqueConstraint(fields=["tournament", "order"], name="one_phase_order")]

    def __str__(self):
        return self.label

    @property
    def label(self):
        """The phase's name in the current language (tournaments/models/phase_names.py)."""
        return phase_names.label(self.name)
