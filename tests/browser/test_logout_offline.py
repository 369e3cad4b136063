"""A shared phone: once the arbiter has logged out, nothing of the arbiter's pages opens offline, and
results still waiting on the phone are never dropped silently by a logout."""
import pytest

from tests.browser.catalogue import it
from tests.factories import RegistrationFactory, seat_round

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def seated(tournament):
    regs = [RegistrationFactory(tournament=tournament, player__last_name=n) for n in ("Rossi", "Bianchi", "Verdi", "Neri")]
    return seat_round(tournament, [regs])


# How many saves the phone's queue (static/js/offline-queue.js) still holds.
QUEUED = """new Promise(resolve => {
  const open = indexedDB.open("torneo-offline", 1);
  open.onupgradeneeded = () => open.result.createObjectStore("saves", {keyPath: "id"});
  open.onsuccess = () => {
    const count = open.result.transaction("saves").objectStore("saves").count();
    count.onsuccess = () => resolve(count.result);
  };
})"""


def _opens(page, url):
    """The page's text when it opens, None when it does not (no network and nothing kept)."""
    try:
        response = page.goto(url)
    except Exception:  # net::ERR_INTERNET_DISCONNECTED: nothing answered
        return None
    if response is None or response.status != 200:
        return None
    return page.content()


def _arbiter_pages(live_server, tournament):
    base = f"{live_server.url}/arbitro/t/{tournament.pk}"
    return {"home": f"{base}/", "round": f"{base}/turni/1/", "table": f"{base}/turni/1/tavoli/1/",
            "penalties": f"{base}/penalita/", "disputes": f"{base}/ricorsi/"}


def test_after_logout_no_arbiter_page_opens_offline(phone, live_server, login, tournament, seated, shot):
    page = phone
    pages = _arbiter_pages(live_server, tournament)
    login(page, "arturo")
    page.goto(pages["home"])
    page.wait_for_selector("#offline-status[data-kept]", state="attached")
    page.goto(pages["penalties"])
    page.wait_for_selector("#offline-status[data-kept]", state="attached")
    page.goto(pages["table"])
    page.wait_for_selector("form.result-form")
    page.wait_for_selector("#offline-status[data-kept]", state="attached")
    # Offline while logged in: the round and its table open from the phone, the penalty page does not.
    page.context.set_offline(True)
    assert "Rossi" in (_opens(page, pages["table"]) or "")
    assert _opens(page, pages["home"]) is not None
    assert _opens(page, pages["penalties"]) is None
    page.context.set_offline(False)
    page.goto(pages["table"])
    page.click("form[data-logout] button[type=submit]")
    page.wait_for_url(f"{live_server.url}/")
    shot(page, "95-logged-out-phone")
    page.context.set_offline(True)
    for name, url in pages.items():
        assert _opens(page, url) is None, name
    page.context.set_offline(False)
    page.goto(f"{live_server.url}/")
    kept = page.evaluate("caches.keys().then(keys => Promise.all(keys.map(k => caches.open(k).then(c => c.keys()))))"
                         ".then(lists => lists.flat().map(r => r.url))")
    assert [u for u in kept if "/arbitro/" in u] == []
    assert page.console_errors == []


def test_logout_with_results_waiting_says_how_many_and_sends_them_first(phone, live_server, login, tournament,
                                                                        seated, shot):
    page = phone
    pages = _arbiter_pages(live_server, tournament)
    login(page, "arturo")
    page.goto(pages["home"])
    page.wait_for_selector("#offline-status[data-kept]", state="attached")
    page.context.set_offline(True)
    page.click("a[data-offline-table] >> nth=0")
    page.wait_for_selector("form.result-form")
    for i, tp in enumerate(["62", "48", "30", "0"]):
        page.fill(f"#id_p{i}-table_points", tp)
    page.fill("#id_p3-eliminated", "1")
    page.click("form.result-form button[type=submit]")
    page.wait_for_url("**?in-attesa=1")
    page.click("form[data-logout] button[type=submit]")
    dialog = page.get_by_role("alertdialog")
    dialog.wait_for()
    assert dialog.locator("[data-logout-count]").inner_text() == it("1 result is still only on this phone.")
    shot(page, "96-logout-with-a-result-waiting-phone")
    assert page.url.endswith("?in-attesa=1")  # still logged in, nothing dropped
    page.context.set_offline(False)
    dialog.locator("[data-logout-choice=send]").click()
    page.wait_for_url(f"{live_server.url}/")
    table = seated.tables.get()
    table.refresh_from_db()
    assert table.version == 1
    assert page.evaluate(QUEUED) == 0  # sent, not dropped: the queue on the phone is empty
