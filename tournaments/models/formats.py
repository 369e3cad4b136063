"""Models of the formats: 2vs2 teams and their matches, the end roll of a timed game (tournaments.teams.services,
tables.clock.services), and the days of a 2vs2 round robin whose standings are published (team penalties and disputes:
tables.models, tables.arbitration)."""
from django.conf import settings
from django.db import models
from django.db.models.functions import Lower
from django.utils.translation import gettext_lazy as _

from tournaments.models.core import END_ROLL_VARIANTS, Registration, Tournament


class Team(models.Model):
    """A 2vs2 team: 2 to 3 registered players, one of them the captain (seed 001 art. 7); or, in the
    national team championship (SCORING.md 13.10), 4 registered players of one club, no captain, who play
    individual games and whose best results count for the team (tournaments.teams.championship)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="teams")
    name = models.CharField(_("team name"), max_length=80)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = [Lower("name")]
        constraints = [models.UniqueConstraint("tournament", Lower("name"), name="team_name_unique_ci")]
        verbose_name = _("team")
        verbose_name_plural = _("teams")

    def __str__(self):
        return self.name


class TeamMember(models.Model):
    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="members")
    registration = models.OneToOneField(Registration, on_delete=models.PROTECT, related_name="team_membership")
    captain = models.BooleanField(_("captain"), default=False)

    class Meta:
        ordering = ["-captain", "pk"]


class TeamMatch(models.Model):
    """One 2vs2 match of the round robin: one table, two players of each team (seed 001 art. 5-6)."""

    class Ending(models.TextChoices):
        WIPEOUT = "wipeout", _("every opposing army eliminated before the limit")
        TIME = "time", _("limit reached (25 turns or 90 minutes)")
        RISIKO = "risiko", _("a player made RisiKo!")
        FORFEIT = "forfeit", _("forfeit (absent or more than 15 minutes late)")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="team_matches")
    round = models.PositiveSmallIntegerField(_("round"))
    home = models.ForeignKey(Team, on_delete=models.PROTECT, related_name="home_matches")
    away = models.ForeignKey(Team, on_delete=models.PROTECT, related_name="away_matches")
    home_lineup = models.ManyToManyField(Registration, blank=True, related_name="+")
    away_lineup = models.ManyToManyField(Registration, blank=True, related_name="+")
    ending = models.CharField(_("how it ended"), max_length=10, choices=Ending.choices, blank=True)
    decided_by = models.ForeignKey(Team, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    home_territories = models.PositiveSmallIntegerField(default=0)
    away_territories = models.PositiveSmallIntegerField(default=0)
    home_best = models.PositiveSmallIntegerField(default=0)
    away_best = models.PositiveSmallIntegerField(default=0)
    home_territory_points = models.DecimalField(max_digits=6, decimal_places=2, default=0)
    away_territory_points = models.DecimalField(max_digits=6, decimal_places=2, default=0)
    version = models.PositiveIntegerField(default=0)
    reported_at = models.DateTimeField(null=True, blank=True)
    reported_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT,
                                    related_name="+")

    class Meta:
        ordering = ["tournament", "round", "pk"]
        constraints = [models.UniqueConstraint(fields=["tournament", "home", "away"], name="one_match_per_pair")]

    def __str__(self):
        return f"{self.home} - {self.away}"

    @property
    def reported(self):
        return self.reported_at is not None


class EndRoll(models.Model):
    """One roll of the end of a timed game, the "sdadata" (SCORING.md section 10), at one table."""

    table = models.ForeignKey("tables.Table", on_delete=models.CASCADE, related_name="end_rolls")
    extra_round = models.PositiveSmallIntegerField(_("extra round"))
    registration = models.ForeignKey(Registration, null=True, blank=True, on_delete=models.PROTECT,
                                     related_name="+", help_text=_("Empty when the arbiter rolls (Firenze)."))
    roll = models.PositiveSmallIntegerField(_("roll"), null=True, blank=True,
                                            help_text=_("Empty: the player conquered 3 or more territories "
                                                        "in the turn and does not roll."))
    ends_game = models.BooleanField(default=False)
    eliminated = models.BooleanField(_("eliminated"), default=False,
                                     help_text=_("The player was eliminated: out of the turn order, no roll."))
    variant = models.CharField(max_length=10, choices=END_ROLL_VARIANTS)
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["table", "pk"]


# --- 2vs2 arbitration: the published days (team penalties and disputes: tables.models) -------------

class TeamDay(models.Model):
    """A day (giornata) of the round robin whose standings are published (seed 001 art. 2)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="team_days")
    number = models.PositiveSmallIntegerField(_("day"))
    standings_published_at = models.DateTimeField()
    published_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [models.UniqueConstraint(fields=["tournament", "number"], name="one_team_day")]

