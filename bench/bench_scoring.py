"""Benchmark: score a 200-player, 10-round tournament under every formula, then a season of
2,000 players x 20 rounds.

Run from the project root: `python bench/bench_scoring.py`. Results are random but seeded and
valid (tables of 4 and 5, eliminations, RisiKo!, ties, penalties). Each run builds fresh games,
so the figures include validation and placement (computed once per game, shared by the formulas).
Targets: the 12 formulas of section 4 together under 0.2 s at 200 x 10 and under 1 s at 2,000 x 20.
The club variants (section 13) are timed on the same games, listed apart: maialino_2024 wants one
winner a table, so it scores a copy whose ties for first are settled by place (placed again, which
its figure includes).
"""
from __future__ import annotations

import dataclasses
import random
import sys
import time
from decimal import Decimal
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scoring import FORMULAS, Game, Params, PlayerResult, score_tournament  # noqa: E402

PLAYERS = 200
ROUNDS = 10
SEED = 20240601
RUNS = 5
TARGET_SECONDS = 0.2
SEASON_PLAYERS = 2000
SEASON_ROUNDS = 20
SEASON_RUNS = 3
SEASON_TARGET_SECONDS = 1.0  # the 12 formulas of section 4 together
CLUB_FORMULAS = ("millesimi", "maialino_2024")  # SCORING.md section 13
ONE_WINNER = {"maialino_2024"}


def table_result(rng: random.Random, round_: int, table: int, players: list[str]) -> Game:
    n = len(players)
    eliminated = rng.choice([0, 0, 0, 1, 1, 2])
    risiko = rng.random() < 0.06
    results = []
    order = list(range(1, eliminated + 1))
    rng.shuffle(order)
    for i, pid in enumerate(players):
        penalty = Decimal(rng.choice([1, 2, 5])) if rng.random() < 0.02 else Decimal(0)
        if i >= n - eliminated:
            results.append(PlayerResult(pid, Decimal(0), eliminated=order.pop(), penalty=penalty))
        else:
            tp = Decimal(rng.randrange(0, 90)) if rng.random() < 0.9 else Decimal(rng.randrange(0, 9000)) / 100
            results.append(PlayerResult(pid, tp, risiko=risiko and i == 0, penalty=penalty))
    return Game(round_, table, tuple(results))


def build_tournament(seed: int = SEED, players: int = PLAYERS, rounds: int = ROUNDS) -> list[Game]:
    rng = random.Random(seed)
    tables_of_five = players // 10
    sizes = [5] * tables_of_five + [4] * ((players - 5 * tables_of_five) // 4)  # 200: 20 x 5 + 25 x 4
    assert sum(sizes) == players
    players = [f"P{i:03d}" for i in range(1, players + 1)]
    games = []
    for round_ in range(1, rounds + 1):
        rng.shuffle(players)
        start = 0
        for table, size in enumerate(sizes, 1):
            games.append(table_result(rng, round_, table, players[start:start + size]))
            start += size
    return games


def one_winner(game: Game) -> Game:
    """The game with a tie for first place settled by explicit places (SCORING.md 13.5)."""
    seats = game.placement.seats
    tied = [seat.player for seat in seats if seat.rank == 1]
    if len(tied) < 2:
        return game
    places = {pid: place for place, pid in enumerate(tied, 1)}
    return Game(game.round, game.table, tuple(dataclasses.replace(p, place=places[p.id]) if p.id in places else p
                                              for p in game.players))


def section_4(timings: dict) -> float:
    return sum(seconds for name, seconds in timings.items() if name not in CLUB_FORMULAS)


def measure(players: int, rounds: int, runs: int, params: Params):
    """Best run (by the total of section 4's formulas) of every formula on fresh games, and every
    run's total of section 4's formulas."""
    best = None
    run_totals = []
    for _ in range(runs):
        games = build_tournament(players=players, rounds=rounds)  # fresh games: placement again
        timings = {}
        for name in FORMULAS:
            scored = games
            if name in ONE_WINNER:
                scored = [one_winner(g) for g in games]  # not timed; their placement is
            start = time.perf_counter()
            result = score_tournament(name, params, scored)
            timings[name] = time.perf_counter() - start
            assert len(result.standings) == players
        run_totals.append(section_4(timings))
        if best is None or section_4(timings) < section_4(best):
            best = timings
    return best, run_totals, len(games)


def main() -> int:
    params = Params(discard_worst=1, tiebreak=("best_results", "wins", "table_points", "head_to_head"))
    best, run_totals, games = measure(PLAYERS, ROUNDS, RUNS, params)
    print(f"{PLAYERS} players, {ROUNDS} rounds, {games} games; best of {RUNS} runs")
    for name, seconds in best.items():
        print(f"  {name:<15} {seconds:.4f} s")
    total = section_4(best)
    print(f"  {'total':<15} {total:.4f} s (section 4's 12 formulas; target < {TARGET_SECONDS} s)")
    print(f"  {'with variants':<15} {sum(best.values()):.4f} s")
    print(f"  slowest run total {max(run_totals):.4f} s")
    season, season_totals, games = measure(SEASON_PLAYERS, SEASON_ROUNDS, SEASON_RUNS, params)
    print(f"{SEASON_PLAYERS} players, {SEASON_ROUNDS} rounds, {games} games; best of {SEASON_RUNS} runs")
    for name, seconds in season.items():
        print(f"  {name:<15} {seconds:.4f} s")
    season_total = section_4(season)
    print(f"  {'slowest formula':<15} {max(season.values()):.4f} s")
    print(f"  {'total':<15} {season_total:.4f} s (section 4's 12 formulas; target < {SEASON_TARGET_SECONDS} s); "
          f"slowest run total {max(season_totals):.4f} s")
    print(f"  {'with variants':<15} {sum(season.values()):.4f} s")
    return 0 if total < TARGET_SECONDS and season_total < SEASON_TARGET_SECONDS else 1


if __name__ == "__main__":
    sys.exit(main())
