import json
from decimal import Decimal

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from tournaments.models import Formula, Tournament

WEIGHT_MESSAGE = _("The weight must be a number greater than 0 and at most 100, with at most 2 decimals "
                   "(e.g. 1 or 1.25).")


class Circuit(models.Model):
    """A season ranking across tournaments (SCORING.md section 11), or of the players' weighted game
    results (SCORING.md 13.11, `basis` "games")."""

    class Basis(models.TextChoices):
        RANK = "rank", _("Circuit points by final rank in each tournament")
        GAMES = "games", _("Weighted game results (best games counted)")
        SEASON = "season", _("A season rule: points by terms per event category")

    class Rule(models.TextChoices):
        TABLE = "table", _("Points table by rank (plus participation points)")
        PARTICIPANTS = "participants", _("Players beaten plus one")
        SCALED = "scaled", _("Scaled to 100 whatever the size")

    name = models.CharField(_("name"), max_length=160)
    season = models.CharField(_("season"), max_length=40, help_text=_("E.g. 2025-2026."))
    basis = models.CharField(
        _("ranked by"), max_length=10, choices=Basis.choices, default=Basis.RANK,
        help_text=_("By game results: every game's points times its tournament's weight, the best ones "
                    "counted (e.g. RCU Modena: the best 30 games)."))
    formula = models.CharField(
        _("formula of the games"), max_length=20, choices=Formula.choices, blank=True, default="",
        help_text=_("Only for a circuit by game results: every tournament's games are scored in this formula "
                    "(e.g. Coppe Maialino 2024). Empty: each tournament's own formula."))
    rule = models.CharField(_("circuit points"), max_length=20, choices=Rule.choices, default=Rule.TABLE)
    points_table = models.CharField(
        _("points per rank"), max_length=400, blank=True, default="25, 20, 16, 13, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1",
        help_text=_("Points of the 1st, 2nd, 3rd... separated by commas; ranks past the list score 0. "
                    "Only for the points-table rule."))
    participation = models.DecimalField(
        _("participation points"), max_digits=6, decimal_places=2, default=Decimal("0"),
        validators=[MinValueValidator(0)],
        help_text=_("Added to every ranked player of a tournament. Only for the points-table rule."))
    best_of = models.PositiveSmallIntegerField(
        _("best results counted"), null=True, blank=True, validators=[MinValueValidator(1), MaxValueValidator(100)],
        help_text=_("Leave empty to count every tournament played (every game, in a circuit by game results)."))
    min_tournaments = models.PositiveSmallIntegerField(
        _("minimum tournaments"), default=1, validators=[MinValueValidator(1), MaxValueValidator(100)],
        help_text=_("Players with fewer tournaments are listed apart, without a rank."))
    # The season rule (schema torneo.season/1, scoring/season.py, docs/dev/season-rules.md) the
    # circuit is ranked by when `basis` is "season"; the settings above are then not read.
    # Kept as the text composed: its categories keep their order (the first is a tournament's default),
    # which a JSON column of PostgreSQL would not keep.
    season_rule_text = models.TextField(_("season rule"), blank=True, default="", editable=False)
    organiser = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("organiser"), on_delete=models.PROTECT,
                                  related_name="circuits")
    tournaments = models.ManyToManyField(Tournament, through="CircuitTournament", related_name="circuits")
    # Bumped by every audited change of the circuit: part of its public pages' version.
    revision = models.PositiveIntegerField(default=0, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-season", "name"]
        verbose_name = _("circuit")
        verbose_name_plural = _("circuits")

    def __str__(self):
        return f"{self.name} ({self.season})"

    def get_absolute_url(self):
        return reverse("public:circuit", args=[self.pk])

    def clean(self):
        if self.basis == self.Basis.SEASON and not self.season_rule:
            raise ValidationError({"basis": _("A circuit ranked by a season rule needs the rule: compose it "
                                              "on the circuit's season rule page.")})
        if self.basis != self.Basis.GAMES and self.formula:
            raise ValidationError({"formula": _("Only a circuit by game results takes a formula of the games: "
                                                "leave it empty.")})

    @property
    def season_rule(self):
        """The season rule document (a dict, its categories in their order), or None."""
        return json.loads(self.season_rule_text) if self.season_rule_text else None

    @season_rule.setter
    def season_rule(self, document):
        self.season_rule_text = "" if document is None else json.dumps(document, ensure_ascii=False)

    @property
    def by_season_rule(self):
        return self.basis == self.Basis.SEASON and self.season_rule is not None

    @property
    def by_games(self):
        """Ranked by game results: 13.11, or a season rule counting games."""
        if self.by_season_rule:
            return (self.season_rule.get("count") or {}).get("unit") == "games"
        return self.basis == self.Basis.GAMES

    @property
    def season_categories(self):
        """The categories of its season rule ([] without one), in the rule's order."""
        return list((self.season_rule or {}).get("categories") or {}) if self.by_season_rule else []

    @property
    def table_values(self):
        """The points table as decimals ([] when empty)."""
        return [Decimal(v.strip()) for v in self.points_table.split(",") if v.strip()]


class CircuitTournament(models.Model):
    circuit = models.ForeignKey(Circuit, on_delete=models.CASCADE, related_name="entries")
    tournament = models.ForeignKey(Tournament, verbose_name=_("tournament"), on_delete=models.CASCADE,
                                   related_name="circuit_entries")
    weight = models.DecimalField(_("weight"), max_digits=5, decimal_places=2, default=Decimal("1"),
                                 validators=[MinValueValidator(Decimal("0.01"), WEIGHT_MESSAGE),
                                             MaxValueValidator(100, WEIGHT_MESSAGE)],
                                 error_messages={"invalid": WEIGHT_MESSAGE, "max_decimal_places": WEIGHT_MESSAGE,
                                                 "max_digits": WEIGHT_MESSAGE, "max_whole_digits": WEIGHT_MESSAGE},
                                 help_text=_("Its circuit points (or game results) are multiplied by this "
                                             "(e.g. 1.5 for a final stage, 1.25 for an Open)."))
    # Under a season rule: the event category the tournament counts in ("" = the rule's first).
    category = models.CharField(_("event category"), max_length=40, blank=True, default="")

    class Meta:
        ordering = ["tournament__start_date", "tournament__pk"]
        constraints = [models.UniqueConstraint(fields=["circuit", "tournament"], name="circuit_tournament_once")]
