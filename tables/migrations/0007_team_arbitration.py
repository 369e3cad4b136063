"""The 2vs2 team penalties and disputes join the games' arbitration in the tables app: the models move
in the migration state only. Their tables keep their names (tournaments_teampenalty,
tournaments_teamdispute), so every existing database keeps its rows untouched; nothing is copied."""
import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('tables', '0006_submission_per_table'),
        ('tournaments', '0012_room_screen_and_embed'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name='TeamPenalty',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('reason', models.TextField(verbose_name='reason')),
                        ('created_at', models.DateTimeField(auto_now_add=True)),
                        ('withdrawn', models.BooleanField(default=False, verbose_name='withdrawn')),
                        ('withdrawn_at', models.DateTimeField(blank=True, null=True)),
                        ('withdrawn_reason', models.TextField(blank=True, verbose_name='reason for withdrawal')),
                        ('day', models.PositiveSmallIntegerField(verbose_name='day')),
                        ('points', models.PositiveSmallIntegerField(verbose_name='points')),
                        ('created_by', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL)),
                        ('team', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='penalties', to='tournaments.team')),
                        ('tournament', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='team_penalties', to='tournaments.tournament')),
                        ('withdrawn_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL)),
                    ],
                    options={
                        'db_table': 'tournaments_teampenalty',
                        'ordering': ['day', 'pk'],
                    },
                ),
                migrations.CreateModel(
                    name='TeamDispute',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('raised_by', models.CharField(max_length=120, verbose_name='raised by')),
                        ('raised_at', models.DateTimeField(auto_now_add=True, verbose_name='raised at')),
                        ('text', models.TextField(verbose_name='text')),
                        ('state', models.CharField(choices=[('open', 'open'), ('upheld', 'upheld'), ('rejected', 'rejected')], default='open', max_length=10, verbose_name='state')),
                        ('decision', models.TextField(blank=True, verbose_name='decision')),
                        ('decided_at', models.DateTimeField(blank=True, null=True)),
                        ('about', models.CharField(choices=[('result', 'a match result'), ('penalty', 'a penalty'), ('standing', 'the standings')], max_length=10, verbose_name='against')),
                        ('day', models.PositiveSmallIntegerField(verbose_name='day')),
                        ('decided_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL)),
                        ('match', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='disputes', to='tournaments.teammatch')),
                        ('recorded_by', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL)),
                        ('tournament', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='team_disputes', to='tournaments.tournament')),
                        ('penalty', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='disputes', to='tables.teampenalty')),
                    ],
                    options={
                        'db_table': 'tournaments_teamdispute',
                        'ordering': ['-raised_at', '-pk'],
                        'abstract': False,
                    },
                ),
            ],
            database_operations=[],
        ),
    ]
