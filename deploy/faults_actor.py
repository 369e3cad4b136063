"""The database's side of `make faults` (deploy/faults.py), run in processes of their own with the
application's settings (its environment):

    faults_actor.py prepare          a published tournament of 20 players, its first round drawn and
                                      published; prints {"tournament", "tables", "standings", "live"} as JSON
    faults_actor.py save OUT SECONDS  an arbiter's saves, one table after another, for SECONDS: each
                                      attempt a JSON line in OUT (time, table, points, whether acknowledged,
                                      the results version it made, how long it took, the error)
    faults_actor.py check OUT         exit 0 when every table holds its last acknowledged result (or a
                                      later attempt's, one whose answer was lost with the fault)

A save goes through the service the arbiter's form calls (tables.results.services.table_result_submit),
in a transaction with its audit entry; it is acknowledged when that call returned."""
import json
import os
import sys
import time
from decimal import Decimal
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "risiko_site.settings")

import django  # noqa: E402

django.setup()

from django.db import close_old_connections, connection  # noqa: E402
from django.urls import reverse  # noqa: E402

from tables.models import Round, Seat, Table  # noqa: E402
from tables.results.services import ResultLine, table_result_submit  # noqa: E402
from tables.rounds.services import round_create, round_publish  # noqa: E402
from tournaments.models import Tournament  # noqa: E402
from tournaments.versions import results_version  # noqa: E402


NAME = "Guasti (make faults)"


def _tournament():
    return Tournament.objects.get(name=NAME)


def prepare():
    """A published tournament of 20 players present (the tests' factories: quicker than the whole
    demo), its first round drawn and published."""
    from tests.factories import RegistrationFactory, TournamentFactory
    tournament = Tournament.objects.filter(name=NAME).first() or TournamentFactory(name=NAME, published=True)
    while tournament.registrations.count() < 20:
        RegistrationFactory(tournament=tournament, present=True)
    rnd = Round.objects.filter(tournament=tournament).first()
    if rnd is None:
        rnd = round_create(user=tournament.organiser, tournament=tournament)
    if rnd.status == Round.Status.DRAFT:
        round_publish(user=tournament.organiser, rnd=rnd)
    tables = list(Table.objects.filter(round=rnd).values_list("pk", flat=True))
    print(json.dumps({"tournament": tournament.pk, "tables": tables,
                      "standings": reverse("public:standings", args=[tournament.pk]),
                      "live": reverse("public:live", args=[tournament.pk])}))


def _points(seats, n):
    """A valid result that differs at every save: the first seat's points move with `n`."""
    base = [62, 48, 30, 20, 10][:seats - 1] + [0]  # the last seat eliminated: 0 points
    base[0] = 50 + n % 40
    return base


def save(out, seconds):
    tournament = _tournament()
    tables = list(Table.objects.filter(round__tournament=tournament).order_by("pk"))
    end = time.time() + seconds
    n = 0
    with open(out, "a", buffering=1) as log:
        while time.time() < end:
            table = tables[n % len(tables)]
            n += 1
            started = time.time()
            entry = {"t": started, "table": table.pk, "n": n}
            try:
                close_old_connections()  # as a request would: a connection the fault killed is replaced
                table.refresh_from_db()
                seats = list(table.seats.order_by("position").values_list("pk", flat=True))
                points = _points(len(seats), n)
                entry["points"] = points
                lines = [ResultLine(seat_id=pk, table_points=Decimal(p), eliminated=(1 if i == len(seats) - 1 else None))
                         for i, (pk, p) in enumerate(zip(seats, points))]
                table_result_submit(user=tournament.organiser, table=table, lines=lines, version=table.version)
                entry.update(ok=True, version=results_version(tournament.pk))
            except Exception as exc:  # the fault: not acknowledged
                entry.update(ok=False, error=(str(exc).strip().splitlines() or [type(exc).__name__])[0][:200])
                try:
                    connection.close()
                except Exception:  # already gone
                    pass
                time.sleep(0.2)
            entry["took"] = round(time.time() - started, 3)
            log.write(json.dumps(entry) + "\n")
            time.sleep(0.25)


def check(out):
    attempts = [json.loads(line) for line in Path(out).read_text().splitlines() if line.strip()]
    by_table = {}
    for entry in attempts:
        by_table.setdefault(entry["table"], []).append(entry)
    lost = []
    for table, entries in by_table.items():
        acknowledged = [i for i, e in enumerate(entries) if e["ok"]]
        if not acknowledged:
            continue
        seats = list(Seat.objects.filter(table_id=table).order_by("position").values_list("table_points", flat=True))
        held = [int(p) for p in seats]
        possible = [e.get("points") for e in entries[acknowledged[-1]:]]
        if held not in possible:
            lost.append(f"table {table}: holds {held}, its last acknowledged save was {possible[0]}")
    print(json.dumps({"acknowledged": sum(e["ok"] for e in attempts), "attempts": len(attempts), "lost": lost}))
    return 1 if lost else 0


if __name__ == "__main__":
    mode = sys.argv[1]
    if mode == "prepare":
        prepare()
    elif mode == "save":
        save(sys.argv[2], float(sys.argv[3]))
    elif mode == "check":
        sys.exit(check(sys.argv[2]))
    else:
        sys.exit(f"faults_actor.py: unknown mode {mode!r} (prepare, save, check)")
