"""Browser tests: Playwright for Python driving Debian's headless /usr/bin/chromium."""
import threading
import time
from pathlib import Path

import pytest
from django.core.servers import basehttp

from tests.factories import ClubFactory, PlayerFactory, TournamentFactory, UserFactory

CHROMIUM = "/usr/bin/chromium"
SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screenshots"
PHONE = {"width": 390, "height": 844}


class _InFlight:
    """Requests the live server is still answering. A page closed at a test's end may leave one
    (a service worker's fetch, a redirect followed): the database is emptied for the next test only
    once they are answered, or SQLite refuses the flush ("database table is locked")."""
    lock = threading.Lock()
    count = 0
    real_run = basehttp.ServerHandler.run

    @classmethod
    def install(cls):
        def run(handler, application):
            with cls.lock:
                cls.count += 1
            try:
                return cls.real_run(handler, application)
            finally:
                with cls.lock:
                    cls.count -= 1
        basehttp.ServerHandler.run = run

    @classmethod
    def wait(cls, seconds=10):
        deadline = time.monotonic() + seconds
        quiet_since = None
        while time.monotonic() < deadline:
            if cls.count == 0:
                quiet_since = quiet_since or time.monotonic()
                if time.monotonic() - quiet_since >= 0.2:
                    return
            else:
                quiet_since = None
            time.sleep(0.02)


_InFlight.install()


@pytest.fixture(autouse=True)
def _live_server_drained(request):
    """Set up after the test's database (so torn down before it is emptied): waits for the live
    server's last answers."""
    if request.node.get_closest_marker("django_db") or "live_server" in request.fixturenames:
        request.getfixturevalue("_django_db_helper")
    yield
    _InFlight.wait()


@pytest.fixture(autouse=True)
def _factory_names_start_again():
    """The factories' names (Nome1, Club 1, user1, ...) start again at each browser test, as in a process
    of its own: a page's width does not depend on how many tests ran before it in the same process
    (`make test` runs the whole suite in a few processes). The live server's database is emptied after
    each browser test, so no name is taken."""
    for made in (UserFactory, ClubFactory, PlayerFactory, TournamentFactory):
        made.reset_sequence(0)


@pytest.fixture(autouse=True)
def _live_streams_end_soon(settings):
    """The test server is WSGI: a closed page's live stream (static/js/live.js) ends at its next line,
    so a heartbeat each second lets the test end without waiting for it."""
    settings.LIVE_HEARTBEAT_SECONDS = 1


@pytest.fixture(autouse=True)
def _snapshots_as_the_worker_runs_them(snapshots):
    """A change's snapshot job runs once it commits, as the worker runs it in production: the live
    channel announces each change with its pages."""


def pytest_collection_modifyitems(items):
    for item in items:
        if "tests/browser/" in str(item.fspath):
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="module")
def browser(monkeypatch_module):
    """One Chromium per test module. Not one per run: `make test` runs the browser tests in the same
    processes as the others, and Playwright's sync API keeps an event loop running in this thread
    while it is open, where the ASGI tests start their own (tests/tables/live)."""
    from playwright.sync_api import sync_playwright
    # The ORM calls made by the tests between browser steps are ordinary synchronous calls.
    monkeypatch_module.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield b
        b.close()


@pytest.fixture(scope="module")
def monkeypatch_module():
    with pytest.MonkeyPatch.context() as mp:
        yield mp


@pytest.fixture
def phone(browser):
    context = browser.new_context(viewport=PHONE, device_scale_factor=1, is_mobile=True, has_touch=True,
                                  locale="it-IT")
    page = context.new_page()
    errors = []
    # Script errors and CSP violations; a form answered 400 with its errors is expected, not a fault.
    page.on("console", lambda m: errors.append(m.text)
            if m.type == "error" and not m.text.startswith("Failed to load resource") else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.console_errors = errors
    yield page
    context.close()


@pytest.fixture
def shot():
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)

    def take(page, name):
        page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=True)
    return take


@pytest.fixture
def login(live_server):
    def do(page, username, password="pw-for-tests-123"):
        page.goto(live_server.url + "/accounts/login/")
        page.fill("#id_username", username)
        page.fill("#id_password", password)
        page.click("main button[type=submit]")
        page.wait_for_url(lambda url: "/accounts/login/" not in url)  # home, or an arbiter's tournament in play
    return do
