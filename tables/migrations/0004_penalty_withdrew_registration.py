from django.db import migrations, models


def mark_expulsions_that_withdrew(apps, schema_editor):
    """An expulsion given before this field withdrew the player when the log holds its "expel" entry."""
    Penalty = apps.get_model("tables", "Penalty")
    AuditLog = apps.get_model("tournaments", "AuditLog")
    expelled = set(AuditLog.objects.filter(action="registration.expel", object_type="registration")
                   .values_list("object_id", flat=True))
    for penalty in Penalty.objects.filter(kind="expulsion"):
        if str(penalty.registration_id) in expelled:
            Penalty.objects.filter(pk=penalty.pk).update(withdrew_registration=True)


class Migration(migrations.Migration):

    dependencies = [
        ('tables', '0003_seat_firenze_sheet'),
        ('tournaments', '0008_registration_existing_player'),
    ]

    operations = [
        migrations.AddField(
            model_name='penalty',
            name='withdrew_registration',
            field=models.BooleanField(default=False, editable=False),
        ),
        migrations.RunPython(mark_expulsions_that_withdrew, migrations.RunPython.noop),
    ]
