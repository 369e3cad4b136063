"""What one standings computation costs, part by part, before any cache: reading the tournament from
the database, scoring it, rendering the table (the page's and the poll's part) and the print view.

A throwaway PostgreSQL database (bench/harness.py) is filled with a played tournament of each size
given (default 200 players x 10 rounds and 1,000 x 12); each part is timed --repeat times (default 5)
with a cold Django cache and the median printed, with the number of queries of the read.

Run from the project root: `.venv/bin/python bench/bench_standings_cost.py [--sizes 200x10,1000x12]`.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import harness  # noqa: E402


def _timed(work, repeat):
    times, result = [], None
    for _ in range(repeat):
        started = time.perf_counter()
        result = work()
        times.append(time.perf_counter() - started)
    return statistics.median(times), result


def measure(players, rounds, repeat):
    from django.db import connection
    from django.template.loader import render_to_string
    from django.test import RequestFactory
    from django.utils import translation

    from tables.standings import selectors
    from tournaments.models import Tournament

    filled = time.perf_counter()
    info = harness.fill(players=players, rounds=rounds)
    filled = time.perf_counter() - filled
    tournament = Tournament.objects.get(pk=info["tournament"])
    formula = tournament.formula

    def read():
        regs = {r.pk: r for r in tournament.registrations.select_related("player", "player__club")}
        games, penalties = selectors.tournament_games(tournament)
        rounds_ = selectors.standings_rounds(tournament, False)
        counted = {number for number, _status in rounds_}
        return regs, [g for g in games if g.round in counted], penalties, rounds_

    queries = []
    with connection.execute_wrapper(lambda execute, sql, *a: queries.append(sql) or execute(sql, *a)):
        read()
    read_s, data = _timed(read, repeat)
    score_s, standings = _timed(lambda: selectors._standings(tournament, *data, formula), repeat)
    request = RequestFactory().get(f"/t/{tournament.pk}/classifica/")
    context = {"tournament": tournament, "status": "final", "formula_label": tournament.get_formula_display(),
               "poll": True, "poll_seconds": 15, "standings": standings, "lead": None}
    with translation.override("it"):
        table_s, html = _timed(lambda: render_to_string("tables/standings.html#standings-table", context, request),
                               repeat)
        print_s, printed = _timed(lambda: render_to_string("tables/standings_print.html", context, request), repeat)
    print(f"  {players:>5} players x {rounds:>2} rounds  (filled in {filled:5.1f} s)")
    print(f"      database read  {read_s * 1000:8.1f} ms   {len(queries)} queries")
    print(f"      scoring        {score_s * 1000:8.1f} ms")
    print(f"      table render   {table_s * 1000:8.1f} ms   {len(html) / 1000:6.1f} kB (page and poll)")
    print(f"      print render   {print_s * 1000:8.1f} ms   {len(printed) / 1000:6.1f} kB")
    print(f"      total (table)  {(read_s + score_s + table_s) * 1000:8.1f} ms")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="200x10,1000x12", help="players x rounds, comma-separated")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    try:
        sizes = [tuple(int(n) for n in size.split("x")) for size in args.sizes.split(",")]
        if any(len(s) != 2 or s[0] < 4 or s[1] < 1 for s in sizes) or args.repeat < 1:
            raise ValueError
    except ValueError:
        print("--sizes takes e.g. 200x10,1000x12 (at least 4 players and 1 round); --repeat at least 1",
              file=sys.stderr)
        return 2
    print(f"bench_standings_cost: median of {args.repeat}, PostgreSQL, Django cache not used")
    for players, rounds in sizes:
        with harness.bench_database():
            measure(players, rounds, args.repeat)
    return 0


if __name__ == "__main__":
    sys.exit(main())
