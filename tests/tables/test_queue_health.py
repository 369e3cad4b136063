"""`manage.py queue_health` (the worker and sender containers' health checks): exit 0 with a healthy queue,
1 naming the oldest job with a stuck one; finished jobs older than a day pruned on the way, recent ones
and waiting ones kept. Run as the container runs it (a process of its own) once, the rest through
call_command."""
import datetime
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.utils import timezone
from django_tasks_db.compat import TaskResultStatus
from django_tasks_db.models import DBTaskResult, get_date_max

ROOT = Path(__file__).resolve().parents[2]


def _job(backend="pages", status=TaskResultStatus.READY, age=0, finished_age=None, run_after=None,
         task_path="tables.live.snapshot.render_and_announce"):
    job = DBTaskResult.objects.create(backend_name=backend, status=status, args_kwargs={"args": [], "kwargs": {}},
                                      task_path=task_path, queue_name="pages",
                                      run_after=run_after or get_date_max(),
                                      finished_at=None if finished_age is None
                                      else timezone.now() - datetime.timedelta(seconds=finished_age))
    DBTaskResult.objects.filter(pk=job.pk).update(enqueued_at=timezone.now() - datetime.timedelta(seconds=age))
    return job


@pytest.mark.django_db
def test_a_healthy_queue_exits_0():
    _job(age=5)  # waiting less than a minute
    _job(status=TaskResultStatus.SUCCESSFUL, age=3600, finished_age=3600)
    _job(status=TaskResultStatus.RUNNING, age=600)
    _job(backend="default", age=5)
    call_command("queue_health", "pages")  # no CommandError: exit 0


@pytest.mark.django_db
def test_a_stuck_queue_exits_1_naming_its_oldest_job():
    _job(age=90, task_path="tables.live.snapshot.newer")
    oldest = _job(age=300)
    _job(backend="default", age=900)  # another backend's
    with pytest.raises(CommandError) as raised:
        call_command("queue_health", "pages")
    assert raised.value.returncode == 1
    message = str(raised.value)
    assert message.startswith(f"the pages jobs are not run: the oldest ready job, {oldest.pk} "
                              f"(tables.live.snapshot.render_and_announce), has waited ")
    assert 300 <= int(message.split("has waited ")[1].split(" s")[0]) <= 310


@pytest.mark.django_db
def test_a_job_for_later_counts_from_its_time():
    _job(age=600, run_after=timezone.now() + datetime.timedelta(minutes=5))
    call_command("queue_health", "pages")
    late = _job(age=600, run_after=timezone.now() - datetime.timedelta(seconds=120))
    with pytest.raises(CommandError, match=str(late.pk)):
        call_command("queue_health", "pages", seconds=60)


@pytest.mark.django_db
def test_finished_jobs_older_than_a_day_are_pruned_the_others_kept():
    day = 24 * 3600
    old = [_job(status=status, age=2 * day, finished_age=2 * day)
           for status in (TaskResultStatus.SUCCESSFUL, TaskResultStatus.FAILED)]
    kept = [_job(status=TaskResultStatus.SUCCESSFUL, age=day, finished_age=day - 60),
            _job(backend="default", status=TaskResultStatus.SUCCESSFUL, age=2 * day, finished_age=2 * day),
            _job(age=5)]
    call_command("queue_health", "pages")
    assert not DBTaskResult.objects.filter(pk__in=[j.pk for j in old]).exists()
    assert set(DBTaskResult.objects.values_list("pk", flat=True)) == {j.pk for j in kept}


@pytest.mark.django_db(transaction=True)
def test_the_command_as_the_container_runs_it(tmp_path):
    """`python manage.py queue_health pages` in a process of its own, on the tests' database: 0, then 1
    with one line naming the job on stderr."""
    from django.db import connection
    if connection.vendor != "postgresql":
        pytest.skip("the tests' SQLite database is in memory: a second process cannot see it")
    settings = connection.settings_dict
    url = (f"postgres://{settings['USER']}@{settings['HOST'] or '127.0.0.1'}:{settings['PORT'] or 5432}/"
           f"{settings['NAME']}")
    env = {**os.environ, "DATABASE_URL": url}

    def run():
        return subprocess.run([sys.executable, "manage.py", "queue_health", "pages"], cwd=ROOT, env=env,
                              capture_output=True, text=True, timeout=60)

    healthy = run()
    assert (healthy.returncode, healthy.stderr) == (0, "")
    stuck = _job(age=120)
    late = run()
    assert late.returncode == 1
    assert f"the oldest ready job, {stuck.pk} " in late.stderr and len(late.stderr.strip().splitlines()) == 1
