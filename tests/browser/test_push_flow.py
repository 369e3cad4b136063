"""'Your table is ready' on a phone: the option appears once the player tapped "Sono io", turning it
on asks the permission, registers the players' worker and posts the subscription (the site saves
it for this player, in the page's language), turning it off forgets it; the worker shows a pushed
notification (a tap on it, opening the page, has no headless equivalent). Headless Chromium has no
push service: the browser's PushManager answers with a made-up subscription on FCM's address (the
page's code, the worker and the site are the real ones, under the site's Content-Security-Policy)."""
import json

import pytest
from django.urls import reverse

from tables.models import PushSubscription
from tables.push.keys import generate
from tests.browser.catalogue import it
from tests.browser.test_room_flow import AXE
from tests.factories import RegistrationFactory, seat_round

PUBLIC_KEY, PRIVATE_KEY = generate()
P256DH = generate()[0]
ENDPOINT = "https://fcm.googleapis.com/fcm/send/test-phone"

# The browser's push service, stood in for: what subscribe() and getSubscription() give (kept for
# the tab's life in sessionStorage, as the browser keeps a real one).
FAKE_PUSH = """
(() => {
  const KEY = "fake-push-subscription";
  const make = () => ({
    endpoint: "%(endpoint)s",
    toJSON() { return { endpoint: this.endpoint, expirationTime: null, keys: { p256dh: "%(p256dh)s", auth: "AAAAAAAAAAAAAAAAAAAAAA" } }; },
    unsubscribe() { sessionStorage.removeItem(KEY); return Promise.resolve(true); },
  });
  PushManager.prototype.subscribe = function (options) {
    sessionStorage.setItem(KEY, String(options.applicationServerKey.length));
    return Promise.resolve(make());
  };
  PushManager.prototype.getSubscription = function () {
    return Promise.resolve(sessionStorage.getItem(KEY) ? make() : null);
  };
})();
""" % {"endpoint": ENDPOINT, "p256dh": P256DH}


@pytest.fixture
def keys(settings):
    settings.VAPID_PUBLIC_KEY, settings.VAPID_PRIVATE_KEY = PUBLIC_KEY, PRIVATE_KEY
    settings.VAPID_SUBJECT = "mailto:club@example.org"


def _player_page(browser, live_server, reg, bypass_csp=False):
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True,
                                  locale="it-IT", bypass_csp=bypass_csp)
    context.grant_permissions(["notifications"], origin=live_server.url)
    context.add_init_script(FAKE_PUSH)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.goto(live_server.url + reverse("public:player", args=[reg.tournament_id, reg.pk]))
    return context, page, errors


def test_a_player_turns_the_notifications_on_and_off(live_server, browser, shot, keys, tournament):
    regs = [RegistrationFactory(tournament=tournament, player__last_name=n) for n in ["Rossi", "Bianchi", "Verdi",
                                                                                       "Neri"]]
    seat_round(tournament, [regs])
    context, page, errors = _player_page(browser, live_server, regs[0])
    box = page.locator("[data-push]")
    assert box.is_hidden()  # not before "Sono io"
    page.locator("[data-me-button]").click()
    on = box.locator("[data-push-on]")
    on.wait_for()
    assert on.inner_text() == it("Notify me when my table is ready")
    shot(page, "push-offered")
    on.click()
    page.wait_for_selector("[data-push][data-push-state=on]")
    off = box.locator("[data-push-off]")
    assert off.is_visible() and on.is_hidden()
    status = box.locator("[data-push-status]")
    assert status.inner_text() == it("Notifications on: when a round is published, this phone shows your table.")
    assert page.evaluate("sessionStorage.getItem('fake-push-subscription')") == "65"  # the site's public key
    sub = PushSubscription.objects.get()
    assert (sub.registration_id, sub.endpoint, sub.p256dh, sub.language) == (regs[0].pk, ENDPOINT, P256DH, "it")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    shot(page, "push-on")
    page.reload()
    off.wait_for()  # the phone still follows the player
    assert off.inner_text() == it("Turn off notifications")
    off.click()
    page.wait_for_selector("[data-push][data-push-state=off]")
    assert on.is_visible() and off.is_hidden()
    assert status.inner_text() == it("Notifications off.")
    assert PushSubscription.objects.count() == 0
    assert errors == []
    context.close()


@pytest.mark.skipif(not AXE.exists(), reason="axe-core not installed: npm install --no-save axe-core")
def test_the_option_has_no_serious_accessibility_violation(live_server, browser, keys, tournament):
    reg = RegistrationFactory(tournament=tournament)
    context, page, _errors = _player_page(browser, live_server, reg, bypass_csp=True)  # axe is injected inline
    page.locator("[data-me-button]").click()
    page.locator("[data-push-on]").wait_for()
    page.add_script_tag(path=str(AXE))
    assert page.evaluate("async () => (await axe.run(document)).violations"
                         ".filter(v => ['serious', 'critical'].includes(v.impact)).map(v => v.id)") == []
    context.close()


def test_the_players_worker_shows_the_pushed_table(live_server, browser, keys, tournament):
    reg = RegistrationFactory(tournament=tournament)
    context, page, errors = _player_page(browser, live_server, reg)
    page.locator("[data-me-button]").click()
    page.locator("[data-push-on]").click()
    page.locator("[data-push-off]").wait_for()
    payload = {"title": tournament.name, "body": "Turno 2 — Tavolo 7, con Rossi, Bianchi, Verdi",
               "tag": f"torneo-{tournament.pk}", "url": reverse("public:player", args=[tournament.pk, reg.pk])}
    scope = page.evaluate("navigator.serviceWorker.getRegistration('/notifiche/').then(r => r ? r.scope : null)")
    assert scope == live_server.url + "/notifiche/"
    cdp = context.new_cdp_session(page)
    registrations = []
    cdp.on("ServiceWorker.workerRegistrationUpdated", lambda e: registrations.extend(e["registrations"]))
    cdp.send("ServiceWorker.enable")  # tells the registrations there are
    for _ in range(50):
        if any(r["scopeURL"] == scope for r in registrations):
            break
        page.wait_for_timeout(100)
    [found] = {r["registrationId"]: r for r in registrations if r["scopeURL"] == scope}.values()
    cdp.send("ServiceWorker.deliverPushMessage", {"origin": live_server.url, "registrationId": found["registrationId"],
                                                  "data": json.dumps(payload)})
    shown = page.evaluate("""async () => {
      const r = await navigator.serviceWorker.getRegistration('/notifiche/');
      for (let i = 0; i < 50; i += 1) {
        const found = await r.getNotifications();
        if (found.length) return found.map(n => [n.title, n.body, n.tag, n.data.url]);
        await new Promise(done => setTimeout(done, 100));
      }
      return [];
    }""")
    assert shown == [[payload["title"], payload["body"], payload["tag"], payload["url"]]]
    assert errors == []
    context.close()


@pytest.mark.parametrize("size", [(390, 844), (1280, 900)], ids=["phone", "desk"])
def test_the_option_appears_once_the_keys_are_set_though_the_page_was_seen_before(live_server, browser, settings,
                                                                                 tournament, size):
    """Settings that take effect: the keys set after the player's page was rendered (and kept by the
    page cache), the page offers "Avvisami" at the next load, with no result changed."""
    settings.VAPID_PUBLIC_KEY = settings.VAPID_PRIVATE_KEY = ""
    reg = RegistrationFactory(tournament=tournament)
    context = browser.new_context(viewport={"width": size[0], "height": size[1]}, locale="it-IT", bypass_csp=True)
    context.grant_permissions(["notifications"], origin=live_server.url)
    context.add_init_script(FAKE_PUSH)
    page = context.new_page()
    page.goto(live_server.url + reverse("public:player", args=[reg.tournament_id, reg.pk]))
    assert page.locator("[data-push]").count() == 0
    settings.VAPID_PUBLIC_KEY, settings.VAPID_PRIVATE_KEY = PUBLIC_KEY, PRIVATE_KEY
    settings.VAPID_SUBJECT = "mailto:club@example.org"
    page.reload()
    assert page.locator("[data-push]").count() >= 1
    if page.locator("[data-me-button]").is_visible():
        page.locator("[data-me-button]").click()
    page.locator("[data-push-on]").wait_for()
    page.add_script_tag(path=str(AXE))
    assert page.evaluate("async () => (await axe.run(document)).violations"
                         ".filter(v => ['serious', 'critical'].includes(v.impact)).map(v => v.id)") == []
    context.close()
