"""The restore drill (`make restore-drill`, in .ci/run): an older dump restored over newer data, and the
public pages follow the restored data at once, though the newer pages were cached.

Run with DATABASE_URL (a scratch database holding the demo), CACHE_URL (a cache of its own), DUMP (a dump
of that database taken before this script runs) and PYTHON. It renames a player shown on a published
tournament's standings through the services (the newer data), reads the standings page twice (the
second from the cache), restores DUMP with deploy/restore-db.sh (the command of docs/admin/backups.md, "Restoring") and
reads the page again in the same process, as a worker that was not restarted would. Exit 0 when the
page shows the restored name and not the newer one; 1 otherwise, one line on stderr.
"""
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "risiko_site.settings")

import django  # noqa: E402

django.setup()

from django.db import close_old_connections  # noqa: E402
from django.test import Client  # noqa: E402
from django.urls import reverse  # noqa: E402

from tournaments.models import Registration  # noqa: E402
from tournaments.services import player_save  # noqa: E402

NEWER = "Drill-piu-recente"


def fail(message):
    print(f"restore-drill: FAILED, {message}", file=sys.stderr)
    sys.exit(1)


def standings(client, pk):
    response = client.get(reverse("public:standings", args=[pk]), headers={"Accept-Language": "it"})
    if response.status_code != 200:
        fail(f"the standings answered {response.status_code}")
    return response


def main():
    reg = (Registration.objects.filter(tournament__published=True, seats__isnull=False)
           .select_related("player", "tournament").order_by("tournament_id", "pk").first())
    if reg is None:
        fail("the demo has no published tournament with seated players")
    player, pk = reg.player, reg.tournament_id
    older = player.last_name
    user = reg.tournament.organiser
    player_save(user=user, data={"last_name": NEWER}, player=player)
    client = Client()
    newer = standings(client, pk)
    again = standings(client, pk)
    if NEWER.encode() not in newer.content or again.content != newer.content:
        fail("the newer data is not on the (cached) standings page")
    print(f"restore-drill: newer data on the standings of tournament {pk} ({NEWER}), cached")
    subprocess.run(["sh", str(ROOT / "deploy" / "restore-db.sh"), os.environ["DUMP"]], cwd=ROOT, check=True)
    # What a server does at the start of every request (the test client leaves it out): a connection
    # ended by the restore, or past its age, is closed, and the next query opens a new one.
    close_old_connections()
    after = standings(client, pk)
    if NEWER.encode() in after.content or older.encode() not in after.content:
        fail(f"after the restore the standings of tournament {pk} still show the newer data")
    print(f"restore-drill: OK, after the restore the standings show the restored data ({older}), not the newer")


if __name__ == "__main__":
    main()
