"""Benchmark: "what if" on the side-by-side page — a tournament's results replayed under a rule.

A throwaway PostgreSQL database (bench/harness.py; BENCH_DB, default `torneo_bench_what_if`) holds a
played tournament of --players x --rounds (default 120 x 6, results saved through the result service);
an organiser's own rule (Torneo Gufo's standard points, from a copy) is replayed on it. Timed --repeat
times (default 5), the median printed, with a cold Django cache:
- the replay alone (tables.standings.selectors.what_if: the database read, both standings, the moves);
- the whole side-by-side page with the replay (every formula and every published rule ranked too);
- a draft from the rule form, never saved, posted to the page.
The figure that matters is "what if" (the replay), to be under 1 s; the page's is printed beside it.

Run from the project root: `.venv/bin/python bench/bench_what_if.py [--players 120 --rounds 6]`.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
os.environ.setdefault("BENCH_DB", "torneo_bench_what_if")
os.environ.setdefault("BENCH_CACHE_URL", f"file:///tmp/torneo-bench-what-if-{os.getpid()}")

import harness  # noqa: E402

LIMIT_S = 1.0


def _timed(work, repeat):
    from django.core.cache import cache
    times, result = [], None
    for _ in range(repeat):
        cache.clear()
        started = time.perf_counter()
        result = work()
        times.append(time.perf_counter() - started)
    return statistics.median(times), result


def measure(players, rounds, repeat):
    from django.contrib.auth import get_user_model
    from django.test import Client
    from django.urls import reverse

    from tables.standings import selectors
    from tournaments.club_presets import club_preset_for
    from tournaments.club_rules import services
    from tournaments.club_rules.forms import blank_data
    from tournaments.models import ClubRule, Tournament

    info = harness.fill(players=players, rounds=rounds)
    tournament = Tournament.objects.get(pk=info["tournament"])
    organiser = get_user_model().objects.get(username="bench-organiser")
    rule = services.club_rule_copy(user=organiser, source=ClubRule.objects.get(key="torneo_gufo"))
    preset = club_preset_for(organiser, rule.key)

    replay_s, replayed = _timed(lambda: selectors.what_if(tournament, preset), repeat)
    client = Client(HTTP_HOST="127.0.0.1")   # the host the benchmark settings allow
    client.force_login(organiser)
    page_url = reverse("manage:formulas_compared", args=[tournament.pk])
    page_s, page = _timed(lambda: client.get(page_url, {"regola": rule.key}), repeat)
    draft = blank_data() | {"name": "Bozza", "formula": "punti_tavolo", "tournament": tournament.pk}
    draft_s, drafted = _timed(lambda: client.post(reverse("manage:what_if_draft"), draft), repeat)
    assert page.status_code == drafted.status_code == 200 and not replayed.refused, "the replay was refused"
    print(f"  {players} players x {rounds} rounds, rule \"{replayed.name}\": {len(replayed.moved)} players move, "
          f"podium {'changes' if replayed.podium_changed else 'stays'}")
    verdict = "under" if replay_s < LIMIT_S else "OVER"
    print(f"      what if (replay)            {replay_s * 1000:8.1f} ms   {verdict} {LIMIT_S:.0f} s")
    print(f"      side-by-side page + replay  {page_s * 1000:8.1f} ms   {len(page.content) / 1000:6.1f} kB")
    print(f"      draft from the form, page   {draft_s * 1000:8.1f} ms")
    return replay_s < LIMIT_S


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=120)
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    if args.players < 8 or args.players % 4 or args.rounds < 1 or args.repeat < 1:
        print("--players a multiple of 4 from 8, --rounds and --repeat at least 1", file=sys.stderr)
        return 2
    print(f"bench_what_if: median of {args.repeat}, PostgreSQL, Django cache emptied before each run")
    with harness.bench_database():
        ok = measure(args.players, args.rounds, args.repeat)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
