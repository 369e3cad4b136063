// Results saved on the phone while the network is away, kept in IndexedDB until the server has them.
// Shared by the arbiter's pages (static/js/offline.js) and the offline worker (static/js/sw.js).
// Each queued save: {id (the phone's submission id), url, fields: [[name, value]...], label, home,
// state: "pending" | "conflict" | "invalid", server: the server's answer, created}.
(function (scope) {
  "use strict";
  const DB = "torneo-offline";
  const STORE = "saves";

  function open() {
    return new Promise(function (resolve, reject) {
      const request = indexedDB.open(DB, 1);
      request.onupgradeneeded = function () {
        request.result.createObjectStore(STORE, { keyPath: "id" });
      };
      request.onsuccess = function () { resolve(request.result); };
      request.onerror = function () { reject(request.error); };
    });
  }

  function run(mode, work) {
    return open().then(function (db) {
      return new Promise(function (resolve, reject) {
        const tx = db.transaction(STORE, mode);
        const result = work(tx.objectStore(STORE));
        tx.oncomplete = function () { db.close(); resolve(result && "result" in result ? result.result : result); };
        tx.onerror = function () { db.close(); reject(tx.error); };
      });
    });
  }

  function put(item) { return run("readwrite", function (store) { store.put(item); }); }
  function remove(id) { return run("readwrite", function (store) { store.delete(id); }); }
  function all() { return run("readonly", function (store) { return store.getAll(); }); }

  function field(item, name) {
    const pair = item.fields.find(function (f) { return f[0] === name; });
    return pair ? pair[1] : "";
  }

  // Send one queued save. The server answers in JSON (tables/results_views.py): saved or duplicate
  // (applied once, whatever the number of sends) remove it; conflict and invalid keep it for the
  // arbiter to decide; anything else (no network, logged out) leaves it pending for the next try.
  function send(item) {
    const body = new URLSearchParams(item.fields);
    return fetch(item.url, {
      method: "POST", body: body, credentials: "same-origin", redirect: "manual",
      headers: { "X-Torneo-Sync": "1", "X-CSRFToken": field(item, "csrfmiddlewaretoken") },
    }).then(function (response) {
      const json = (response.headers.get("Content-Type") || "").indexOf("application/json") === 0;
      if (!json) { return "kept"; }
      return response.json().then(function (answer) {
        if (answer.status === "saved" || answer.status === "duplicate") {
          return remove(item.id).then(function () { return answer.status; });
        }
        if (answer.status === "conflict" || answer.status === "invalid") {
          item.state = answer.status;
          item.server = answer;
          return put(item).then(function () { return answer.status; });
        }
        return "kept";
      });
    });
  }

  // Keep one result form, as sent, on the phone; resolves to the round's page to go back to.
  function keepForm(path, formData, label) {
    const fields = [];
    formData.forEach(function (value, name) { fields.push([name, String(value)]); });
    const home = path.replace(/turni\/\d+\/tavoli\/\d+\/$/, "");
    const item = { id: "", url: path, fields: fields, label: label, home: home, state: "pending", created: Date.now() };
    item.id = field(item, "submission") || self.crypto.randomUUID();
    return put(item).then(function () { return home; });
  }

  let flushing = null;
  // Send every pending save, one after the other; stops at the first network failure. Resolves to
  // the saves the server now has ([{url, status}], status "saved" or "duplicate"), so that the page
  // can say so and show the round's tables as the server has them.
  function flush() {
    if (flushing) { return flushing; }
    const sent = [];
    function sendAll() {
      return all().then(function (items) {
        const pending = items.filter(function (i) { return i.state === "pending"; });
        return pending.reduce(function (chain, item) {
          return chain.then(function () { return send(item); }).then(function (status) {
            if (status === "saved" || status === "duplicate") { sent.push({ url: item.url, status: status }); }
          });
        }, Promise.resolve());
      });
    }
    // The page and the worker may both flush when the network returns: one at a time (Web Locks), so
    // the second finds what the first sent already gone and never sends it twice at once.
    const locks = self.navigator && self.navigator.locks;
    flushing = (locks ? locks.request("torneo-queue-flush", sendAll) : sendAll())
      .catch(function () { return null; }).then(function () {
      flushing = null;
      return sent;
    });
    return flushing;
  }

  scope.TorneoQueue = { put: put, remove: remove, all: all, flush: flush, field: field, keepForm: keepForm };
})(self);
