"""A club's rule as a row: the document (schema "torneo.rule/1", scoring/rule_document.py) an organiser
composes for their club, or one of the rules the clubs published (loaded by a data migration, owned by
nobody, never edited). A tournament names the rule its settings came from by `key` in `club_preset`."""
from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from scoring.rule_document import parse_rule_document

# An organiser's own rule is named "r<pk>" in `Tournament.club_preset`; the published ones by their
# document's key (lower-case words, never starting with "r" and a digit).
OWN_KEY_PREFIX = "r"


class ClubRule(models.Model):
    key = models.CharField(max_length=24, unique=True, editable=False)
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, editable=False,
                              on_delete=models.CASCADE, related_name="club_rules")
    name = models.CharField(_("name"), max_length=120)
    club = models.CharField(_("club"), max_length=120, blank=True)
    document = models.JSONField(_("rule document"))
    published = models.BooleanField(_("published by its club"), default=False, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-published", "name", "pk"]
        verbose_name = _("club rule")
        verbose_name_plural = _("club rules")
        constraints = [models.CheckConstraint(condition=models.Q(published=True) | models.Q(owner__isnull=False),
                                              name="club_rule_published_or_owned")]

    def __str__(self):
        return self.name

    @property
    def rule(self):
        """The document read (scoring.rule_document.RuleDocument)."""
        return parse_rule_document(self.document)
