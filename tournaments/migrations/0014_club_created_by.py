import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


def fill_owners(apps, schema_editor):
    """Existing data: a club belongs to whoever created it (the audit log says), else to the organiser of
    the first tournament it organised, else to the owner of its first player. A player still without an
    owner (a public sign-up) belongs to the organiser of the first tournament they were registered in."""
    AuditLog = apps.get_model("tournaments", "AuditLog")
    Club = apps.get_model("tournaments", "Club")
    Player = apps.get_model("tournaments", "Player")
    Registration = apps.get_model("tournaments", "Registration")
    Tournament = apps.get_model("tournaments", "Tournament")
    for player_id, organiser_id in (Registration.objects.filter(player__created_by__isnull=True).order_by("pk")
                                    .values_list("player_id", "tournament__organiser_id")):
        Player.objects.filter(pk=player_id, created_by__isnull=True).update(created_by_id=organiser_id)
    creators = {}
    for club_id, user_id in (AuditLog.objects.filter(action="club.create", object_type="club", user__isnull=False)
                             .order_by("pk").values_list("object_id", "user_id")):
        if club_id.isdecimal():
            creators.setdefault(int(club_id), user_id)
    for club_id, organiser_id in (Tournament.objects.filter(club__isnull=False).order_by("pk")
                                  .values_list("club_id", "organiser_id")):
        creators.setdefault(club_id, organiser_id)
    for club_id, owner_id in (Player.objects.filter(club__isnull=False, created_by__isnull=False).order_by("pk")
                              .values_list("club_id", "created_by_id")):
        creators.setdefault(club_id, owner_id)
    for club_id, user_id in creators.items():
        Club.objects.filter(pk=club_id, created_by__isnull=True).update(created_by_id=user_id)


class Migration(migrations.Migration):

    dependencies = [
        ("tournaments", "0013_team_arbitration_to_tables"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="club",
            name="created_by",
            field=models.ForeignKey(blank=True, editable=False, null=True,
                                    on_delete=django.db.models.deletion.SET_NULL, related_name="+",
                                    to=settings.AUTH_USER_MODEL),
        ),
        migrations.RunPython(fill_owners, migrations.RunPython.noop),
    ]
