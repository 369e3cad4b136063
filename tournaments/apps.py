import json

from django.apps import AppConfig
from django.apps import apps as global_apps
from django.db.models.signals import post_migrate
from django.utils.translation import gettext_lazy as _

from scoring.rule_document import PUBLISHED_FILE, parse_rule_document


def load_published_club_rules(sender, apps=global_apps, using="default", **kwargs):
    """After every migrate (and every flush, which says so the same way), the rules the clubs published
    (scoring/data/club_rules.json) are rows of ClubRule, owned by nobody and marked published, as their
    data migration first loaded them: an emptied database gets them back, a changed file updates them."""
    try:
        ClubRule = apps.get_model("tournaments", "ClubRule")
    except LookupError:   # migrated to a state before club rules
        return
    for doc in json.loads(PUBLISHED_FILE.read_text(encoding="utf-8")):
        rule = parse_rule_document(doc)
        ClubRule.objects.using(using).update_or_create(key=rule.key, defaults={
            "owner": None, "published": True, "name": rule.text("name", "it"), "club": rule.club,
            "document": doc})


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = _("Tournaments")

    def ready(self):
        post_migrate.connect(load_published_club_rules, sender=self,
                             dispatch_uid="tournaments.load_published_club_rules")
