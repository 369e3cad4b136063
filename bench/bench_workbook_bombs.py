"""Workbook bombs: each shape of tests/transfer/workbooks/bombs.py written to a scratch file, then read by
`read_book` in a process of its own, with the seconds it took, the processor time and the process's
peak memory before and after (Django loaded: about 80 MB). The shapes: the old bombs (a declared huge
sheet, a far-away cell, millions of cells or texts, .ods repeats), the shapes that passed the bounds
until issue 59 (parts stored elsewhere, one part named by 400 sheets, 2 million cell formats, .xls far
cells, 400 .ods sheets within the limits, .ods styles and metadata of 1.5 million elements) at the
issue's sizes, and the largest files the limits let in.

    .venv/bin/python bench/bench_workbook_bombs.py            # every shape
    .venv/bin/python bench/bench_workbook_bombs.py "many cells"

Exits 1 if any shape takes more than 10 s of a core or its process peaks past 150 MB (Django included),
or if a bomb is read rather than refused (transfer/workbooks/bounds.py)."""
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
SECONDS, MEGABYTES = 10, 150


def _peak_mb():
    """This process's peak resident memory (VmHWM: its own, not inherited across exec as ru_maxrss is)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) // 1024
    return 0


def _django():
    import django
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "risiko_site.settings")
    django.setup()


def _filename(name):
    return "bomb.ods" if name.startswith("ods") else "bomb.xls" if name.startswith("xls ") else "bomb.xlsx"


def one(name, path, expect):
    """Read one file; exit 1 past the budget or on the wrong outcome (`expect`: refused or read). The
    reading runs in a child process of its own (transfer/workbooks/budget.py): its processor time and
    peak memory are the child's, as the kernel counts them once it is waited for."""
    _django()
    from transfer.workbooks.book import read_book
    from transfer.workbooks.model import WorkbookError
    data = Path(path).read_bytes()
    before = _peak_mb()
    started, cpu = time.perf_counter(), time.process_time()
    try:
        sheets = read_book(data, _filename(name))
        outcome, refused = f"read: {len(sheets)} sheets, {sum(len(r) for s in sheets for r in s.rows)} cells", False
    except WorkbookError as error:
        outcome, refused = f"refused: {error}", True
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    seconds = time.perf_counter() - started
    cpu = time.process_time() - cpu + children.ru_utime + children.ru_stime
    after, child = _peak_mb(), children.ru_maxrss // 1024
    over = cpu > SECONDS or max(after, child) > MEGABYTES or refused != (expect == "refused")
    print(f"{'OVER ' if over else ''}{name}: {len(data) / 1024:.1f} KB; {seconds:.2f} s ({cpu:.2f} s of a core); "
          f"peak memory {before} -> {after} MB, the reading child's {child} MB; {outcome}", flush=True)
    return 1 if over else 0


def main(argv):
    if len(argv) == 4 and argv[0] == "--one":
        return one(*argv[1:])
    _django()
    from tests.transfer.workbooks.bombs import AT_THE_LIMITS, BOMBS, READ
    shapes = {**{name: (make, "refused") for name, make in BOMBS.items()},
              **{name: (make, "read") for name, make in {**READ, **AT_THE_LIMITS}.items()}}
    failed = 0
    with tempfile.TemporaryDirectory() as scratch:
        for name in argv or shapes:
            make, expect = shapes[name]
            path = Path(scratch) / "".join(c if c.isalnum() else "-" for c in name)
            path.write_bytes(make())
            done = subprocess.run([sys.executable, __file__, "--one", name, str(path), expect], cwd=ROOT,
                                  timeout=600, check=False)
            failed |= done.returncode != 0
    print(f"sum(range(10**6)) here: {_calibration():.3f} s")
    return 1 if failed else 0


def _calibration():
    started = time.perf_counter()
    sum(range(10 ** 6))
    return time.perf_counter() - started


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
