/* The public standings and the player's page (tables.room): filter the rows as one types (accents
   and case ignored; without JavaScript the form sends ?q= and the server filters), and "this is me",
   kept on the phone only (localStorage), which highlights the player's row on every visit. */
(function () {
  "use strict";
  var KEY = "torneo-me";

  function fold(text) {
    return String(text || "").normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase();
  }

  function mine() {
    try { return JSON.parse(localStorage.getItem(KEY) || "{}") || {}; } catch (e) { return {}; }
  }

  function setMine(tournament, reg) {
    var all = mine();
    if (reg) all[tournament] = reg; else delete all[tournament];
    try { localStorage.setItem(KEY, JSON.stringify(all)); } catch (e) { /* private mode: nothing kept */ }
  }

  function findForm() { return document.querySelector("[data-find-me]"); }

  function filterRows() {
    var form = findForm();
    if (!form) return;
    var input = form.querySelector("[data-find-me-input]");
    var words = fold(input.value).split(/\s+/).filter(Boolean);
    var shown = 0, rows = document.querySelectorAll("#standings tr[data-reg]");
    rows.forEach(function (row) {
      var text = fold(row.textContent);
      var match = words.every(function (w) { return text.indexOf(w) !== -1; });
      row.hidden = !match;
      if (match) shown += 1;
    });
    var none = form.querySelector("[data-find-me-none]");
    if (none) none.hidden = !(words.length && rows.length && shown === 0);
  }

  function highlight() {
    var form = findForm();
    if (!form) return;
    var reg = mine()[form.getAttribute("data-tournament")];
    document.querySelectorAll("#standings tr.is-me").forEach(function (row) {
      row.classList.remove("is-me");
      row.removeAttribute("aria-current");
    });
    if (!reg) return;
    var row = document.querySelector('#standings tr[data-reg="' + String(parseInt(reg, 10)) + '"]');
    if (row) {
      row.classList.add("is-me");
      row.setAttribute("aria-current", "true");
    }
  }

  function standingsPage() {
    var form = findForm();
    if (!form) return;
    var input = form.querySelector("[data-find-me-input]");
    input.addEventListener("input", function () {
      filterRows();
      if (window.history && window.history.replaceState) {
        var url = new URL(window.location.href);
        if (input.value.trim()) url.searchParams.set("q", input.value.trim()); else url.searchParams.delete("q");
        window.history.replaceState(null, "", url);
      }
    });
    // The live table is replaced by htmx every poll: filter and highlight the new rows too.
    document.body.addEventListener("htmx:afterSwap", function () { filterRows(); highlight(); });
    filterRows();
    highlight();
    var me = document.querySelector("#standings tr.is-me");
    if (me && !input.value && me.scrollIntoView) me.scrollIntoView({ block: "center" });
  }

  function playerPage() {
    var button = document.querySelector("[data-me-button]");
    if (!button) return;
    var tournament = button.getAttribute("data-tournament"), reg = button.getAttribute("data-reg");
    function show() {
      var on = mine()[tournament] === reg;
      button.setAttribute("aria-pressed", on ? "true" : "false");
    }
    button.addEventListener("click", function () {
      setMine(tournament, mine()[tournament] === reg ? null : reg);
      show();
    });
    button.hidden = false;
    show();
  }

  function start() { standingsPage(); playerPage(); }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start); else start();
})();
