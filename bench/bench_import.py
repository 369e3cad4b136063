"""Import benchmark: 30 past tournaments imported one after the other into one database.

A tournament of --players players (default 40) and --rounds played rounds (default 3) is filled as
bench/harness.py fills it and written as the club's workbook (transfer/workbooks/export.py); then that
workbook is imported --count times (default 30), one file at a time, by the `import_results` command
("Importa un torneo passato": the players matched to the known ones, every round played through the
services), each a tournament of its own. Prints the workbook's size, each tenth import's time, the
first and last ten's mean: the import is linear when the last ten take no longer than the first (the
database grows, each import still matches its players against all the known ones). Exits 1 when the
last ten's mean is over 1.5 times the first ten's.

Run from the project root: `.venv/bin/python bench/bench_import.py [--count 30]` (PostgreSQL, see
bench/harness.py).
"""
from __future__ import annotations

import argparse
import io
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import harness  # noqa: E402

GROWTH_GOAL = 1.5


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=30)
    parser.add_argument("--players", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    speed = harness.machine_speed()
    with harness.bench_database(), tempfile.TemporaryDirectory() as folder:
        from django.core.management import call_command

        from tournaments.models import Tournament
        from transfer.workbooks.export import club_workbook
        info = harness.fill(players=args.players, rounds=args.rounds)
        started = time.perf_counter()
        data = club_workbook(Tournament.objects.get(pk=info["tournament"]))
        exported = time.perf_counter() - started
        size = len(data)
        times = []
        for i in range(args.count):
            path = Path(folder) / f"torneo-{i:02d}-2025-{1 + i // 28:02d}-{1 + i % 28:02d}.xlsx"
            path.write_bytes(data)
            started = time.perf_counter()
            call_command("import_results", str(path), organiser="bench-organiser", formula="punti_tavolo",
                         stdout=io.StringIO())
            times.append(time.perf_counter() - started)
            if i % 10 == 9:
                print(f"  import {i + 1}: {times[-1]:.2f} s", flush=True)
    first, last = statistics.mean(times[:10]), statistics.mean(times[-10:])
    print(f"bench_import: {args.players} players x {args.rounds} rounds, workbook {size / 1000:.0f} kB written in "
          f"{exported:.2f} s; {args.count} imports, {sum(times):.1f} s in all, first ten {first:.2f} s each, last ten "
          f"{last:.2f} s each (x{last / first:.2f}; goal <= {GROWTH_GOAL}); sum(range(10**6)) {speed:.1f} ms, load "
          f"average {os.getloadavg()[0]:.1f}")
    return 0 if last <= GROWTH_GOAL * first else 1


if __name__ == "__main__":
    sys.exit(main())
