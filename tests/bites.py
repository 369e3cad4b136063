"""Do the tests bite? Each mutant below is a small fault once missed by the whole suite (a filter dropped,
a boundary moved, a lock never released...). This script plants each one alone in a copy of the code,
runs the tests that guard it, and says whether they failed, as they must.

    .venv/bin/python tests/bites.py            # every mutant
    .venv/bin/python tests/bites.py cookie     # those whose name contains "cookie"

Exit 0 when every mutant is caught, 1 when one survives (named on stderr). The mutants are planted in
copies of the work tree (one per core, BITES_JOBS to choose), never in the tree itself, and run side by
side; each run's tests are on SQLite, on one test database migrated once for all of them."""
import os
import queue
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TEMPLATE_ENV = "TORNEO_TEST_TEMPLATE"  # tests/database.py
SNAPSHOT = "tests/tables/live/test_snapshot.py"
STANDINGS = "tests/tables/standings"
# The test files that catch the faults below (a run stops at its first failure: the whole folders took
# minutes for the same answer).
CACHE_RULES = "tests/tables/standings/test_public_cache_rules.py"
REACH = "tests/circuits/test_what_the_public_and_others_reach.py"


@dataclass(frozen=True)
class Mutant:
    name: str
    path: str
    before: str
    after: str
    tests: tuple


MUTANTS = [
    Mutant("circuit: unpublished tournaments shown", "circuits/selectors.py",
           "list(shown_publicly(circuit.entries)", "list((circuit.entries.all())", (REACH,)),
    Mutant("circuit: an entry of another circuit removed", "circuits/views.py",
           "pk=entry_pk, circuit=circuit)", "pk=entry_pk)", (REACH,)),
    Mutant("circuit: the owner not checked on removal", "circuits/services.py",
           "    _check_owner(user, circuit, entry.tournament)\n", "", (REACH,)),
    Mutant("circuit: a person counted twice", "circuits/selectors.py",
           "        if player.pk in seen:\n            continue\n", "", (REACH,)),
    Mutant("big screen: standings filed without the results version", "tables/room/selectors.py",
           'versioned.tournament_slot("standings", tournament)', 'versioned.Slot("standings", str(tournament.pk), "")',
           (CACHE_RULES, "tests/tables/room")),
    Mutant("snapshot: the next job not held back to the refresh interval", "tables/live/snapshot.py",
           "(cache.get(_started_key(pk)) or 0) + settings.PUBLIC_PAGE_REFRESH_SECONDS", "0", (SNAPSHOT,)),
    Mutant("page cache: a page rendered again within the refresh interval", "tables/standings/cache.py",
           "age < settings.PUBLIC_PAGE_REFRESH_SECONDS\n", "False\n", (CACHE_RULES,)),
    Mutant("snapshot: a job queued for later delays an earlier one", "tables/live/snapshot.py",
           "if queued is None or queued > at:", "if queued is None:", (SNAPSHOT,)),
    Mutant("page cache: the lock kept after a failed render", "tables/standings/cache.py",
           "    finally:\n        release_lock(key)\n", "    finally:\n        pass\n", (SNAPSHOT, STANDINGS)),
    Mutant("live: the dispute window's close not announced", "tables/live/snapshot.py",
           "    if closes_at is not None:\n", "    if False:\n", (SNAPSHOT,)),
    Mutant("live: an older page carried", "tables/live/channel.py",
           'return not sent or results_through(message["version"]) >= results_through(sent)', "return True",
           ("tests/tables/live/test_stream_order.py",)),
    Mutant("live: a draft's change announced", "tables/live/selectors.py",
           "    if entries and not shown:\n        return None\n", "", ("tests/tables/live/test_channel.py",)),
    Mutant("page cache: an answer setting a cookie stored", "tables/standings/cache.py",
           "response.streaming or response.cookies:", "response.streaming:", (CACHE_RULES,)),
    Mutant("page cache: two holders of a render lock", "tables/standings/cache.py",
           'return cache.add(f"{key}:lock", 1, LOCK_SECONDS)',
           'cache.set(f"{key}:lock", 1, LOCK_SECONDS)\n    return True', ("tests/tables/standings/test_public_pages_freshness.py",)),
    Mutant("versions: a version read from the database overwrites a commit's", "tournaments/versions.py",
           "cache.add(_key(pk), entry, None)", "cache.set(_key(pk), entry, None)", ("tests/tournaments/test_versions.py",)),
    Mutant("versions: the dispute window closes a moment late", "tournaments/versions.py",
           "timezone.now() >= closes", "timezone.now() > closes", ("tests/tournaments/test_versions.py",)),
    Mutant("versions: a transaction's listeners called once per change", "tournaments/versions.py",
           "if silent or (pk, entry[0]) in told:", "if silent:",
           ("tests/tournaments/test_versions.py",)),
    Mutant("players: another organiser changes a card", "tournaments/rules.py",
           "return user.is_superuser or (record.created_by_id == user.pk and is_organiser(user))",
           "return is_organiser(user)", ("tests/tournaments/test_organiser_bounds.py", "tests/test_two_clubs_matrix.py")),
    Mutant("players: a draft's players listed to others", "tournaments/rules.py",
           "Q(tournament__published=True) | Q(tournament__organiser_id=user.pk)", "Q()",
           ("tests/tournaments/test_rules.py", "tests/test_two_clubs_matrix.py")),
    Mutant("players: another organiser's e-mail exported", "transfer/export.py",
           "if not may_export_player_email(player, tournament):", "if False:",
           ("tests/tournaments/test_private_player_details.py", "tests/test_two_clubs_matrix.py")),
    Mutant("players: an ownerless player in another's draft listed and opened", "tournaments/rules.py",
           "| (Q(created_by__isnull=True) & ~Exists(anywhere)))", "| Q(created_by__isnull=True))",
           ("tests/tournaments/test_ownerless_player.py",)),
    Mutant("circuit: of equal results the later tournament's counted", "scoring/circuit.py",
           "key=lambda r: (-r[0], r[1], r[2])", "key=lambda r: (-r[0], -r[1], r[2])",
           ("tests/circuits/test_counted_marks.py",)),
    Mutant("circuit: of equal results the later game counted", "scoring/circuit.py",
           "key=lambda r: (-r[0], r[1], r[2])", "key=lambda r: (-r[0], r[1], -r[2])",
           ("tests/circuits/test_counted_marks.py",)),
    Mutant("circuit: the page marks by value, not the engine's choice", "circuits/selectors.py",
           "counted = set(row.counted_games)",
           "counted = {(tid, j) for tid, points in result.points for j, value in "
           "enumerate(points.get(row.player) or []) if value in row.counted}",
           ("tests/circuits/test_counted_marks.py",)),
    Mutant("master: an absent unbeaten leader straight to the final", "scoring/qualify.py",
           "if len(leaders) != 1 or not leaders[0].present:", "if len(leaders) != 1:",
           ("tests/phases/test_master_absent_leader.py",)),
    Mutant("rule document: tables of 5 refused", "scoring/rule_document.py",
           '"table_size": (4, 5)', '"table_size": (4, 4)', ("tests/scoring/test_rule_document.py",)),
    Mutant("rule document: an unknown key under format ignored", "scoring/rule_document.py",
           "unknown = sorted(set(value) - set(FORMAT))", "unknown = []", ("tests/scoring/test_rule_document.py",)),
    Mutant("import: --new-players makes a third record of a name known twice at the club",
           "transfer/workbooks/checks.py", 'new_players and found.question != "choose":', "new_players:",
           ("tests/transfer/workbooks/test_players.py",)),
    Mutant("generation: new push keys keep the cache generation", "risiko_site/generation.py",
           'PAGE_SETTINGS = ("VAPID_PUBLIC_KEY", ', "PAGE_SETTINGS = (",
           ("tests/tables/push/test_keys_take_effect.py",)),
    Mutant("snapshot: no English fragment for the visitors of the whole English page", "tables/live/snapshot.py",
           "for form in {htmx, False})", "for form in {htmx})", (SNAPSHOT,)),
    Mutant("standings: the table's HTML cached without its language", "tables/standings/pages.py",
           'f"html:{get_language()}:{context', 'f"html:{context', ("tests/tables/standings/test_public_pages_cache.py",)),
]


def _copy(target):
    """The work tree copied to `target` (the code, tests and data; no git, venv or node_modules)."""
    shutil.copytree(ROOT, target, symlinks=True, ignore=shutil.ignore_patterns(
        ".git", ".venv", "node_modules", "__pycache__", "site", "var", "backups", "db.sqlite3", ".pytest_cache"))


def _template(directory):
    """A test database migrated once (SQLite), which every run copies (tests/database.py)."""
    path = Path(directory) / "migrated.sqlite3"
    script = ("import django; django.setup(); from django.db import connection; "
              f"connection.settings_dict.setdefault('TEST', {{}})['NAME'] = {str(path)!r}; "
              "connection.creation.create_test_db(verbosity=0, autoclobber=True, serialize=False)")
    subprocess.run([sys.executable, "-c", script], cwd=ROOT, check=True, env=_environment(),
                   stdout=subprocess.DEVNULL)
    return path


def _environment(template=None):
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "PYTEST_ADDOPTS")}
    env["DJANGO_SETTINGS_MODULE"] = "risiko_site.settings"
    if template is not None:
        env[TEMPLATE_ENV] = str(template)
    return env


def run(mutant, tree=ROOT, template=None):
    """True when the tests fail with the mutant planted in `tree` (it is caught)."""
    path = Path(tree) / mutant.path
    original = path.read_text(encoding="utf-8")
    if original.count(mutant.before) != 1:
        raise SystemExit(f"{mutant.name}: the code to change is not in {mutant.path} exactly once")
    try:
        path.write_text(original.replace(mutant.before, mutant.after), encoding="utf-8")
        result = subprocess.run([sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", "-p", "no:xdist",
                                 "-m", "not browser and not postgres", *mutant.tests],
                                cwd=tree, capture_output=True, text=True, env=_environment(template))
    finally:
        path.write_text(original, encoding="utf-8")
    return result.returncode != 0


def main(words, jobs=None):
    """Each chosen mutant planted alone in one of `jobs` copies of the work tree (one per core), the
    copies' runs side by side, every run on one migrated SQLite database copied into memory."""
    chosen = [m for m in MUTANTS if not words or any(w in m.name for w in words)]
    for mutant in chosen:  # every mutant's code is there before any run starts
        if (ROOT / mutant.path).read_text(encoding="utf-8").count(mutant.before) != 1:
            raise SystemExit(f"{mutant.name}: the code to change is not in {mutant.path} exactly once")
    jobs = max(1, min(jobs or int(os.environ.get("BITES_JOBS", 0)) or os.cpu_count() or 1, len(chosen)))
    survivors = []
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="torneo-bites-") as directory:
        template = _template(directory)
        trees = queue.Queue()
        for n in range(jobs):
            _copy(Path(directory) / f"tree{n}")
            trees.put(Path(directory) / f"tree{n}")

        def planted(mutant):
            tree = trees.get()
            try:
                began = time.monotonic()
                return run(mutant, tree, template), time.monotonic() - began
            finally:
                trees.put(tree)

        with ThreadPoolExecutor(max_workers=jobs) as pool:
            for mutant, (caught, seconds) in zip(chosen, pool.map(planted, chosen)):
                print(f"{'caught  ' if caught else 'SURVIVED'} {mutant.name} ({seconds:.0f} s)", flush=True)
                if not caught:
                    survivors.append(mutant.name)
    print(f"{len(chosen) - len(survivors)} of {len(chosen)} mutants caught in {time.monotonic() - started:.0f} s "
          f"({jobs} at a time)")
    if survivors:
        print("survived: " + "; ".join(survivors), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
