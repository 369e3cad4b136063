// The arbiter's pages offline (README, "Offline result entry"): registers the offline worker, asks it
// to keep the round's pages, queues a result saved without network, sends the queue when the network
// returns, and says on the page what is saved on the server and what only on this phone.
(function () {
  "use strict";
  const status = document.getElementById("offline-status");
  if (!status || !("serviceWorker" in navigator) || !window.indexedDB) { return; }
  const Queue = window.TorneoQueue;
  const text = status.dataset;

  function pendingCount(items) {
    return items.filter(function (i) { return i.state === "pending"; }).length;
  }

  // Header: how many results wait on this phone; the round's page: which table is only here.
  function show() {
    return Queue.all().then(function (items) {
      const waiting = pendingCount(items);
      const parts = [];
      if (!navigator.onLine) { parts.push(text.offline); }
      if (waiting) { parts.push(waiting === 1 ? text.pendingOne : text.pendingMany.replace("{n}", waiting)); }
      status.textContent = parts.join(" ");
      status.hidden = parts.length === 0;
      status.dataset.pending = String(waiting);
      document.querySelectorAll("a[data-offline-table]").forEach(function (link) {
        const item = items.find(function (i) { return i.url === new URL(link.href).pathname; });
        const badge = link.querySelector(".queued");
        if (!badge) { return; }
        badge.hidden = !item;
        // one state a row: "waiting to be sent" replaces "to enter" (or "saved") while it lasts
        link.querySelectorAll(".badge:not(.queued)").forEach(function (other) { other.hidden = !!item; });
        if (item) { badge.dataset.state = item.state; } else { delete badge.dataset.state; }
        if (item) {
          badge.textContent = item.state === "conflict" ? text.conflict
            : item.state === "invalid" ? text.invalid : text.phoneOnly;
        }
      });
      showConflict(items);
      return items;
    });
  }

  function flush(refresh) {
    if (!navigator.onLine) { return show(); }
    return Queue.flush().then(function (sent) {
      if (sent && sent.length) { return announceSent(sent).then(refreshTables); }
      return refresh === true ? refreshTables() : show();
    });
  }

  // "Result of table 2 sent": what the queue delivered, said on the page until the next page.
  const sentNote = document.getElementById("offline-sent");
  const announced = [];
  function announceSent(sent) {
    sent.forEach(function (s) {
      const match = /tavoli\/(\d+)\/$/.exec(s.url);
      if (match && announced.indexOf(match[1]) === -1) { announced.push(match[1]); }
    });
    if (sentNote && announced.length) {
      sentNote.textContent = announced.length === 1 ? sentNote.dataset.sentOne.replace("{tables}", announced[0])
        : sentNote.dataset.sentMany.replace("{tables}", announced.join(", "));
      sentNote.hidden = false;
    }
    return Promise.resolve();
  }

  // The round's list as the server has it now (the copy kept on the phone may be older than results
  // saved since, by this phone or another): fetched again and put in place of the list shown.
  function refreshTables() {
    const list = document.querySelector("[data-round-tables]");
    if (!list || !navigator.onLine) { return show(); }
    return fetch(location.pathname, { credentials: "same-origin", cache: "no-store" }).then(function (response) {
      if (!response.ok) { return null; }
      return response.text().then(function (html) {
        const fresh = new DOMParser().parseFromString(html, "text/html").querySelector("[data-round-tables]");
        if (fresh) { list.replaceWith(document.importNode(fresh, true)); }
      });
    }).catch(function () { return null; }).then(show);
  }

  window.TorneoRefreshTables = refreshTables;

  // Keep what the arbiter needs offline: this page, every table of the round, scripts and styles.
  function keep(registration) {
    const urls = [location.pathname];
    document.querySelectorAll("a[data-offline-table]").forEach(function (a) { urls.push(new URL(a.href).pathname); });
    document.querySelectorAll("link[rel=stylesheet], script[src]").forEach(function (el) {
      urls.push(new URL(el.href || el.src).pathname);
    });
    const worker = registration.active || navigator.serviceWorker.controller;
    if (worker) { worker.postMessage({ type: "keep", urls: urls }); }
  }

  // The worker says when the round's pages are kept: from then on they open without network.
  navigator.serviceWorker.addEventListener("message", function (event) {
    if (event.data && event.data.type === "kept") { status.dataset.kept = String(event.data.count); }
    if (event.data && event.data.type === "sent") { announceSent(event.data.sent).then(refreshTables); }
  });

  navigator.serviceWorker.register(text.worker, { scope: text.scope }).then(function () {
    return navigator.serviceWorker.ready;
  }).then(keep).catch(function () { return null; });

  // A result saved without network goes to the queue; with network the form is sent as usual
  // (the worker queues it too if the network fails on the way).
  const form = document.querySelector("form.result-form");
  if (form && form.elements.submission) {
    form.addEventListener("submit", function (event) {
      form.elements.submission.value = self.crypto.randomUUID();  // one id per save, kept by retries
      if (navigator.onLine) { return; }
      event.preventDefault();
      Queue.keepForm(location.pathname, new FormData(form), document.title).then(function (home) {
        return navigator.serviceWorker.ready.then(function (registration) {
          return registration.sync ? registration.sync.register("torneo-results") : null;
        }).catch(function () { return null; }).then(function () { location.href = home + "?in-attesa=1"; });
      });
    });
  }

  // This table's result kept on the phone met another saved meanwhile (or was refused): both side
  // by side, and the arbiter chooses.
  function showConflict(items) {
    const panel = document.getElementById("offline-conflict");
    if (!panel) { return; }
    const item = items.find(function (i) { return i.url === location.pathname && i.state !== "pending"; });
    panel.hidden = !item;
    if (!item) { return; }
    const invalid = item.state === "invalid";
    panel.querySelector(".offline-conflict-text").hidden = invalid;
    panel.querySelector(".offline-invalid-text").hidden = !invalid;
    panel.querySelector(".offline-send-mine").hidden = invalid;
    panel.querySelector(".offline-edit-mine").hidden = !invalid;
    const errors = panel.querySelector(".offline-errors");
    errors.replaceChildren();
    (item.server.errors || []).forEach(function (message) {
      const li = document.createElement("li");
      li.textContent = message;
      errors.appendChild(li);
    });
    const body = panel.querySelector("tbody");
    body.replaceChildren();
    (item.server.saved || []).forEach(function (seat) {
      const prefix = (item.fields.find(function (f) { return /-seat$/.test(f[0]) && f[1] === String(seat.seat); }) || [""])[0]
        .replace(/-seat$/, "");
      const row = document.createElement("tr");
      [seat.player, seat.table_points === null ? "—" : String(seat.table_points),
        prefix ? Queue.field(item, prefix + "-table_points") || "—" : "—"].forEach(function (value) {
        const cell = document.createElement("td");
        cell.textContent = value;
        row.appendChild(cell);
      });
      body.appendChild(row);
    });
    panel.dataset.item = item.id;
  }

  document.addEventListener("click", function (event) {
    const button = event.target.closest("[data-offline-choice]");
    if (!button) { return; }
    const id = document.getElementById("offline-conflict").dataset.item;
    Queue.all().then(function (items) {
      const item = items.find(function (i) { return i.id === id; });
      if (!item) { return null; }
      const choice = button.dataset.offlineChoice;
      if (choice === "server") { return Queue.remove(id).then(function () { location.reload(); }); }
      if (choice === "edit") {
        item.fields.forEach(function (f) {
          const input = form && form.elements[f[0]];
          if (input && input.type !== "hidden" && input.type !== "checkbox") { input.value = f[1]; }
        });
        return Queue.remove(id).then(show);
      }
      // Send mine: a new save on the version now on the server, chosen by the arbiter.
      item.fields = item.fields.map(function (f) {
        if (f[0] === "version") { return [f[0], String(item.server.version)]; }
        if (f[0] === "submission") { return [f[0], self.crypto.randomUUID()]; }
        return f;
      });
      return Queue.remove(id).then(function () {
        item.id = Queue.field(item, "submission");
        item.state = "pending";
        return Queue.put(item);
      }).then(flush).then(function () { location.reload(); });
    });
  });

  // Back online: send what waits, and show the round's tables as the server has them even when
  // nothing was waiting (results saved meanwhile by other arbiters).
  window.addEventListener("online", function () { flush(true); });
  window.addEventListener("offline", show);
  setInterval(flush, 20000);
  flush();
})();

// The round's list follows the live channel (static/js/live.js: a change saved, or its fallback poll),
// with the phone's queue shown on it when the offline support runs, as a plain refetch otherwise.
document.addEventListener("torneo:live", function () {
  "use strict";
  if (window.TorneoRefreshTables) { window.TorneoRefreshTables(); return; }
  const list = document.querySelector("[data-round-tables]");
  if (!list) { return; }
  fetch(location.pathname, { credentials: "same-origin", cache: "no-store" }).then(function (response) {
    return response.ok ? response.text() : null;
  }).then(function (html) {
    const fresh = html && new DOMParser().parseFromString(html, "text/html").querySelector("[data-round-tables]");
    if (fresh) { list.replaceWith(document.importNode(fresh, true)); }
  }).catch(function () { return null; });
});
