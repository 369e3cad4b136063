"""docker-compose.yml describes production: read here, since no container engine runs the tests."""
from pathlib import Path

import yaml

COMPOSE = yaml.safe_load((Path(__file__).resolve().parent.parent / "docker-compose.yml").read_text())
SERVICES = COMPOSE["services"]


def test_gunicorn_is_published_on_the_proxys_side_only():
    assert SERVICES["web"]["ports"] == ["127.0.0.1:8000:8000"]
    published = [port for service in SERVICES.values() for port in service.get("ports", [])]
    assert all(str(port).startswith("127.0.0.1:") for port in published)


def test_every_app_process_shares_the_redis_cache():
    assert SERVICES["redis"]["image"].startswith("redis:")
    for name in ("migrate", "web"):
        assert SERVICES[name]["environment"]["CACHE_URL"] == "redis://redis:6379/0"
    assert SERVICES["migrate"]["depends_on"]["redis"] == {"condition": "service_healthy"}


def test_production_settings_and_database():
    env = SERVICES["web"]["environment"]
    assert env["DJANGO_PRODUCTION"] == "1"
    assert env["DATABASE_URL"].startswith("postgres://")
    assert SERVICES["web"]["depends_on"]["migrate"] == {"condition": "service_completed_successfully"}
