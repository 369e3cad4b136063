/* The public standings, the player's page, the tournament's page and a round's tables (tables.room):
   filter the rows as one types (accents and case ignored; without JavaScript the form sends ?q= and
   the server filters), and "this is me", kept on the phone only (localStorage), which highlights the
   player's row and opens the standings on it, and puts "your table" first on the tournament's and
   the round's pages. */
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

  // "This is me" (the player's page, a table found on the round's page): every button of the page,
  // those that htmx brings in later too.
  function showMeButtons() {
    document.querySelectorAll("[data-me-button]").forEach(function (button) {
      var on = mine()[button.getAttribute("data-tournament")] === button.getAttribute("data-reg");
      button.setAttribute("aria-pressed", on ? "true" : "false");
      button.hidden = false;
    });
  }

  function meButtons() {
    document.addEventListener("click", function (event) {
      var button = event.target.closest ? event.target.closest("[data-me-button]") : null;
      if (!button) return;
      var tournament = button.getAttribute("data-tournament"), reg = button.getAttribute("data-reg");
      setMine(tournament, mine()[tournament] === reg ? null : reg);
      showMeButtons();
      yourTable();
    });
    document.body.addEventListener("htmx:afterSwap", showMeButtons);
    showMeButtons();
  }

  // "Your table: Round 2 — Table 7" first on the tournament's and the round's pages, from the
  // player's JSON (the round in play), once this phone knows who its player is.
  function yourTable() {
    var box = document.querySelector("[data-your-table]");
    if (!box) return;
    var reg = mine()[box.getAttribute("data-tournament")];
    if (!reg) { box.hidden = true; return; }
    var url = box.getAttribute("data-player-json").replace(/\/0\.json$/, "/" + parseInt(reg, 10) + ".json");
    fetch(url, { credentials: "omit" }).then(function (r) { return r.ok ? r.json() : null; }).then(function (data) {
      var current = data && data.current_table;
      if (!current) { box.hidden = true; return; }
      var link = box.querySelector("a");
      // the table as the player is told it, with its phase ("Semifinale — Tavolo 2"), when the JSON names it
      var sameLanguage = data.language === document.documentElement.lang;
      link.textContent = current.label && sameLanguage && box.hasAttribute("data-text-label")
        ? box.getAttribute("data-text-label").replace("{label}", current.label)
        : box.getAttribute("data-text").replace("{round}", current.round).replace("{table}", current.table);
      link.href = box.getAttribute("data-round-url").replace(/\/0\/$/, "/" + current.round + "/") + "#table-" + current.table;
      box.setAttribute("data-round", current.round);
      box.setAttribute("data-table", current.table);
      box.hidden = false;
    }).catch(function () { box.hidden = true; });
  }

  function start() { standingsPage(); meButtons(); yourTable(); }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start); else start();
})();
