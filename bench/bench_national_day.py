"""National day benchmark: several clubs' tournaments live at once on one server.

--tournaments tournaments (default 10) of --players players (default 40: one round played, one
published without results), each followed by --phones phones (default 100) on its live channel, as
bench/bench_live.py's phones (an event carrying the page held at once, a plain one makes the phone
ask the public pool; the page's own poll), and --pollers more phones per tournament polling its
standings every 2 s as bench/bench_load.py's (HX-Request, If-None-Match); --arbiters arbiters per
tournament (default 2) save its open round's results with --think-seconds pauses (default 5), for
--seconds (default 30); then up to --drain-seconds for every phone to hold its tournament's last version.

Production's pools, each as docker-compose.yml starts it: the public and the staff gunicorn
(gunicorn.conf.py, --workers each, default 3 as WEB_CONCURRENCY), the pages' worker, the live
channel's uvicorn; PostgreSQL and Redis as bench/harness.py finds them. Every phone and poller runs in
one asyncio process at a lower priority (real phones bring their own processors), the arbiters in
another.

Prints delivery p50/p95/max (a save's 302 to a phone holding a page that shows it, every phone of its
tournament), phones connected and missed, poll p50/p95 (pollers and fragments asked), saves and save
p95, acknowledged saves lost, requests/s and the servers' CPU per request, the peak memory of each
server, and exits 1 when a goal is missed: delivery p95 <= 1 s, poll p95 <= 100 ms, every phone
connected, 0 missed, 0 lost.

Run from the project root: `.venv/bin/python bench/bench_national_day.py [--tournaments 10] [--phones 100]`.
"""
from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import random
import sys
import tempfile
import threading
import time
from contextlib import ExitStack
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_live  # noqa: E402
import bench_load  # noqa: E402
import harness  # noqa: E402

DELIVERY_P95_GOAL, POLL_P95_GOAL = 1.0, 0.100
POLL_SECONDS = 2.0


async def _poller(upstream, path, poll_seconds, rng, done):
    etag = None
    await asyncio.sleep(rng.uniform(0, poll_seconds))
    while not done():
        status, _version, tag = await upstream.get(path, etag)
        if status == 200:
            etag = tag
        await asyncio.sleep(poll_seconds)


async def _main(groups, pollers, control):
    """Every tournament's phones and pollers: open the streams, say how many opened, run until told each
    tournament's last version, then send what each phone held."""
    loop = asyncio.get_running_loop()
    rng = random.Random(20260128)
    tasks = []
    for group in groups:
        for i, phone in enumerate(group.phones):
            tasks.append(loop.create_task(group.listen(phone)))
            if i % 50 == 49:
                await asyncio.sleep(0.05)
    deadline = time.monotonic() + 120
    total = sum(len(group.phones) for group in groups)
    while sum(group.open for group in groups) < total and time.monotonic() < deadline:
        await asyncio.sleep(0.1)
    for group in groups:
        tasks += [loop.create_task(group.poll(phone, rng)) for phone in group.phones]
        group.lowest = group.open
    upstream = bench_live.Upstream(groups[0].upstream.port, bench_live.UPSTREAM_CONNECTIONS)
    done = [False]
    for group in groups:
        tasks += [loop.create_task(_poller(upstream, group.page_path, POLL_SECONDS, random.Random(rng.random()),
                                           lambda: done[0])) for _ in range(pollers)]
    control.send(sum(group.open for group in groups))
    targets, drain = await loop.run_in_executor(None, control.recv)
    done[0] = True
    deadline = time.monotonic() + drain
    while (any(p.held < target for group, target in zip(groups, targets) for p in group.phones)
           and time.monotonic() < deadline):
        await asyncio.sleep(0.1)
    for group in groups:
        group.done = True
    while tasks := [task for task in asyncio.all_tasks() if task is not asyncio.current_task()]:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    control.send({"holds": [[p.holds for p in group.phones] for group in groups],
                  "lowest": sum(group.lowest for group in groups),
                  "events": sum(p.events for group in groups for p in group.phones),
                  "fetches": [entry for group in groups for entry in group.upstream.log], "polls": upstream.log})


def _phones_process(tournaments, phones, pollers, live_port, public_port, control):
    os.nice(10)  # real phones bring their own processors: the servers come first on this machine's
    from django.conf import settings
    groups = [bench_live.Phones(phones, live_port, public_port, pk, settings.STANDINGS_POLL_SECONDS)
              for pk in tournaments]
    asyncio.run(_main(groups, pollers, control))
    control.close()


def _arbiters_process(staff, infos, args, logged_in, stop, out):
    """Every tournament's arbiters, one thread each, one Phase per tournament."""
    phases = [bench_load.Phase() for _ in infos]
    rng = random.Random(20260129)
    barrier = threading.Barrier(len(infos) * args.arbiters + 1)
    threads = []
    for phase, info in zip(phases, infos):
        tables = info["open_tables"]
        threads += [threading.Thread(target=bench_load.arbiter, args=(
            staff, info["tournament"], 2, name, tables[i::args.arbiters], phase, args.think_seconds,
            random.Random(rng.random()), barrier), daemon=True) for i, name in enumerate(info["arbiters"])]
    for t in threads:
        t.start()
    barrier.wait()
    logged_in.set()
    stop.wait()
    for phase in phases:
        phase.stop.set()
    for t in threads:
        t.join(timeout=bench_load.TIMEOUT + bench_load.RESEND_LIMIT + 5)
    out.send([{"log": phase.log, "attempts": dict(phase.attempts), "acks": phase.acks} for phase in phases])
    out.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tournaments", type=int, default=10)
    parser.add_argument("--phones", type=int, default=100, help="phones on the live channel per tournament")
    parser.add_argument("--pollers", type=int, default=10, help="phones polling every 2 s per tournament")
    parser.add_argument("--players", type=int, default=40)
    parser.add_argument("--arbiters", type=int, default=2, help="arbiters per tournament")
    parser.add_argument("--seconds", type=int, default=30)
    parser.add_argument("--think-seconds", type=float, default=5.0)
    parser.add_argument("--drain-seconds", type=float, default=20.0)
    parser.add_argument("--workers", type=int, default=3, help="workers of each gunicorn pool (WEB_CONCURRENCY)")
    args = parser.parse_args()
    total = args.tournaments * (args.phones + args.pollers)
    if bench_live.raise_open_files(2 * total + 1024) < 2 * total + 256:
        print(f"open files too few for {total} phones", file=sys.stderr)
        return 2
    speed = harness.machine_speed()
    logs = Path(tempfile.mkdtemp(prefix="torneo-bench-national-"))
    with harness.bench_database() as bench_url:
        started = time.perf_counter()
        infos = [harness.fill(players=args.players, rounds=1, open_rounds=1, arbiters=args.arbiters,
                              prefix=f"nd{t:02d}", seed=t) for t in range(args.tournaments)]
        filled = time.perf_counter() - started
        pks = [info["tournament"] for info in infos]
        with ExitStack() as stack:
            servers = [stack.enter_context(harness.gunicorn(bench_url, workers=args.workers, server=True,
                                                            log=logs / f"server-{pool}.log", TORNEO_POOL=pool,
                                                            STANDINGS_LOG_LEVEL="INFO"))
                       for pool in ("staff", "public")]
            worker = stack.enter_context(harness.worker(bench_url, log=logs / "server-worker.log",
                                                        STANDINGS_LOG_LEVEL="INFO"))
            live = stack.enter_context(harness.live_server(bench_url, log=logs / "live.log",
                                                           LIVE_STREAMS_PER_CLIENT=str(total + 10)))
            named = {"gunicorn public": servers[1].proc.pid, "gunicorn staff": servers[0].proc.pid,
                     "worker": worker.proc.pid, "live": live.proc.pid}
            memory = {name: stack.enter_context(bench_live.PeakMemory(pid)) for name, pid in named.items()}
            context = multiprocessing.get_context("fork")
            control, theirs = context.Pipe()
            phones = context.Process(target=_phones_process, daemon=True, args=(
                pks, args.phones, args.pollers, live.port, servers[1].port, theirs))
            phones.start()
            connected = control.recv()
            logged_in, stop = context.Event(), context.Event()
            received, sent = context.Pipe(duplex=False)
            arbiters = context.Process(target=_arbiters_process, daemon=True,
                                       args=([servers[0].base], infos, args, logged_in, stop, sent))
            arbiters.start()
            sent.close()
            logged_in.wait()
            cpu = {name: harness.group_cpu(pid) for name, pid in named.items()}
            load_started = time.perf_counter()
            time.sleep(args.seconds)
            stop.set()
            recorded = received.recv()
            arbiters.join()
            elapsed = time.perf_counter() - load_started
            cpu = {name: harness.group_cpu(pid) - cpu[name] for name, pid in named.items()}
            from tournaments.versions import results_through, results_version
            control.send(([results_through(results_version(pk)) for pk in pks], args.drain_seconds))
            held = control.recv()
            phones.join()
        delivered, missed, lost = [], 0, 0
        for pk, holds, phase in zip(pks, held["holds"], recorded):
            delays, late = bench_live.deliveries(pk, phase["acks"], holds)
            delivered += delays
            missed += late
            lost += bench_load.lost_results(pk, 2, phase["attempts"])
        counts = bench_load.computations(sorted(logs.glob("server-*.log")))
    saves = [s for phase in recorded for kind, _st, s in phase["log"] if kind == "save"]
    acks = sum(len(phase["acks"]) for phase in recorded)
    polls = [s for status, s in held["polls"] if status in (200, 304)]
    fetches = [s for status, s in held["fetches"] if status in (200, 304)]
    failed = sum(1 for status, _s in held["polls"] + held["fetches"] if status not in (200, 304))
    requests = sum(len(phase["log"]) for phase in recorded) + len(held["polls"]) + len(held["fetches"])
    p = harness.percentile
    print(f"bench_national_day: {args.tournaments} tournaments x {args.phones} phones on the live channel + "
          f"{args.pollers} polling, {args.arbiters} arbiters each ({args.think_seconds:g} s pauses), {args.players} "
          f"players each (filled in {filled:.0f} s); gunicorn public and staff of {args.workers} workers, the worker, "
          f"uvicorn; {args.seconds} s; sum(range(10**6)) {speed:.1f} ms, load average {os.getloadavg()[0]:.1f}")
    print(f"delivery p50 {p(delivered, 50) * 1000:.0f} ms, p95 {p(delivered, 95) * 1000:.0f} ms, max "
          f"{max(delivered, default=0) * 1000:.0f} ms; {min(connected, held['lowest'])} of "
          f"{args.tournaments * args.phones} phones connected, missed {missed}")
    print(f"  polls {len(polls)} ({len(polls) / elapsed:.0f}/s) p50 {p(polls, 50) * 1000:.0f} ms, p95 "
          f"{p(polls, 95) * 1000:.0f} ms; fragments asked {len(fetches)} p95 {p(fetches, 95) * 1000:.0f} ms; "
          f"failed {failed}")
    print(f"  saves acknowledged {acks} ({acks / elapsed:.1f}/s), save p95 {p(saves, 95) * 1000:.0f} ms, lost {lost}; "
          f"events {held['events']}; page renders {sum(counts['rendered'].values())}, "
          f"{counts['on_write']} by the snapshot job, {sum(counts['rendered'].values()) - counts['on_write']} by requests")
    print(f"  throughput {requests / elapsed:.0f} requests/s; CPU over the load (% of a core, ms a request): "
          + ", ".join(f"{name} {seconds / elapsed * 100:.0f}% {seconds * 1000 / max(1, requests):.2f}"
                      for name, seconds in cpu.items()))
    print("  peak memory (VmRSS): " + ", ".join(f"{name} {m.peak / 2**20:.0f} MB" for name, m in memory.items())
          + f"; all {sum(m.peak for m in memory.values()) / 2**20:.0f} MB")
    misses = [name for name, met in (
        ("delivery p95", bool(delivered) and p(delivered, 95) <= DELIVERY_P95_GOAL),
        ("poll p95", bool(polls) and p(polls, 95) <= POLL_P95_GOAL),
        ("every phone connected", min(connected, held["lowest"]) >= args.tournaments * args.phones),
        ("no phone missed", missed == 0), ("nothing lost", lost == 0), ("every poll served", failed == 0)) if not met]
    print(f"  goals missed: {', '.join(misses)}" if misses else "  every goal met")
    return 1 if misses else 0


if __name__ == "__main__":
    sys.exit(main())
