"""Fixtures of the scoring engine tests: plain Python, no database."""
import json
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
PROJECT_ROOT = HERE.parent.parent


@pytest.fixture(scope="session")
def scoring_cases():
    return json.loads((HERE / "scoring_cases.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="session")
def run_cli():
    """Run `python -m scoring` on a document (bytes or str): (exit code, stdout, stderr)."""
    def run(document):
        data = document.encode("utf-8") if isinstance(document, str) else document
        proc = subprocess.run([sys.executable, "-m", "scoring"], input=data, capture_output=True,
                              cwd=PROJECT_ROOT, timeout=60)
        return proc.returncode, proc.stdout.decode("utf-8"), proc.stderr.decode("utf-8")
    return run


@pytest.fixture(scope="session")
def run_cli_args():
    """Run `python -m scoring <args>` on a document: (exit code, stdout, stderr)."""
    def run(args, document):
        proc = subprocess.run([sys.executable, "-m", "scoring", *args], input=document.encode("utf-8"),
                              capture_output=True, cwd=PROJECT_ROOT, timeout=60)
        return proc.returncode, proc.stdout.decode("utf-8"), proc.stderr.decode("utf-8")
    return run
