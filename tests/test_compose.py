"""docker-compose.yml describes production: read here, since no container engine runs the tests."""
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
COMPOSE = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
SERVICES = COMPOSE["services"]


APP = ("web", "web-staff")


def test_only_the_proxy_publishes_ports_80_and_443():
    published = {name: service["ports"] for name, service in SERVICES.items() if service.get("ports")}
    assert published == {"proxy": ["80:80", "443:443", "443:443/udp"]}
    assert all("expose" not in service for service in SERVICES.values())


def test_the_proxy_is_caddy_with_the_repositorys_caddyfile_in_front_of_healthy_pools():
    proxy = SERVICES["proxy"]
    assert proxy["image"].startswith("caddy:2.")  # the official image, pinned
    assert "./Caddyfile:/etc/caddy/Caddyfile:ro" in proxy["volumes"]
    assert {"caddy_data:/data", "caddy_config:/config"} <= set(proxy["volumes"])  # certificates kept
    assert proxy["environment"]["DOMAIN"] == "${DOMAIN}"
    assert proxy["environment"]["EMAIL"].startswith("${EMAIL:?")
    assert proxy["depends_on"] == {name: {"condition": "service_healthy"} for name in (*APP, "live")}
    assert proxy["restart"] == "unless-stopped"


def test_the_application_trusts_one_proxy_and_serves_the_domain():
    env = SERVICES["web"]["environment"]
    assert env["TRUSTED_PROXY_COUNT"] == "${TRUSTED_PROXY_COUNT:-1}"
    assert env["ALLOWED_HOSTS"].startswith("${DOMAIN:?")
    assert env["CSRF_TRUSTED_ORIGINS"] == "https://${DOMAIN}"


def test_the_pools_health_is_checked_on_the_health_page():
    root = Path(__file__).resolve().parent.parent
    for name in APP:
        assert SERVICES[name]["healthcheck"]["test"] == ["CMD", "python", "deploy/healthcheck.py"]
    assert "/salute/" in (root / "deploy" / "healthcheck.py").read_text()


def test_every_app_process_shares_the_redis_cache():
    assert SERVICES["redis"]["image"].startswith("redis:")
    for name in ("migrate", *APP, "restore-check"):
        assert SERVICES[name]["environment"]["CACHE_URL"] == "redis://redis:6379/0"
    assert SERVICES["migrate"]["depends_on"]["redis"] == {"condition": "service_healthy"}


def test_production_settings_and_database():
    env = SERVICES["web"]["environment"]
    assert env["DJANGO_PRODUCTION"] == "1"
    assert env["DATABASE_URL"].startswith("postgres://")
    assert SERVICES["web"]["depends_on"]["migrate"] == {"condition": "service_completed_successfully"}


def test_the_staff_pool_is_the_same_application_as_the_public_one():
    """The arbiters' and organisers' pages have a pool of their own (docs/admin/deployment.md, "Several application
    servers"): the same image, command and settings, another name in the X-Torneo-Pool header."""
    for key in ("build", "command", "depends_on", "healthcheck"):
        assert SERVICES["web-staff"][key] == SERVICES["web"][key]
    public, staff = (dict(SERVICES[name]["environment"]) for name in APP)
    assert (public.pop("TORNEO_POOL"), staff.pop("TORNEO_POOL")) == ("public", "staff")
    migrate = dict(SERVICES["migrate"]["environment"])
    assert migrate.pop("DB_STATEMENT_TIMEOUT_MS") == "0"  # a migration's statement may take longer than a page's
    assert public == staff == migrate


def test_a_backup_every_night_kept_30_days_in_the_backups_folder():
    backup = SERVICES["backup"]
    root = Path(__file__).resolve().parent.parent
    dockerfile = (root / backup["build"]["context"] / backup["build"]["dockerfile"]).read_text()
    assert f"FROM {SERVICES['db']['image']}\n" in dockerfile  # pg_dump of the server's own version
    assert backup["entrypoint"] == ["sh", "/deploy/backup.sh"] and backup["command"] == ["nightly"]
    assert backup["restart"] == "unless-stopped"
    assert backup["environment"]["BACKUP_KEEP_DAYS"] == "${BACKUP_KEEP_DAYS:-30}"
    assert backup["environment"]["DATABASE_URL"] == "postgres://torneo:${POSTGRES_PASSWORD}@db:5432/torneo"
    assert "./backups:/backups" in backup["volumes"]
    assert backup["healthcheck"]["test"] == ["CMD", "sh", "/deploy/backup.sh", "fresh"]


def test_every_migrate_starts_from_a_backup():
    once = SERVICES["backup-now"]
    assert once["command"][0] == "once" and "restart" not in once
    assert (once["build"], once["entrypoint"], once["volumes"]) == (
        SERVICES["backup"]["build"], SERVICES["backup"]["entrypoint"], SERVICES["backup"]["volumes"])
    assert SERVICES["migrate"]["depends_on"]["backup-now"] == {"condition": "service_completed_successfully"}


def test_restore_check_runs_by_hand_on_a_fresh_backup():
    check = SERVICES["restore-check"]
    assert check["profiles"] == ["tools"]  # not started by `docker compose up`
    assert check["command"] == ["sh", "deploy/restore-check.sh"]
    assert "./backups:/backups:ro" in check["volumes"]
    assert check["depends_on"]["backup-now"] == {"condition": "service_completed_successfully"}


def test_the_database_and_cache_publish_nothing_and_keep_their_data():
    assert "pgdata:/var/lib/postgresql/data" in SERVICES["db"]["volumes"]
    assert set(COMPOSE["volumes"]) == {"pgdata", "caddy_data", "caddy_config"}


def test_the_web_server_runs_threaded_workers_from_the_repositorys_settings():
    """Threaded workers keep the polls of the public standings flowing while saves wait on the
    database (docs/dev/benchmarks.md, "The round's end"); the Dockerfile and docker-compose.yml both use the file."""
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
    assert "ports" not in live and "expose" not in live   # reached by the proxy on the compose network
    assert live["environment"]["CACHE_URL"] == "redis://redis:6379/0"  # the changes come through Redis
    assert live["build"] == SERVICES["web"]["build"]


LONG_RUNNING = {name for name, service in SERVICES.items() if service.get("restart") == "unless-stopped"}


def test_every_long_running_service_has_a_health_check():
    assert LONG_RUNNING == {"proxy", "web", "web-staff", "live", "worker", "sender", "db", "redis", "backup"}
    assert [name for name in LONG_RUNNING if not SERVICES[name].get("healthcheck", {}).get("test")] == []
    assert SERVICES["live"]["healthcheck"] == SERVICES["web"]["healthcheck"]  # its /salute/ (risiko_site/live_urls.py)


def test_every_services_log_is_rotated_and_its_memory_bounded():
    for name, service in SERVICES.items():
        assert service["logging"]["driver"] == "json-file", name
        assert service["logging"]["options"] == {"max-size": "10m", "max-file": "5"}, name
        assert service["deploy"]["resources"]["limits"]["memory"].endswith(("M", "G")), name


def test_every_image_is_pinned_to_a_version():
    root = Path(__file__).resolve().parent.parent
    images = [service["image"] for service in SERVICES.values() if "image" in service]
    images += [line.split()[1] for path in ("Dockerfile", "deploy/backup.Dockerfile")
               for line in (root / path).read_text().splitlines() if line.startswith("FROM ")]
    assert sorted(set(images)) == ["caddy:2.9.1", "postgres:15.13-bookworm", "python:3.11.13-slim-bookworm",
                                   "redis:7.4.2"]


def test_redis_has_a_memory_limit_and_evicts_the_least_recently_used():
    command = SERVICES["redis"]["command"]
    assert command[command.index("--maxmemory") + 1] == "256mb"
    assert command[command.index("--maxmemory-policy") + 1] == "allkeys-lru"
    assert SERVICES["redis"]["deploy"]["resources"]["limits"]["memory"] == "320M"  # room above the 256 MB of data


def test_the_image_installs_the_locked_python_packages_checked_by_hash():
    import re
    import tomllib
    root = Path(__file__).resolve().parent.parent
    dockerfile = (root / "Dockerfile").read_text()
    assert "pip install --no-cache-dir --require-hashes --no-deps -r requirements.lock" in dockerfile
    lock = (root / "requirements.lock").read_text()
    pinned = dict(re.findall(r"^([a-z0-9][a-z0-9._-]*)==(\S+) \\$", lock, re.M))
    requirements = tomllib.loads((root / "pyproject.toml").read_text())["project"]["dependencies"]
    wanted = {re.match(r"[A-Za-z0-9._-]+", r).group(0).lower().replace("_", "-") for r in requirements}
    assert wanted <= set(pinned)
    blocks = re.split(r"\n(?=[a-z0-9])", lock[lock.index(next(iter(sorted(pinned)))):])
    assert all("--hash=sha256:" in block for block in blocks)
    assert len(blocks) == len(pinned)


def test_a_restore_runs_in_the_applications_image_by_hand_only():
    restore = SERVICES["restore-db"]
    assert restore["profiles"] == ["tools"] and restore["build"] == SERVICES["web"]["build"]
    assert restore["entrypoint"] == ["sh", "deploy/restore-db.sh"]
    assert "./backups:/backups:ro" in restore["volumes"]


def test_the_background_jobs_wait_in_the_database_for_their_workers():
    assert COMPOSE["x-app-env"]["TASKS_BACKEND"] == "database"
    for name, backend in (("worker", "pages"), ("sender", "default")):
        command = SERVICES[name]["command"]
        assert command[:3] == ["python", "manage.py", "db_worker"]
        assert command[command.index("--backend") + 1] == backend
        assert SERVICES[name]["healthcheck"]["test"] == ["CMD", "python", "manage.py", "queue_health", backend]


def test_the_offsite_credentials_never_reach_the_application_image():
    ignored = {line.strip().strip("/") for line in (ROOT / ".dockerignore").read_text().splitlines()
               if line.strip() and not line.startswith("#")}
    assert {"rclone", ".env", "backups"} <= ignored


def test_the_database_is_ready_only_once_it_answers_over_tcp():
    test = SERVICES["db"]["healthcheck"]["test"]
    assert test[0] == "CMD-SHELL" and test[1].split()[:3] == ["pg_isready", "-h", "127.0.0.1"]


def test_the_sender_has_room_for_its_health_check():
    """The worker (~120 MB) and its health check, a second Python with Django (~118 MB)."""
    limit = SERVICES["sender"]["deploy"]["resources"]["limits"]["memory"]
    assert int(limit.rstrip("M")) >= 384
