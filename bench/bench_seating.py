"""Seating benchmark of SEATING.md section 5.

Each instance is seated round after round through the JSON contract (the function that
`python -m tables.seating` runs), each round's tables fed into the history of the next with
`rounds_left` counting down. One line per instance: players, table sizes, rounds, clubs, total
repeat pairs, highest number of meetings of a pair, same-club pairs, the slowest round, and beside
them the same figures for a plain shuffle-and-cut draw.

    python bench/bench_seating.py [--quick]
"""
import argparse
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tables.seating import Player, evaluate  # noqa: E402
from tables.seating.contract import handle  # noqa: E402

# players, preferred size, explicit sizes or None, rounds, clubs, club size
INSTANCES = [
    (16, 4, None, 5, 0, 0),
    (20, 4, None, 5, 0, 0),
    (25, 5, None, 6, 0, 0),
    (32, 4, None, 10, 0, 0),
    (36, 4, None, 6, 0, 0),
    (40, 4, None, 6, 8, 5),
    (64, 4, None, 8, 16, 4),
    (125, 5, None, 6, 25, 5),
    (200, 4, [5] * 20 + [4] * 25, 10, 40, 5),
]
QUICK = {16, 25, 40}
# How a round's time grows with the players (a Raduno, a national Raduno, the contract's cap): 3 rounds each.
GROWTH = [(120, 4, None, 3, 24, 5), (500, 4, None, 3, 100, 5), (1000, 4, None, 3, 200, 5)]


def players_for(n, clubs, club_size):
    return [{"id": f"P{i + 1:03d}", "club": f"C{i // club_size + 1:02d}" if clubs and i < clubs * club_size else None}
            for i in range(n)]


def run(n, prefer, sizes, rounds, clubs, club_size, seed=1):
    players = players_for(n, clubs, club_size)
    history, repeats, same_club, slowest, last = [], 0, 0, 0.0, None
    for r in range(rounds):
        doc = {"method": "random", "table_size": prefer, "seed": seed * 1000 + r, "time_limit_s": 1.0,
               "rounds_left": rounds - r, "players": players, "history": history}
        if sizes:
            doc["sizes"] = sizes
        started = time.perf_counter()
        out = json.loads(handle(json.dumps(doc)))
        slowest = max(slowest, time.perf_counter() - started)
        repeats += out["penalties"]["repeat_pairs"]
        same_club += out["penalties"]["same_club_pairs"]
        last = out["penalties"]["max_meetings"]
        history = history + out["tables"]
    return repeats, last, same_club, slowest


def baseline(n, prefer, sizes, rounds, clubs, club_size, seed=1):
    """Shuffle and cut: the draw of a hat."""
    from tables.seating import table_sizes
    players = [Player(p["id"], p["club"]) for p in players_for(n, clubs, club_size)]
    sizes = sizes or list(table_sizes(n, prefer).sizes)
    rng = random.Random(seed)
    history, repeats, same_club, last = [], 0, 0, 0
    for _ in range(rounds):
        ids = [p.id for p in players]
        rng.shuffle(ids)
        tables, i = [], 0
        for s in sizes:
            tables.append(ids[i:i + s])
            i += s
        pen = evaluate(tables, players, history, table_size=prefer)
        repeats += pen.repeat_pairs
        same_club += pen.same_club_pairs
        last = pen.max_meetings
        history += tables
    return repeats, last, same_club


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="three small instances only")
    args = parser.parse_args(argv)
    print(f"{'N':>4} {'sizes':>6} {'R':>3} {'clubs':>8} | {'repeats':>7} {'max_meet':>8} {'same_club':>9} "
          f"{'slowest_s':>9} | {'random: repeats':>15} {'max_meet':>8} {'same_club':>9}")
    for inst in INSTANCES:
        n, prefer, sizes, rounds, clubs, club_size = inst
        if args.quick and n not in QUICK:
            continue
        repeats, meet, club, slowest = run(*inst)
        b_rep, b_meet, b_club = baseline(*inst)
        size_text = "4+5" if sizes else str(prefer)
        club_text = f"{clubs}x{club_size}" if clubs else "none"
        print(f"{n:>4} {size_text:>6} {rounds:>3} {club_text:>8} | {repeats:>7} {meet:>8} {club:>9} "
              f"{slowest:>9.2f} | {b_rep:>15} {b_meet:>8} {b_club:>9}", flush=True)
    if args.quick:
        return 0
    print("growth (3 rounds each, clubs of 5): players, slowest round, ms per player, repeats, same club")
    for inst in GROWTH:
        repeats, _meet, club, slowest = run(*inst)
        print(f"  {inst[0]:>5} players: slowest round {slowest:.2f} s ({slowest * 1000 / inst[0]:.1f} ms a player), "
              f"repeats {repeats}, same club {club}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
