"""Torneo settings, read from the environment (see docs/admin/configuration.md).

DEBUG defaults to on for a newcomer's `make run`; production sets DJANGO_PRODUCTION=1, which
turns on every protection `manage.py check --deploy` asks for and requires SECRET_KEY,
ALLOWED_HOSTS and DATABASE_URL.
"""
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

from risiko_site.caches import caches_from_url
from risiko_site.env import env_bool, env_int, env_list, env_str

BASE_DIR = Path(__file__).resolve().parent.parent

PRODUCTION = env_bool("DJANGO_PRODUCTION", False)
DEBUG = env_bool("DEBUG", not PRODUCTION)
if PRODUCTION and DEBUG:
    raise ImproperlyConfigured("DEBUG must be off when DJANGO_PRODUCTION is on")

SECRET_KEY = env_str("SECRET_KEY", required=PRODUCTION) or "dev-only-insecure-key-change-me"
if PRODUCTION and (len(SECRET_KEY) < 50 or len(set(SECRET_KEY)) < 5):
    raise ImproperlyConfigured("SECRET_KEY must be at least 50 characters with at least 5 distinct ones")

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", [] if PRODUCTION else ["127.0.0.1", "localhost", "testserver"])
if PRODUCTION and not ALLOWED_HOSTS:
    raise ImproperlyConfigured("ALLOWED_HOSTS must be set in production")
if PRODUCTION and "*" in ALLOWED_HOSTS:
    raise ImproperlyConfigured("ALLOWED_HOSTS must name the site's hosts in production, not '*'")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_htmx",
    "template_partials",
    "csp",
    "django_tasks",
    "django_tasks_db",
    "tournaments",
    "tables",
    "phases",
    "circuits",
    "transfer",
]

MIDDLEWARE = [
    # A body announced larger than REQUEST_BODY_MAX_MB: 413 before anything reads it.
    "tournaments.accounts.middleware.RequestBodyLimitMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # An anonymous visitor's public page (a 304, or its kept render) before the rest of the chain
    # (tables/standings/cache.py).
    "tables.standings.cache.PublicPageMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.http.ConditionalGetMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "tournaments.accounts.middleware.HtmxLoginRedirectMiddleware",
    "tournaments.accounts.middleware.RejectNulMiddleware",
]

ROOT_URLCONF = "risiko_site.urls"
WSGI_APPLICATION = "risiko_site.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "risiko_site.guide.guides",
            ],
        },
    },
]

DATABASES = {
    "default": dj_database_url.parse(
        env_str("DATABASE_URL", f"sqlite:///{BASE_DIR / 'db.sqlite3'}"),
        conn_max_age=env_int("DB_CONN_MAX_AGE", 60 if PRODUCTION else 0, minimum=0),
        # A persistent connection is checked before a request reuses it: after a database restart
        # the first request of each worker gets a new connection instead of an error.
        conn_health_checks=True,
    )
}
if PRODUCTION and DATABASES["default"]["ENGINE"] != "django.db.backends.postgresql":
    raise ImproperlyConfigured("production runs on PostgreSQL: set DATABASE_URL=postgres://...")
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # A database that does not answer is found out in seconds, not minutes: a connection not made
    # within DB_CONNECT_TIMEOUT_S, a statement (or its wait for a lock) not done within
    # DB_STATEMENT_TIMEOUT_MS is an error (the last rendered page, else the 503 page), so no worker
    # thread is held by a hung database. 0 turns the statement limit off (the compose file's migrate).
    # A wait for a lock is cut sooner, DB_LOCK_TIMEOUT_MS (a table locked by a long transaction: a poll's
    # few statements each waiting the whole statement limit made 28 s). The server enforces both limits;
    # a server that cannot (gone from the network, its host frozen) is found out by the client: TCP
    # keepalives on an idle connection, and data sent but not acknowledged within DB_TCP_USER_TIMEOUT_MS
    # ends the connection (tcp_user_timeout, Linux).
    _options = DATABASES["default"].setdefault("OPTIONS", {})
    _options.setdefault("connect_timeout", env_int("DB_CONNECT_TIMEOUT_S", 3, minimum=1))
    _statement_ms = env_int("DB_STATEMENT_TIMEOUT_MS", 5000, minimum=0)
    _lock_ms = env_int("DB_LOCK_TIMEOUT_MS", min(_statement_ms, 2000) if _statement_ms else 0, minimum=0)
    _options["options"] = (f"{_options.get('options', '')} -c statement_timeout={_statement_ms}"
                           f" -c lock_timeout={_lock_ms}").strip()
    _options.setdefault("keepalives", 1)
    _options.setdefault("keepalives_idle", env_int("DB_KEEPALIVES_IDLE_S", 10, minimum=1))
    _options.setdefault("keepalives_interval", 2)
    _options.setdefault("keepalives_count", 3)
    _options.setdefault("tcp_user_timeout", env_int("DB_TCP_USER_TIMEOUT_MS", 10000, minimum=0))
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Waiting on the write lock instead of failing at once when two arbiters save together.
    DATABASES["default"].setdefault("OPTIONS", {})["timeout"] = 20
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# One cache for every worker and host (public pages, computed standings, results versions).
CACHES = caches_from_url(env_str("CACHE_URL", ""), BASE_DIR / "var" / "cache")

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "manage:home"
LOGOUT_REDIRECT_URL = "public:home"

LANGUAGE_CODE = "it"
LANGUAGES = [("it", _("Italian")), ("en", _("English"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = env_str("TIME_ZONE", "Europe/Rome")
USE_I18N = True
USE_TZ = True

STATIC_URL = "/static/"
# Where collectstatic writes (the Dockerfile; `make proxy-check` points it at a scratch folder).
STATIC_ROOT = Path(env_str("STATIC_ROOT", "") or BASE_DIR / "staticfiles")
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"
        if PRODUCTION
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}

# Login throttling (tournaments.accounts.throttle), for the site's login and /admin/login/ alike: failures
# allowed per client address in the window; past as many failures on one account, each address
# waits LOGIN_ACCOUNT_DELAY_S between its tries on that account.
AUTHENTICATION_BACKENDS = ["tournaments.accounts.throttle.ThrottledModelBackend"]
LOGIN_FAILURE_LIMIT = env_int("LOGIN_FAILURE_LIMIT", 10, minimum=1)
LOGIN_FAILURE_WINDOW_S = env_int("LOGIN_FAILURE_WINDOW_S", 15 * 60, minimum=1)
LOGIN_ACCOUNT_DELAY_S = env_int("LOGIN_ACCOUNT_DELAY_S", 60, minimum=1)
# How many reverse proxies stand in front of gunicorn: the client address is then the one the
# outermost proxy wrote into X-Forwarded-For. 0: REMOTE_ADDR is the client.
TRUSTED_PROXY_COUNT = env_int("TRUSTED_PROXY_COUNT", 0, minimum=0)
# Public sign-ups accepted from one client address in the window (counted in the database, shared
# by every worker).
SIGNUP_LIMIT = env_int("SIGNUP_LIMIT", 10, minimum=1)
SIGNUP_WINDOW_S = env_int("SIGNUP_WINDOW_S", 60 * 60, minimum=1)

# A one-time link to choose an arbiter's password lasts one evening, not days; renewing it revokes the old one.
PASSWORD_LINK_HOURS = env_int("PASSWORD_LINK_HOURS", 12, minimum=1)
PASSWORD_RESET_TIMEOUT = PASSWORD_LINK_HOURS * 3600

# The guides for organisers and arbiters (docs/, `make docs` builds them into site/), linked from the
# help pages and the footer: DOCS_URL where they are published (http(s):// or a path on this site);
# without it /guida/, served from site/ when the site is built beside the application; else no link.
DOCS_SITE_DIR = BASE_DIR / "site"
_docs_url = env_str("DOCS_URL", "").strip()
if _docs_url and not _docs_url.startswith(("https://", "http://", "/")):
    raise ImproperlyConfigured(f"DOCS_URL must start with https://, http:// or /, not {_docs_url!r}")
if _docs_url:
    DOCS_URL = _docs_url if _docs_url.endswith("/") else _docs_url + "/"
else:
    DOCS_URL = "/guida/" if (DOCS_SITE_DIR / "index.html").is_file() else ""

# How often open standings pages refresh themselves (htmx polling, answered 304 when unchanged).
STANDINGS_POLL_SECONDS = env_int("STANDINGS_POLL_SECONDS", 15, minimum=1)
# A public page (tables/standings/cache.py) is not rendered again less than the refresh interval after
# its last render started: a storm of saves costs one render per interval. While one request renders a
# newer version, the others get the last page if it started less than the stale bound ago.
PUBLIC_PAGE_STALE_SECONDS = env_int("PUBLIC_PAGE_STALE_MS", 1500, minimum=0) / 1000
PUBLIC_PAGE_REFRESH_SECONDS = env_int("PUBLIC_PAGE_REFRESH_MS", 500, minimum=0) / 1000
# How often the big screen (tables.room) asks whether anything changed: one small request, 304 when nothing did.
SCREEN_POLL_SECONDS = env_int("SCREEN_POLL_SECONDS", 15, minimum=1)
# The live channel (tables.live): a heartbeat this often keeps an idle stream open through proxies;
# each stream ends after LIVE_STREAM_SECONDS and the browser reconnects; without Redis each stream
# reads the last change announced every LIVE_POLL_MS.
LIVE_HEARTBEAT_SECONDS = env_int("LIVE_HEARTBEAT_SECONDS", 15, minimum=1)
LIVE_STREAM_SECONDS = env_int("LIVE_STREAM_SECONDS", 300, minimum=1)
LIVE_POLL_SECONDS = env_int("LIVE_POLL_MS", 1000, minimum=50) / 1000
# Streams one client address may hold open at once on one process of the live server: past it the
# answer is 429 and the page polls instead (a club's hall behind one address polls, never fails).
LIVE_STREAMS_PER_CLIENT = env_int("LIVE_STREAMS_PER_CLIENT", 50, minimum=1)
# Streams one process of the live server holds open at once, from all addresses: past it the answer is
# 503 and the page polls instead (each stream holds about 100 KB and two file descriptors).
LIVE_STREAMS_MAX = env_int("LIVE_STREAMS_MAX", 1000, minimum=1)
# The largest request body taken (a 10 MB workbook and its form): a larger one is answered 413 before it
# is read (tournaments.accounts.middleware.RequestBodyLimitMiddleware); the Caddyfile has the same limit.
REQUEST_BODY_MAX_MB = env_int("REQUEST_BODY_MAX_MB", 11, minimum=1)

# Web Push, "your table is ready" (tables.push): the site's VAPID key pair (`manage.py vapid_keys`
# makes one) and whom the push services may write to about it (mailto: or https:). Without the keys
# the option is not offered and nothing is sent. Each push service is given PUSH_TIMEOUT_SECONDS
# to answer; the notifications are sent by the push worker (TASKS below).
VAPID_PUBLIC_KEY = env_str("VAPID_PUBLIC_KEY", "").strip()
VAPID_PRIVATE_KEY = env_str("VAPID_PRIVATE_KEY", "").strip()
VAPID_SUBJECT = env_str("VAPID_SUBJECT", "").strip()
if bool(VAPID_PUBLIC_KEY) != bool(VAPID_PRIVATE_KEY):
    raise ImproperlyConfigured("VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY must be set together (manage.py vapid_keys)")
if VAPID_PUBLIC_KEY and not VAPID_SUBJECT.startswith(("mailto:", "https://")):
    raise ImproperlyConfigured("VAPID_SUBJECT must be mailto:<address> or an https:// address when the VAPID "
                               "keys are set")
PUSH_TIMEOUT_SECONDS = env_int("PUSH_TIMEOUT_SECONDS", 5, minimum=1)

# Background work, Django's tasks framework (django-tasks): the public pages of a tournament rendered
# after its changes commit (backend "pages", tables/live/snapshot.py) and the push notifications
# (backend "default", tables/push/sender.py). TASKS_BACKEND=database (docker-compose.yml): the jobs wait
# in the database until the workers (`manage.py db_worker --backend pages|default`) run them, so a
# restart loses none. immediate (the default, `make run`: one process, no worker): each job runs in the
# process that queued it, once its transaction has committed; a job for later (the dispute window's
# close announced) is not run, and the pages' own once-a-minute poll shows the close.
_TASK_BACKENDS = {"immediate": "django_tasks.backends.immediate.ImmediateBackend",
                  "database": "django_tasks_db.DatabaseBackend"}
TASKS_BACKEND = env_str("TASKS_BACKEND", "immediate")
if TASKS_BACKEND not in _TASK_BACKENDS:
    raise ImproperlyConfigured(f"TASKS_BACKEND must be one of {', '.join(_TASK_BACKENDS)}, not {TASKS_BACKEND!r}")
TASKS = {"default": {"BACKEND": _TASK_BACKENDS[TASKS_BACKEND], "QUEUES": ["push"]},
         "pages": {"BACKEND": _TASK_BACKENDS[TASKS_BACKEND], "QUEUES": ["pages"]}}

# connect-src 'self' lets the pages' EventSource open the live channel (same origin).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "connect-src": ["'self'"],
        "font-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    }
}

SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
SESSION_ENGINE = "tournaments.accounts.sessions"
SESSION_COOKIE_HTTPONLY = True
# The health page answers the checks made from inside the server over plain HTTP (risiko_site/health.py).
SECURE_REDIRECT_EXEMPT = [r"^salute/$", r"^health/$"]
if PRODUCTION:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 31536000, minimum=0)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"database_unavailable": {"()": "risiko_site.errors.DatabaseUnavailableFilter"}},
    "handlers": {"console": {"class": "logging.StreamHandler"},
                 "requests": {"class": "logging.StreamHandler", "filters": ["database_unavailable"]}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "WARNING")},
    "loggers": {
        "django.request": {"handlers": ["requests"], "propagate": False},
        # One line per public page rendered into the cache (tables/standings/cache.py).
        "torneo.standings": {"level": env_str("STANDINGS_LOG_LEVEL", env_str("LOG_LEVEL", "WARNING"))},
        # One line per phone subscribed, unsubscribed, notified or found expired (tables/push/).
        "torneo.push": {"level": env_str("PUSH_LOG_LEVEL", env_str("LOG_LEVEL", "WARNING"))},
    },
}
