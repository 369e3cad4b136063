"""Rounds, their tables and seats, and each seat's result at the table; the arbitration of games and of
2vs2 matches (penalties and disputes, on the abstract models of tables.arbitration.models)."""
from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from tables.arbitration.models import DisputeBase, PenaltyBase
from tournaments.models import AuditLog, Phase, Registration, Team, TeamMatch, Tournament


class Round(models.Model):
    class Status(models.TextChoices):
        DRAFT = "draft", _("draft")
        PUBLISHED = "published", _("seating published")
        CLOSED = "closed", _("closed")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="rounds")
    phase = models.ForeignKey(Phase, null=True, blank=True, on_delete=models.PROTECT, related_name="round_set")
    number = models.PositiveSmallIntegerField(_("round"))
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.DRAFT)
    method = models.CharField(_("seating method"), max_length=20, default="random")
    seed = models.PositiveIntegerField(default=0)
    published_at = models.DateTimeField(null=True, blank=True)
    closed_at = models.DateTimeField(null=True, blank=True)
    standings_published_at = models.DateTimeField(null=True, blank=True)
    clock_started_at = models.DateTimeField(null=True, blank=True)
    clock_minutes = models.PositiveSmallIntegerField(default=90)

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [models.UniqueConstraint(fields=["tournament", "number"], name="one_round_number")]

    def __str__(self):
        return f"{self.tournament} — {self.number}"


class Table(models.Model):
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField(_("table"))
    # Incremented at every saved result: a save made on an older version is refused.
    version = models.PositiveIntegerField(default=0)
    reported_at = models.DateTimeField(null=True, blank=True)
    reported_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT)

    class Meta:
        ordering = ["round", "number"]
        constraints = [models.UniqueConstraint(fields=["round", "number"], name="one_table_number")]

    def __str__(self):
        return f"{self.round} — {self.number}"

    @property
    def reported(self):
        return self.reported_at is not None

    @property
    def audit_label(self):
        """The table as the audit log names it: "round/table" (its filter by table reads the same)."""
        return f"{self.round.number}/{self.number}"


class ResultSubmission(models.Model):
    """A table result as sent by a phone, by the id the phone gave it: a save sent twice (sent
    again after a lost answer, or by the offline queue) is applied once."""
    key = models.UUIDField()
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="submissions")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        # A phone's id names one save of one table: looked up per table (tables.results.selectors.submission_applied).
        constraints = [models.UniqueConstraint(fields=["table", "key"], name="one_submission_per_table")]

    def __str__(self):
        return f"{self.table} — {self.key}"


class Seat(models.Model):
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    registration = models.ForeignKey(Registration, on_delete=models.PROTECT, related_name="seats")
    position = models.PositiveSmallIntegerField(_("seat"))
    table_points = models.DecimalField(_("table points"), max_digits=6, decimal_places=2, null=True, blank=True)
    risiko = models.BooleanField("RisiKo!", default=False)
    eliminated = models.PositiveSmallIntegerField(_("elimination order"), null=True, blank=True)
    place = models.PositiveSmallIntegerField(_("place (tie-break)"), null=True, blank=True)
    territories = models.JSONField(_("objective territories held"), default=list, blank=True)
    forfeit = models.BooleanField(_("forfeit"), default=False)
    armies = models.PositiveIntegerField(_("armies on the board"), null=True, blank=True)
    # Seed 003 / SCORING.md 8.1: the counts of the Firenze points sheet when it decided the table.
    firenze = models.JSONField(_("Firenze points sheet"), null=True, blank=True)

    class Meta:
        ordering = ["table", "position"]
        constraints = [models.UniqueConstraint(fields=["table", "registration"], name="one_seat_per_player")]

    def __str__(self):
        return f"{self.table}: {self.registration.player}"


class Penalty(PenaltyBase):
    """An arbiter's decision against a player (seed 001 art. 20, seed 004 casebook)."""

    class Kind(models.TextChoices):
        POINTS = "points", _("points penalty")
        WARNING = "warning", _("formal warning")
        GAME_DISQUALIFICATION = "game_dq", _("disqualification from the game")
        EXPULSION = "expulsion", _("expulsion from the tournament")
        FORFEIT = "forfeit", _("forfeit (sconfitta a tavolino)")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="penalties")
    registration = models.ForeignKey(Registration, on_delete=models.PROTECT, related_name="penalties")
    seat = models.ForeignKey(Seat, null=True, blank=True, on_delete=models.PROTECT, related_name="penalties",
                             help_text=_("The game it applies to; empty for the tournament total."))
    kind = models.CharField(_("type"), max_length=12, choices=Kind.choices)
    points = models.DecimalField(_("points"), max_digits=7, decimal_places=2, default=0)
    internal_note = models.TextField(_("internal note"), blank=True)
    void_past_results = models.BooleanField(_("void past results"), default=False)
    # An expulsion that withdrew the player (not one given to a player already withdrawn): withdrawing
    # it reinstates the player, withdrawing the other does not.
    withdrew_registration = models.BooleanField(default=False, editable=False)

    class Meta:
        ordering = ["-created_at", "-pk"]


class Dispute(DisputeBase):
    """A ricorso against a table result, a penalty or a published standing (seed 001 art. 2)."""

    class About(models.TextChoices):
        RESULT = "result", _("table result")
        PENALTY = "penalty", _("penalty")
        STANDING = "standing", _("published standings")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="disputes")
    about = models.CharField(_("against"), max_length=10, choices=About.choices)
    round = models.ForeignKey(Round, null=True, blank=True, on_delete=models.PROTECT, related_name="disputes")
    table = models.ForeignKey(Table, null=True, blank=True, on_delete=models.PROTECT, related_name="disputes")
    penalty = models.ForeignKey(Penalty, null=True, blank=True, on_delete=models.PROTECT, related_name="disputes")
    internal_note = models.TextField(_("internal note"), blank=True)
    correction = models.ForeignKey(AuditLog, null=True, blank=True, on_delete=models.PROTECT, related_name="+",
                                   help_text=_("The change the upheld dispute caused."))


# --- 2vs2 arbitration (tables.arbitration, kinds.MATCH): the tables keep the names they had in the
# tournaments app, so every existing database keeps its rows (migrations tables 0007, tournaments 0013).

class TeamPenalty(PenaltyBase):
    """Match points taken off a team's standings (seed 001 art. 20 on teams): never below 0."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="team_penalties")
    team = models.ForeignKey(Team, on_delete=models.PROTECT, related_name="penalties")
    day = models.PositiveSmallIntegerField(_("day"))
    points = models.PositiveSmallIntegerField(_("points"))

    class Meta:
        db_table = "tournaments_teampenalty"
        ordering = ["day", "pk"]


class TeamDispute(DisputeBase):
    """A dispute (ricorso) about a 2vs2 match, a team penalty or the team standings (seed 001 art. 2)."""

    class About(models.TextChoices):
        RESULT = "result", _("a match result")
        PENALTY = "penalty", _("a penalty")
        STANDING = "standing", _("the standings")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="team_disputes")
    about = models.CharField(_("against"), max_length=10, choices=About.choices)
    day = models.PositiveSmallIntegerField(_("day"))
    match = models.ForeignKey(TeamMatch, null=True, blank=True, on_delete=models.PROTECT, related_name="disputes")
    penalty = models.ForeignKey(TeamPenalty, null=True, blank=True, on_delete=models.PROTECT,
                                related_name="disputes")

    class Meta(DisputeBase.Meta):
        db_table = "tournaments_teamdispute"


# --- Web Push, "your table is ready" (tables.push) --------------------------------------------------

class PushSubscription(models.Model):
    """A phone that asked to be told its player's table when a round is published: the address its
    browser's push service gave it (`endpoint`, a capability URL: whoever knows it may switch the
    notifications off) and the keys the message is encrypted with. A phone follows one player."""

    registration = models.ForeignKey(Registration, on_delete=models.CASCADE, related_name="push_subscriptions")
    endpoint = models.CharField(max_length=1000, unique=True)
    p256dh = models.CharField(max_length=100)
    auth = models.CharField(max_length=50)
    # The language of the page the phone subscribed from: its notifications are written in it.
    language = models.CharField(max_length=8, default="it")
    created_at = models.DateTimeField(auto_now_add=True)
    # When a notification last reached the phone's push service (None: never): a new phone takes the
    # place of one that never worked first (tables.push.services.subscription_save).
    delivered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created_at", "pk"]

    def __str__(self):
        return f"{self.registration} — {self.endpoint[:40]}"
