"""`manage.py queue_health BACKEND`: exit 0 while the jobs of a tasks backend are being run (docker-compose.yml's
worker health checks), 1 with one line on stderr naming the oldest job when a job ready to run has waited
longer than --seconds (the worker stopped or stuck), or when the database does not answer. Finished jobs
older than a day are removed on the way, at most PRUNE_BATCH a run (a backlog goes over several runs).

Bounded in time: every statement of it gets STATEMENT_TIMEOUT_MS (the compose file's health check allows
10 s, Python and Django take about one of them to start); a prune that does not finish in time is
left for the next run, the check itself is what counts."""
import datetime

from django.core.management.base import BaseCommand, CommandError
from django.db import DatabaseError, connection, transaction
from django.db.models import Q
from django.utils import timezone
from django_tasks_db.compat import TaskResultStatus
from django_tasks_db.models import DBTaskResult, get_date_max

STATEMENT_TIMEOUT_MS = 3000
PRUNE_BATCH = 1000
PRUNE_AFTER = datetime.timedelta(days=1)


def _bounded():
    """This transaction's statements each within STATEMENT_TIMEOUT_MS (PostgreSQL)."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(f"SET LOCAL statement_timeout = {STATEMENT_TIMEOUT_MS}")


def prune(backend, now):
    """The finished jobs of `backend` older than PRUNE_AFTER removed, at most PRUNE_BATCH: how many."""
    with transaction.atomic():
        _bounded()
        old = (DBTaskResult.objects.filter(backend_name=backend, finished_at__lt=now - PRUNE_AFTER,
                                           status__in=[TaskResultStatus.SUCCESSFUL, TaskResultStatus.FAILED])
               .values_list("pk", flat=True)[:PRUNE_BATCH])
        return DBTaskResult.objects.filter(pk__in=list(old)).delete()[0]


def oldest_late(backend, now, seconds):
    """The oldest job of `backend` ready to run that has waited longer than `seconds`, or None."""
    limit = now - datetime.timedelta(seconds=seconds)
    with transaction.atomic():
        _bounded()
        return (DBTaskResult.objects.filter(backend_name=backend, status=TaskResultStatus.READY)
                .filter(Q(run_after=get_date_max(), enqueued_at__lt=limit) | Q(run_after__lt=limit))
                .order_by("enqueued_at").only("pk", "task_path", "enqueued_at", "run_after").first())


class Command(BaseCommand):
    help = "Exit 1 when a ready job of the tasks backend has waited longer than --seconds."

    def add_arguments(self, parser):
        parser.add_argument("backend")
        parser.add_argument("--seconds", type=int, default=60)

    def handle(self, backend, seconds, **options):
        now = timezone.now()
        try:
            prune(backend, now)
        except DatabaseError as exc:  # slow or locked: the next run prunes
            self.stderr.write(f"queue_health: finished {backend} jobs not pruned this time: {_first_line(exc)}")
        try:
            late = oldest_late(backend, now, seconds)
        except DatabaseError as exc:
            raise CommandError(f"the {backend} jobs cannot be checked: the database does not answer "
                               f"({_first_line(exc)})", returncode=1)
        if late is not None:
            since = late.enqueued_at if late.run_after == get_date_max() else max(late.enqueued_at, late.run_after)
            waited = int((now - since).total_seconds())
            raise CommandError(f"the {backend} jobs are not run: the oldest ready job, {late.pk} "
                               f"({late.task_path}), has waited {waited} s, since "
                               f"{timezone.localtime(since):%Y-%m-%d %H:%M:%S}", returncode=1)


def _first_line(exc):
    return (str(exc).strip().splitlines() or [type(exc).__name__])[0]
