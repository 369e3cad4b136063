"""Compare every tournament's standings, under every formula, with another database's (a restored
backup): exit 0 when they are equal, 2 with one line naming the first difference otherwise."""
import json
import os
import subprocess
import sys

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from transfer.compare import first_difference, standings_snapshot


def _one_line(text):
    lines = [line.strip() for line in (text or "").splitlines() if line.strip()]
    return lines[-1] if lines else "no message"


def other_snapshot(url):
    """The other database's snapshot, computed by this command in a process of its own whose
    DATABASE_URL is `url` (settings are read once per process) and whose cache is its own memory."""
    env = {**os.environ, "DATABASE_URL": url, "CACHE_URL": "locmem://"}
    env.setdefault("DJANGO_SETTINGS_MODULE", "risiko_site.settings")
    proc = subprocess.run([sys.executable, str(settings.BASE_DIR / "manage.py"), "compare_standings",
                           "--print-snapshot"], env=env, cwd=settings.BASE_DIR, capture_output=True, text=True)
    if proc.returncode != 0:
        raise CommandError(f"cannot read the other database: {_one_line(proc.stderr)}", returncode=2)
    return json.loads(proc.stdout)


class Command(BaseCommand):
    help = ("Compare every tournament's standings, under every formula (all rounds and published rounds "
            "only), with those of another database: exit 0 when equal, 2 with one line naming the first "
            "difference. make restore-check runs it against the newest backup restored.")

    def add_arguments(self, parser):
        what = parser.add_mutually_exclusive_group(required=True)
        what.add_argument("--other-database-url", help="postgres://... of the database to compare with")
        what.add_argument("--print-snapshot", action="store_true",
                          help="write this database's standings as JSON on standard output instead")

    def handle(self, *args, other_database_url=None, print_snapshot=False, **options):
        here = standings_snapshot()
        if print_snapshot:
            self.stdout.write(json.dumps(here, ensure_ascii=False, sort_keys=False))
            return
        other = other_snapshot(other_database_url)
        difference = first_difference(here, other)
        if difference:
            raise CommandError(f"standings differ: {difference}", returncode=2)
        formulas = sum(1 for tournament in here.values() for key in tournament if key not in ("name", "error"))
        plural = "" if len(here) == 1 else "s"
        self.stdout.write(f"standings equal: {len(here)} tournament{plural}, {formulas} standings compared")
