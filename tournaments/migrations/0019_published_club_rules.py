"""The rules the clubs published (scoring/data/club_rules.json) as rows of ClubRule: owned by nobody,
marked published, never edited on the site. A later change to the file is loaded by a later migration."""
import json

from django.db import migrations

from scoring.rule_document import PUBLISHED_FILE, parse_rule_document


def load(apps, schema_editor):
    ClubRule = apps.get_model("tournaments", "ClubRule")
    for doc in json.loads(PUBLISHED_FILE.read_text(encoding="utf-8")):
        rule = parse_rule_document(doc)
        ClubRule.objects.update_or_create(key=rule.key, defaults={
            "owner": None, "published": True, "name": rule.text("name", "it"), "club": rule.club,
            "document": doc})


def unload(apps, schema_editor):
    apps.get_model("tournaments", "ClubRule").objects.filter(published=True).delete()


class Migration(migrations.Migration):

    dependencies = [
        ("tournaments", "0018_club_rules"),
    ]

    operations = [migrations.RunPython(load, unload)]
