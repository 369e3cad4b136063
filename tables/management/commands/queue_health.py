"""`manage.py queue_health BACKEND`: exit 0 while the jobs of a tasks backend are being run (docker-compose.yml's
worker health checks), 1 with one line on stderr when a job ready to run has waited longer than
--seconds (the worker stopped or stuck); finished jobs older than a day are removed on the way."""
import datetime

from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError
from django.db.models import Q
from django.utils import timezone
from django_tasks_db.models import DBTaskResult, get_date_max


class Command(BaseCommand):
    help = "Exit 1 when a ready job of the tasks backend has waited longer than --seconds."

    def add_arguments(self, parser):
        parser.add_argument("backend")
        parser.add_argument("--seconds", type=int, default=60)

    def handle(self, backend, seconds, **options):
        now = timezone.now()
        # django-tasks-db's own pruning: the finished jobs of the day before go
        call_command("prune_db_task_results", backend=backend, queue_name="*", min_age_days=1, verbosity=0)
        jobs = DBTaskResult.objects.filter(backend_name=backend)
        limit = now - datetime.timedelta(seconds=seconds)
        late = (jobs.ready().filter(Q(run_after=get_date_max(), enqueued_at__lt=limit) | Q(run_after__lt=limit))
                .order_by("enqueued_at").first())
        if late is not None:
            raise CommandError(f"the {backend} jobs are not run: one has waited since {late.enqueued_at:%H:%M:%S}",
                               returncode=1)
