"""Workbook bombs: each shape of tests/transfer/workbooks/bombs.py written to a scratch file, then read by
`read_book` in a process of its own, with the seconds it took, the processor time and the process's
peak memory before and after (Django loaded: about 80 MB).

    .venv/bin/python bench/bench_workbook_bombs.py            # every shape
    .venv/bin/python bench/bench_workbook_bombs.py "many cells"

Each must be refused by name in under 2 s and 100 MB (transfer/workbooks/bounds.py)."""
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


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


def one(name, path):
    _django()
    from transfer.workbooks.book import read_book
    from transfer.workbooks.model import WorkbookError
    data = Path(path).read_bytes()
    before = _peak_mb()
    started, cpu = time.perf_counter(), time.process_time()
    try:
        read_book(data, "bomb.ods" if name.startswith("ods") else "bomb.xlsx")
        outcome = "READ (not refused)"
    except WorkbookError as error:
        outcome = f"refused: {error}"
    seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
    after = _peak_mb()
    print(f"{name}: {len(data) / 1024:.1f} KB; {seconds:.2f} s ({cpu:.2f} s of a core); peak memory "
          f"{before} -> {after} MB; {outcome}")


def main(argv):
    if len(argv) == 3 and argv[0] == "--one":
        return one(argv[1], argv[2])
    _django()
    from tests.transfer.workbooks.bombs import BOMBS
    with tempfile.TemporaryDirectory() as scratch:
        for name in argv or BOMBS:
            path = Path(scratch) / name.replace(" ", "-")
            path.write_bytes(BOMBS[name]())
            subprocess.run([sys.executable, __file__, "--one", name, str(path)], cwd=ROOT, timeout=600, check=False)


if __name__ == "__main__":
    main(sys.argv[1:])
