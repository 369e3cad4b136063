"""docker-compose.yml describes production: read here, since no container engine runs the tests."""
from pathlib import Path

import pytest
import yaml

COMPOSE = yaml.safe_load((Path(__file__).resolve().parent.parent / "docker-compose.yml").read_text())
SERVICES = COMPOSE["services"]


def test_gunicorn_is_published_on_the_proxys_side_only():
    assert SERVICES["web"]["ports"] == ["127.0.0.1:8000:8000"]
    assert SERVICES["web-staff"]["ports"] == ["127.0.0.1:8001:8000"]
    published = [port for service in SERVICES.values() for port in service.get("ports", [])]
    assert all(str(port).startswith("127.0.0.1:") for port in published)


def test_every_app_process_shares_the_redis_cache():
    assert SERVICES["redis"]["image"].startswith("redis:")
    for name in ("migrate", "web", "web-staff"):
        assert SERVICES[name]["environment"]["CACHE_URL"] == "redis://redis:6379/0"
    assert SERVICES["migrate"]["depends_on"]["redis"] == {"condition": "service_healthy"}


def test_production_settings_and_database():
    env = SERVICES["web"]["environment"]
    assert env["DJANGO_PRODUCTION"] == "1"
    assert env["DATABASE_URL"].startswith("postgres://")
    assert SERVICES["web"]["depends_on"]["migrate"] == {"condition": "service_completed_successfully"}


def test_the_staff_pool_is_the_same_application_as_the_public_one():
    """The arbiters' and organisers' pages have a pool of their own (README, "Several application
    servers"): the same image, command and settings, another port."""
    for key in ("build", "command", "environment", "depends_on"):
        assert SERVICES["web-staff"][key] == SERVICES["web"][key]


def test_the_web_server_runs_threaded_workers_from_the_repositorys_settings():
    """Threaded workers keep the polls of the public standings flowing while saves wait on the
    database (README, "The round's end"); the Dockerfile and docker-compose.yml both use the file."""
    root = Path(__file__).resolve().parent.parent
    assert SERVICES["web"]["command"][:4] == ["gunicorn", "risiko_site.wsgi:application", "--config", "gunicorn.conf.py"]
    assert '"--config", "gunicorn.conf.py"' in (root / "Dockerfile").read_text()
    settings = {}
    exec((root / "gunicorn.conf.py").read_text(), settings)
    assert settings["worker_class"] == "gthread"
    assert settings["threads"] >= 2
    assert settings["bind"] == "0.0.0.0:8000"


def test_each_worker_hands_the_interpreter_on_every_millisecond(monkeypatch):
    import gc
    import sys
    settings = {}
    exec((Path(__file__).resolve().parent.parent / "gunicorn.conf.py").read_text(), settings)
    before = sys.getswitchinterval()
    try:
        gc.unfreeze()
        settings["post_worker_init"](None)
        assert sys.getswitchinterval() == pytest.approx(0.001)
        assert gc.get_freeze_count() > 0  # the loaded application is left out of the full passes
        monkeypatch.setenv("GUNICORN_SWITCH_INTERVAL_MS", "5")
        settings["post_worker_init"](None)
        assert sys.getswitchinterval() == pytest.approx(0.005)
    finally:
        sys.setswitchinterval(before)
        gc.unfreeze()


def test_the_live_channel_has_its_own_asgi_pool_behind_the_proxy():
    live = SERVICES["live"]
    assert live["command"][:2] == ["uvicorn", "risiko_site.asgi:application"]
    assert "ports" not in live and live["expose"] == ["8000"]
    assert live["environment"]["CACHE_URL"] == "redis://redis:6379/0"  # the changes come through Redis
    assert live["build"] == SERVICES["web"]["build"]
