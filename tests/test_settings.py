import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PROD_ENV = {
    "DJANGO_PRODUCTION": "1", "SECRET_KEY": "k" * 30 + "abcdefghijklmnopqrstuvwxyz0123456789",
    "ALLOWED_HOSTS": "torneo.example.org", "DATABASE_URL": "postgres://torneo@db:5432/torneo",
}


def _manage(*args, env):
    full_env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "DEBUG", "DJANGO_PRODUCTION",
                                                                       "DJANGO_ALLOW_ASYNC_UNSAFE")}
    full_env.update(env)
    return subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=full_env,
                          capture_output=True, text=True, timeout=120)


def test_check_deploy_is_clean_in_production():
    proc = _manage("check", "--deploy", "--fail-level", "WARNING", env=PROD_ENV)
    assert proc.returncode == 0, proc.stderr
    assert "System check identified no issues" in proc.stdout


@pytest.mark.parametrize("env, message", [
    ({"DEBUG": "maybe"}, "DEBUG must be a boolean"),
    ({"SECRET_KEY": ""}, "SECRET_KEY must be at least 50 characters"),
    ({"ALLOWED_HOSTS": "a,,b"}, "ALLOWED_HOSTS must be a comma-separated list"),
    ({"DATABASE_URL": "sqlite:///x.db"}, "production runs on PostgreSQL"),
    ({"DEBUG": "1"}, "DEBUG must be off when DJANGO_PRODUCTION is on"),
])
def test_bad_production_setting_stops_start_up(env, message):
    proc = _manage("check", env={**PROD_ENV, **env})
    assert proc.returncode != 0
    assert message in proc.stderr
