/* "Notify me when my table is ready" on a player's page (tables.push, templates/tables/push/_option.html).
   Shown only on the phone that tapped "This is me" for this player (static/js/room.js keeps it in
   localStorage "torneo-me") and only where the browser has service workers, PushManager and
   notifications. Turning it on asks the permission, registers the players' worker (/notifiche/sw.js),
   subscribes with the site's public VAPID key and posts the subscription; the site answers with the
   player's table when a round is published. "torneo-push" remembers which player this phone follows. */
(function () {
  "use strict";
  var ME = "torneo-me", FOLLOWS = "torneo-push", SCOPE = "/notifiche/";

  function read(key) {
    try { return JSON.parse(localStorage.getItem(key) || "{}") || {}; } catch (e) { return {}; }
  }
  function write(key, value) {
    try {
      if (value) localStorage.setItem(key, JSON.stringify(value)); else localStorage.removeItem(key);
    } catch (e) { /* private mode: nothing kept */ }
  }
  function supported() {
    return "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;
  }
  function keyBytes(text) {
    var padded = (text + "===".slice((text.length + 3) % 4)).replace(/-/g, "+").replace(/_/g, "/");
    var raw = atob(padded), bytes = new Uint8Array(raw.length);
    for (var i = 0; i < raw.length; i += 1) bytes[i] = raw.charCodeAt(i);
    return bytes;
  }

  function start(box) {
    var on = box.querySelector("[data-push-on]"), off = box.querySelector("[data-push-off]");
    var status = box.querySelector("[data-push-status]");
    var tournament = box.getAttribute("data-tournament"), reg = box.getAttribute("data-reg");

    function isMe() { return read(ME)[tournament] === reg; }
    function following() { var f = read(FOLLOWS); return f.tournament === tournament && f.reg === reg; }
    // "busy" (waiting for the browser or the site) keeps the buttons where they are, disabled.
    function show(state) {
      box.setAttribute("data-push-state", state);
      on.disabled = off.disabled = state === "busy";
      if (state === "busy") return;
      on.hidden = state === "on";
      off.hidden = state !== "on";
      on.disabled = state === "denied";
      status.textContent = box.getAttribute("data-text-" + state) || "";
    }

    // The worker's registration once its worker is active (pushManager.subscribe needs one).
    function registration() {
      return navigator.serviceWorker.register(box.getAttribute("data-worker"), { scope: SCOPE }).then(function (r) {
        if (r.active) return r;
        return new Promise(function (resolve) {
          var worker = r.installing || r.waiting;
          worker.addEventListener("statechange", function () { if (worker.state === "activated") resolve(r); });
        });
      });
    }
    function existing() {
      return navigator.serviceWorker.getRegistration(SCOPE).then(function (r) {
        return r ? r.pushManager.getSubscription() : null;
      });
    }
    // The page comes from the cache without a CSRF token: the subscription's address gives one.
    function post(url, body) {
      return fetch(box.getAttribute("data-subscribe"), { credentials: "same-origin" }).then(function (r) {
        if (!r.ok) throw new Error("token " + r.status);
        return r.json();
      }).then(function (data) {
        return fetch(url, { method: "POST", credentials: "same-origin", body: JSON.stringify(body),
                            headers: { "Content-Type": "application/json", "X-CSRFToken": data.token } });
      }).then(function (r) {
        if (!r.ok) throw new Error("post " + r.status);
        return r;
      });
    }

    function turnOn() {
      show("busy");
      Notification.requestPermission().then(function (permission) {
        if (permission !== "granted") { show(permission === "denied" ? "denied" : "off"); return null; }
        return registration().then(function (r) {
          return r.pushManager.getSubscription().then(function (sub) {
            return sub || r.pushManager.subscribe({ userVisibleOnly: true,
                                                    applicationServerKey: keyBytes(box.getAttribute("data-key")) });
          });
        }).then(function (sub) {
          return post(box.getAttribute("data-subscribe"), sub.toJSON());
        }).then(function () {
          write(FOLLOWS, { tournament: tournament, reg: reg });
          show("on");
        });
      }).catch(function () { show("failed"); });
    }

    function turnOff(quietly) {
      if (!quietly) show("busy");
      return existing().then(function (sub) {
        if (!sub) return null;
        return post(box.getAttribute("data-unsubscribe"), { endpoint: sub.endpoint }).then(function () {
          return sub.unsubscribe();
        });
      }).then(function () {
        write(FOLLOWS, null);
        if (!quietly) show("off");
      }).catch(function () { if (!quietly) show(following() ? "on" : "off"); });
    }

    function refresh() {
      if (!isMe()) {
        // "This is me" taken back: this phone stops following the player.
        if (following()) turnOff(true);
        box.hidden = true;
        return;
      }
      box.hidden = false;
      if (Notification.permission === "denied") { show("denied"); return; }
      existing().then(function (sub) {
        show(sub && following() ? "on" : "off");
        if (!(sub && following())) status.textContent = "";  // nothing to say before a choice
      }).catch(function () { show("off"); status.textContent = ""; });
    }

    on.addEventListener("click", turnOn);
    off.addEventListener("click", function () { turnOff(false); });
    // room.js records "This is me" on the same click, before this listener runs.
    document.addEventListener("click", function (event) {
      if (event.target.closest && event.target.closest("[data-me-button]")) refresh();
    });
    refresh();
  }

  function ready() {
    var box = document.querySelector("[data-push]");
    if (box && supported()) start(box);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", ready); else ready();
})();
