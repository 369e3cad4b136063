"""Do the tests bite? Each mutant below is a small fault once missed by the whole suite (a filter dropped,
a boundary moved, a lock never released...). This script plants each one alone in a copy of the code,
runs the tests that guard it, and says whether they failed, as they must.

    .venv/bin/python tests/bites.py            # every mutant
    .venv/bin/python tests/bites.py cookie     # those whose name contains "cookie"

Exit 0 when every mutant is caught, 1 when one survives (named on stderr). The files are restored
after each run, whatever happens."""
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SNAPSHOT = "tests/tables/live/test_snapshot.py"
STANDINGS = "tests/tables/standings"


@dataclass(frozen=True)
class Mutant:
    name: str
    path: str
    before: str
    after: str
    tests: tuple


MUTANTS = [
    Mutant("circuit: unpublished tournaments shown", "circuits/selectors.py",
           "list(shown_publicly(circuit.entries)", "list((circuit.entries.all())", ("tests/circuits",)),
    Mutant("circuit: an entry of another circuit removed", "circuits/views.py",
           "pk=entry_pk, circuit=circuit)", "pk=entry_pk)", ("tests/circuits",)),
    Mutant("circuit: the owner not checked on removal", "circuits/services.py",
           "    _check_owner(user, circuit, entry.tournament)\n", "", ("tests/circuits",)),
    Mutant("circuit: a person counted twice", "circuits/selectors.py",
           "        if player.pk in seen:\n            continue\n", "", ("tests/circuits",)),
    Mutant("big screen: standings filed without the results version", "tables/room/selectors.py",
           'versioned.tournament_slot("standings", tournament)', 'versioned.Slot("standings", str(tournament.pk), "")',
           (STANDINGS, "tests/tables/room")),
    Mutant("snapshot: the next job not held back to the refresh interval", "tables/live/snapshot.py",
           "(cache.get(_started_key(pk)) or 0) + settings.PUBLIC_PAGE_REFRESH_SECONDS", "0", (SNAPSHOT,)),
    Mutant("page cache: a page rendered again within the refresh interval", "tables/standings/cache.py",
           "age < settings.PUBLIC_PAGE_REFRESH_SECONDS\n", "False\n", (STANDINGS,)),
    Mutant("snapshot: a job queued for later delays an earlier one", "tables/live/snapshot.py",
           "if queued is None or queued > at:", "if queued is None:", (SNAPSHOT,)),
    Mutant("page cache: the lock kept after a failed render", "tables/standings/cache.py",
           "    finally:\n        release_lock(key)\n", "    finally:\n        pass\n", (SNAPSHOT, STANDINGS)),
    Mutant("live: the dispute window's close not announced", "tables/live/snapshot.py",
           "    if closes_at is not None:\n", "    if False:\n", (SNAPSHOT,)),
    Mutant("live: an older page carried", "tables/live/channel.py",
           'return not sent or results_through(message["version"]) >= results_through(sent)', "return True",
           ("tests/tables/live",)),
    Mutant("live: a draft's change announced", "tables/live/selectors.py",
           "    if entries and not shown:\n        return None\n", "", ("tests/tables/live",)),
    Mutant("page cache: an answer setting a cookie stored", "tables/standings/cache.py",
           "response.streaming or response.cookies:", "response.streaming:", (STANDINGS,)),
    Mutant("page cache: two holders of a render lock", "tables/standings/cache.py",
           'return cache.add(f"{key}:lock", 1, LOCK_SECONDS)',
           'cache.set(f"{key}:lock", 1, LOCK_SECONDS)\n    return True', (STANDINGS,)),
    Mutant("versions: a version read from the database overwrites a commit's", "tournaments/versions.py",
           "cache.add(_key(pk), entry, None)", "cache.set(_key(pk), entry, None)", ("tests/tournaments/test_versions.py",)),
    Mutant("versions: the dispute window closes a moment late", "tournaments/versions.py",
           "timezone.now() >= closes", "timezone.now() > closes", ("tests/tournaments/test_versions.py",)),
    Mutant("versions: a transaction's listeners called once per change", "tournaments/versions.py",
           "if silent or (pk, entry[0]) in told:", "if silent:",
           ("tests/tournaments/test_versions.py",)),
    Mutant("players: another organiser changes a card", "tournaments/rules.py",
           "return user.is_superuser or (record.created_by_id == user.pk and is_organiser(user))",
           "return is_organiser(user)", ("tests/tournaments", "tests/test_two_clubs_matrix.py")),
    Mutant("players: a draft's players listed to others", "tournaments/rules.py",
           "Q(tournament__published=True) | Q(tournament__organiser_id=user.pk)", "Q()",
           ("tests/tournaments/test_rules.py", "tests/test_two_clubs_matrix.py")),
    Mutant("players: another organiser's e-mail exported", "transfer/export.py",
           "if not may_export_player_email(player, tournament):", "if False:",
           ("tests/tournaments", "tests/test_two_clubs_matrix.py")),
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
]


def run(mutant):
    """True when the tests fail with the mutant planted (it is caught)."""
    path = ROOT / mutant.path
    original = path.read_text(encoding="utf-8")
    if original.count(mutant.before) != 1:
        raise SystemExit(f"{mutant.name}: the code to change is not in {mutant.path} exactly once")
    try:
        path.write_text(original.replace(mutant.before, mutant.after), encoding="utf-8")
        result = subprocess.run([sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider",
                                 "-m", "not browser and not postgres", *mutant.tests],
                                cwd=ROOT, capture_output=True, text=True)
    finally:
        path.write_text(original, encoding="utf-8")
    return result.returncode != 0


def main(words):
    chosen = [m for m in MUTANTS if not words or any(w in m.name for w in words)]
    survivors = []
    for mutant in chosen:
        caught = run(mutant)
        print(f"{'caught  ' if caught else 'SURVIVED'} {mutant.name}", flush=True)
        if not caught:
            survivors.append(mutant.name)
    print(f"{len(chosen) - len(survivors)} of {len(chosen)} mutants caught")
    if survivors:
        print("survived: " + "; ".join(survivors), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
