/* The big screen (tables.room): asks the server at most once per poll interval whether anything
   changed (If-None-Match: 304 when nothing did), keeps the last data when the network drops and
   retries, and turns by itself through the panels the organiser chose, page by page; a new result
   brings the latest results on screen at once, then the turn goes on. */
(function () {
  "use strict";
  var body = document.body;
  if (!body || !body.hasAttribute("data-screen")) return;
  var src = body.getAttribute("data-src");
  var pollMs = Math.max(1, parseInt(body.getAttribute("data-poll"), 10) || 15) * 1000;
  var main = document.querySelector("[data-panel]");
  var title = document.querySelector("[data-panel-title]");
  var offline = document.querySelector("[data-offline]");
  var counting = document.querySelector("[data-counting]");
  var t = function (key) { return body.getAttribute("data-t-" + key) || key; };
  var data = null, etag = null, pages = [], index = -1, turnTimer = null, clockTimer = null, offset = 0;

  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }

  function now() { return Date.now() + offset; }

  function clockRunning() { return data && data.clock && data.clock.deadline > now(); }

  // The panels' lines are set smaller than the headings (28 px at least, see screen.css): the rows
  // a page holds are measured on a probe line of that size.
  function lineHeight() {
    var probe = main.appendChild(el("div", "screen-probe", "Ag"));
    var height = probe.getBoundingClientRect().height;
    main.removeChild(probe);
    return Math.ceil(height) + 2 || 42;
  }

  function metrics(besideClock) {
    var height = main.clientHeight || (window.innerHeight * 0.8);
    var rows = Math.max(3, Math.floor(height / lineHeight()) - 1);   // one line for the columns' heads
    var wide = window.innerWidth >= 1600;
    return { rows: rows, cols: wide ? 3 : (window.innerWidth >= 1000 ? (besideClock ? 2 : 3) : 2),
             standingsCols: wide ? 3 : 1 };
  }

  function chunk(list, size) {
    var out = [];
    for (var i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
    return out.length ? out : [[]];
  }

  // "A – D": the first letters of the first and the last surname of a part of the seating
  function letters(rows) {
    if (!rows.length) return "";
    var first = function (r) { return (r.letter || r.name.charAt(0)).toUpperCase(); };
    var a = first(rows[0]), b = first(rows[rows.length - 1]);
    return a === b ? a : a + " – " + b;
  }

  function buildPages() {
    var out = [];
    if (!data) return out;
    var panels = data.panels || [];
    // the clock beside the seating rather than a page of its own: one page less in every turn
    var besideClock = clockRunning() && panels.indexOf("seating") !== -1 && data.seating.length > 0;
    var m = metrics(besideClock);
    panels.forEach(function (panel) {
      var parts;
      if (panel === "clock") {
        if (clockRunning() && !besideClock) out.push({ panel: "clock" });
      } else if (panel === "seating") {
        if (!data.seating.length) return;
        parts = chunk(data.seating, m.rows * m.cols);
        parts.forEach(function (rows, i) {
          out.push({ panel: "seating", rows: rows, page: i + 1, of: parts.length, cols: m.cols, perCol: m.rows,
                     clock: besideClock, letters: letters(rows) });
        });
      } else if (panel === "results") {
        if (data.results.length) out.push({ panel: "results", tables: data.results });
      } else if (panel === "standings") {
        if (!data.standings.length) return;
        parts = chunk(data.standings, m.rows * m.standingsCols);
        parts.forEach(function (rows, i) {
          out.push({ panel: "standings", rows: rows, page: i + 1, of: parts.length, cols: m.standingsCols, perCol: m.rows });
        });
      }
    });
    return out;
  }

  // A whole turn of the panels within a minute: with many pages each one stays less than the
  // organiser's seconds, never under 8.
  function secondsPerPage() {
    var seconds = data && data.seconds ? data.seconds : 15;
    return pages.length ? Math.min(seconds, Math.max(8, Math.floor(60 / pages.length))) : seconds;
  }

  function heading(page) {
    var words = { clock: t("clock"), seating: t("seating"), results: t("results"), standings: t("standings") }[page.panel];
    if (data.round && page.panel !== "standings") {
      words = (data.round_label || t("round") + " " + data.round) + " · " + words;
    }
    // the one status of the order, in the words every page uses (tables/standings/selectors.py)
    if (page.panel === "standings" && data.state_words) words += " · " + data.state_words;
    else if (page.panel === "standings" && data.provisional) words += " (" + t("provisional") + ")";
    if (page.panel === "seating" && page.letters) words += " · " + page.letters;
    if (page.of > 1) words += " · " + t("page") + " " + page.page + "/" + page.of;
    return words;
  }

  function renderClock(box) {
    var left = Math.max(0, Math.round((data.clock.deadline - now()) / 1000));
    var h = Math.floor(left / 3600), m = Math.floor((left % 3600) / 60), s = left % 60;
    var text = (h ? h + ":" + String(m).padStart(2, "0") : String(m)) + ":" + String(s).padStart(2, "0");
    var time = box.querySelector(".time");
    if (time) { time.textContent = text; return; }
    box.appendChild(el("p", "time", text)).setAttribute("data-clock-time", "");
    box.appendChild(el("p", "label", t("clock")));
  }

  function render(page) {
    clearInterval(clockTimer);
    main.textContent = "";
    // which results make a total (discards, best of N): said under the standings, never left to guess
    counting.textContent = page && page.panel === "standings" && data.counting ? data.counting : "";
    counting.hidden = !counting.textContent;
    body.setAttribute("data-current-panel", page ? page.panel : "none");
    body.setAttribute("data-current-page", page && page.of ? page.page + "/" + page.of : "1/1");
    if (!page) {
      title.textContent = "";
      main.appendChild(el("p", "screen-empty", t("empty")));
      return;
    }
    title.textContent = heading(page);
    if (page.panel === "clock") {
      var box = main.appendChild(el("div", "screen-clock"));
      renderClock(box);
      clockTimer = setInterval(function () { renderClock(box); }, 1000);
    } else if (page.panel === "seating") {
      var wrap = main.appendChild(el("div", "screen-seating" + (page.clock ? " with-clock" : "")));
      var grid = wrap.appendChild(el("div", "screen-cols"));
      grid.style.gridTemplateColumns = "repeat(" + page.cols + ", 1fr)";
      chunk(page.rows, page.perCol).forEach(function (rows) {
        var col = grid.appendChild(el("div", "col"));
        col.setAttribute("data-seating-col", letters(rows));
        var head = col.appendChild(el("div", "cell head"));
        head.appendChild(el("span", "name", letters(rows)));
        head.appendChild(el("span", "tbl", t("table")));
        rows.forEach(function (r) {
          var cell = col.appendChild(el("div", "cell"));
          cell.setAttribute("data-seat", "");
          cell.appendChild(el("span", "name", r.name));
          cell.appendChild(el("span", "tbl", r.table)).setAttribute("aria-label", t("table") + " " + r.table);
        });
      });
      if (page.clock) {
        var side = wrap.appendChild(el("div", "screen-clock screen-clock-side"));
        renderClock(side);
        clockTimer = setInterval(function () { renderClock(side); }, 1000);
      }
    } else if (page.panel === "results") {
      var res = main.appendChild(el("div", "screen-results"));
      page.tables.forEach(function (tbl) {
        var sec = res.appendChild(el("section"));
        sec.setAttribute("data-result", "");
        sec.appendChild(el("h2", null, t("table") + " " + tbl.table));
        var ol = sec.appendChild(el("ol"));
        tbl.players.forEach(function (p) {
          var li = ol.appendChild(el("li"));
          li.appendChild(el("span", null, p.name));
          li.appendChild(el("strong", null, p.points));
        });
      });
    } else if (page.panel === "standings") {
      var wrap = main.appendChild(el("div", "screen-standings screen-standings-" + page.cols));
      chunk(page.rows, page.perCol).forEach(function (rows) {
        var table = wrap.appendChild(el("table", "screen-table"));
        // after a final the rank is the final order's: which table decided it and the qualifying total
        // are two columns, each with its heading, so that a lower total above a higher one reads right
        if (data.final_order) {
          var hr = table.appendChild(el("thead")).appendChild(el("tr"));
          hr.appendChild(el("th", "num", "#"));
          hr.appendChild(el("th", "name", t("player")));
          if (page.cols === 1) hr.appendChild(el("th", "club", t("club")));
          hr.appendChild(el("th", "final", t("final"))).setAttribute("data-col", "final");
          hr.appendChild(el("th", "num", t("qualifying"))).setAttribute("data-col", "qualifying");
        }
        var tb = table.appendChild(el("tbody"));
        rows.forEach(function (r) {
          var tr = tb.appendChild(el("tr"));
          tr.setAttribute("data-standing", "");
          tr.appendChild(el("td", "num", r.rank + "°"));
          tr.appendChild(el("td", "name", r.name));
          if (page.cols === 1) tr.appendChild(el("td", "club", r.club));
          if (data.final_order) tr.appendChild(el("td", "final", r.final)).setAttribute("data-final-place", "");
          var total = tr.appendChild(el("td", "num", r.total));
          if (data.final_order) total.setAttribute("data-qualifying-total", "");
        });
      });
    }
  }

  function turn() {
    clearTimeout(turnTimer);
    pages = buildPages();
    index = pages.length ? (index + 1) % pages.length : -1;
    render(pages[index] || null);
    body.setAttribute("data-turn-seconds", String(secondsPerPage() * pages.length));
    turnTimer = setTimeout(turn, secondsPerPage() * 1000);
  }

  // A new result is shown at once: the screen jumps to the latest results, keeps them up for a
  // page's time, then goes on turning from there.
  function resultsKey(d) { return JSON.stringify(d.results || []); }

  function showResults() {
    var fresh = buildPages();
    var at = -1;
    fresh.forEach(function (page, i) { if (at < 0 && page.panel === "results") at = i; });
    if (at < 0) return;
    clearTimeout(turnTimer);
    pages = fresh;
    index = at;
    render(pages[index]);
    body.setAttribute("data-jumps", String((parseInt(body.getAttribute("data-jumps"), 10) || 0) + 1));
    turnTimer = setTimeout(turn, secondsPerPage() * 1000);
  }

  function showOffline(isOffline) {
    offline.hidden = !isOffline;
    offline.textContent = isOffline ? t("offline") : "";
    body.toggleAttribute("data-offline-now", isOffline);
  }

  // One poll at a time: the next one every poll interval, or at once when the live channel
  // (static/js/live.js) says a change was saved; a poll answered with an older version than the one
  // announced is made again shortly (the new data may still be being rendered).
  var pollTimer = null, polling = false, want = null, tries = 0;
  document.addEventListener("torneo:live", function (event) {
    if (!event.detail || !event.detail.version) return;
    want = event.detail.version;
    tries = 0;
    if (!polling) { clearTimeout(pollTimer); poll(); }
  });

  function poll() {
    polling = true;
    var headers = etag ? { "If-None-Match": etag } : {};
    var next = pollMs;
    fetch(src, { cache: "no-store", credentials: "omit", headers: headers }).then(function (response) {
      var date = response.headers.get("Date");
      if (date && !isNaN(Date.parse(date))) offset = Date.parse(date) - Date.now();
      var version = response.headers.get("X-Results-Version");
      if (want && version && version !== want && tries < 4) { tries += 1; next = 400; }
      if (response.status === 304) return null;
      if (!response.ok) throw new Error("HTTP " + response.status);
      etag = response.headers.get("ETag");
      return response.json();
    }).then(function (fresh) {
      showOffline(false);
      if (fresh) {
        var first = data === null;
        var before = first ? null : resultsKey(data);
        data = fresh;
        if (first) { index = -1; turn(); }
        else if (resultsKey(fresh) !== before) showResults();
      }
    }).catch(function () {
      showOffline(true);  // keep what is on screen; the next poll retries
    }).then(function () {
      polling = false;
      clearTimeout(pollTimer);
      pollTimer = setTimeout(poll, next);
    });
  }

  poll();
})();
