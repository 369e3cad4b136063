"""The 2vs2 team penalties and disputes now belong to the tables app (tables 0007): they leave this
app's migration state only; their database tables stay as they are, rows included."""
from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('tournaments', '0012_room_screen_and_embed'),
        ('tables', '0007_team_arbitration'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.DeleteModel(name='TeamDispute'),
                migrations.DeleteModel(name='TeamPenalty'),
            ],
            database_operations=[],
        ),
    ]
