// Logging out leaves nothing of the arbiter's pages on the phone: the offline worker's kept pages are
// emptied before the logout is sent, and the server's answer clears the site's data (Clear-Site-Data).
// Results still waiting on this phone (offline-queue.js) are never dropped silently: the page says how
// many and offers to send them first; those kept are spared by the server's answer.
(function () {
  "use strict";
  const form = document.querySelector("form[data-logout]");
  if (!form) { return; }
  const dialog = document.getElementById("logout-pending");
  let confirmed = false;

  function forgetPages() {
    const dropAll = window.caches ? caches.keys().then(function (keys) {
      return Promise.all(keys.filter(function (k) { return k.indexOf("torneo-arbiter") === 0; })
        .map(function (k) { return caches.delete(k); }));
    }) : Promise.resolve();
    const worker = navigator.serviceWorker && navigator.serviceWorker.controller;
    if (worker) { worker.postMessage({ type: "forget" }); }
    return dropAll.catch(function () { return null; });
  }

  function pending() {
    if (!window.TorneoQueue || !window.indexedDB) { return Promise.resolve(0); }
    return window.TorneoQueue.all().then(function (items) {
      return items.filter(function (i) { return i.state === "pending"; }).length;
    }).catch(function () { return 0; });
  }

  // Anything still in the queue, whatever its state (pending, or a conflict awaiting the arbiter).
  function queued() {
    if (!window.TorneoQueue || !window.indexedDB) { return Promise.resolve(false); }
    return window.TorneoQueue.all().then(function (items) { return items.length > 0; })
      .catch(function () { return true; });
  }

  // The server's answer clears the site's storage (Clear-Site-Data) unless results are still kept
  // on this phone: then it clears the HTTP cache only, and the kept pages are emptied here.
  function leave() {
    confirmed = true;
    Promise.all([forgetPages(), queued()]).then(function (done) {
      if (done[1]) {
        const keep = document.createElement("input");
        keep.type = "hidden";
        keep.name = "keep_queued";
        keep.value = "1";
        form.appendChild(keep);
      }
      form.submit();
    });
  }

  function ask(count) {
    const text = dialog.querySelector("[data-logout-count]");
    text.textContent = count === 1 ? dialog.dataset.one : dialog.dataset.many.replace("{n}", count);
    dialog.dataset.pending = String(count);
    dialog.hidden = false;
    dialog.querySelector("[data-logout-choice=send]").focus();
  }

  form.addEventListener("submit", function (event) {
    if (confirmed) { return; }
    event.preventDefault();
    pending().then(function (count) {
      if (count === 0 || !dialog) { leave(); } else { ask(count); }
    });
  });

  if (!dialog) { return; }
  dialog.addEventListener("click", function (event) {
    const button = event.target.closest("[data-logout-choice]");
    if (!button) { return; }
    const choice = button.dataset.logoutChoice;
    if (choice === "cancel") { dialog.hidden = true; return; }
    if (choice === "anyway") { leave(); return; }
    // Send them first: the queue is sent; once nothing waits, the logout goes on.
    button.disabled = true;
    window.TorneoQueue.flush().then(pending).then(function (count) {
      button.disabled = false;
      if (count === 0) { leave(); } else { ask(count); }
    });
  });
})();
