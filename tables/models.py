"""Rounds, their tables and seats, and each seat's result at the table."""
from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from tournaments.models import Registration, Tournament


class Round(models.Model):
    class Status(models.TextChoices):
        DRAFT = "draft", _("draft")
        PUBLISHED = "published", _("seating published")
        CLOSED = "closed", _("closed")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="rounds")
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

    class Meta:
        ordering = ["table", "position"]
        constraints = [models.UniqueConstraint(fields=["table", "registration"], name="one_seat_per_player")]

    def __str__(self):
        return f"{self.table}: {self.registration.player}"
