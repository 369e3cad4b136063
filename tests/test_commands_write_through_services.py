"""The management commands change tournaments only through the services (which lock, check and log):
no command saves, updates, creates or deletes a model row itself, the demo accounts and the job queue's
finished jobs (pruned by queue_health) aside."""
import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
WRITES = {"save", "save_base", "update", "delete", "create", "bulk_create", "bulk_update", "get_or_create",
          "update_or_create"}
# The demo accounts (their password and names) and the tasks queue's rows are not tournament data.
ACCOUNTS = {"User", "organiser", "arbiter", "DBTaskResult"}


def _root(node):
    while isinstance(node, (ast.Attribute, ast.Call, ast.Subscript)):
        node = node.func if isinstance(node, ast.Call) else node.value
    return node.id if isinstance(node, ast.Name) else None


def writes_in(source):
    """The calls of `source` that write a row other than a demo account's, as (line, call)."""
    return [(node.lineno, ast.unparse(node.func)) for node in ast.walk(ast.parse(source))
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in WRITES
            and _root(node.func.value) not in ACCOUNTS]


def direct_writes():
    return [f"{path.relative_to(ROOT)}:{line}: {call}" for path in sorted(ROOT.glob("*/management/commands/*.py"))
            for line, call in writes_in(path.read_text(encoding="utf-8"))]


def test_commands_write_only_through_the_services():
    assert list(ROOT.glob("*/management/commands/play_demo_formats.py"))  # the scan reaches the commands
    assert direct_writes() == []


def test_the_scan_finds_a_direct_round_update():
    source = "Round.objects.filter(pk=1).update(status='closed')\nrnd.save()\norganiser.save()"
    assert writes_in(source) == [(1, "Round.objects.filter(pk=1).update"), (2, "rnd.save")]
