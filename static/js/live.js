/* The live channel (tables.live): opens the tournament's event stream (the address in the first
   data-live-src) and, on each event (a change saved, with the new results version), makes the page
   refresh itself: every htmx element marked data-live gets a "live" trigger (its hx-trigger names
   it) and the document a "torneo:live" event (the big screen, the arbiter's list). A page asked for
   while its new version was still being rendered may show the version before: it is asked again,
   a few times, until it shows the new one.
   The stream is opened for the page the first data-live element shows (its hx-get, as ?page=): when
   the tournament's snapshot job rendered that page (the public standings' fragment), the channel
   sends it with each version ("page" events, the page gzip-compressed in base64, unpacked here with
   DecompressionStream), swapped in as htmx would swap its answer, with no request at all; a plain
   event still means "ask for it". A browser without DecompressionStream does not ask for the page:
   it gets plain events.
   The channel counts as working while its events, heartbeats included (each names how often it
   comes), keep arriving. A heartbeat also names the results version now: one other than the page's
   (a change whose announcement never came: the worker or Redis down) makes the page refresh itself
   as an event would. While it works, a page's own poll (hx-trigger "every Ns") is let through
   once a minute only (the dispute window closing by the clock changes a page without an event).
   Without it (no EventSource, refused, held back by a buffering proxy, or lost and reconnecting),
   the pages polling by themselves poll as before, and the elements marked data-live-poll (pages with
   no poll of their own) are refreshed every data-live-poll seconds (15). */
(function () {
  "use strict";
  var holder = document.querySelector("[data-live-src]");
  if (!holder) return;
  var src = holder.getAttribute("data-live-src");
  var carrier = document.querySelector("[data-live][hx-get][id]");
  var carrierId = carrier ? carrier.id : null;
  var page = carrier ? carrier.getAttribute("hx-get") : "";
  if (window.DecompressionStream && page.charAt(0) === "/" && page.indexOf("?") < 0) {
    src += (src.indexOf("?") < 0 ? "?" : "&") + "page=" + encodeURIComponent(page);
  }
  var polled = document.querySelector("[data-live-poll]");
  var pollMs = Math.max(1, parseInt(polled && polled.getAttribute("data-live-poll"), 10) || 15) * 1000;
  var source = null, want = null, tries = {}, heard = 0, beatMs = 15000, polledAt = {};
  var RETRIES = 4, RETRY_MS = 400, SAFETY_POLL_MS = 60000;

  function trigger(selector) {
    if (!window.htmx) return;
    document.querySelectorAll(selector).forEach(function (el) { window.htmx.trigger(el, "live"); });
  }

  function changed(detail) {
    document.dispatchEvent(new CustomEvent("torneo:live", { detail: detail }));
  }

  function open() { return source !== null && source.readyState === 1; }

  // Open, and heard from within two heartbeats.
  function alive() { return open() && Date.now() - heard < 2 * beatMs + 5000; }

  function read(event) {
    try { return JSON.parse(event.data) || {}; } catch (e) { return {}; }
  }

  function announced(data, event) {
    want = data.version || (event.lastEventId || "").split("@")[0] || null;
    tries = {};
    changed({ version: want, what: data.what || "" });
  }

  function unpack(packed) {
    var bytes = Uint8Array.from(atob(packed), function (c) { return c.charCodeAt(0); });
    return new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"))).text();
  }

  // The page itself, as the element's own request would have brought it; the pages unpacked in the
  // order they came, a page overtaken meanwhile not swapped in.
  var unpacking = Promise.resolve(), latest = 0;
  function swapIn(data) {
    var el = carrierId && document.getElementById(carrierId);
    if (!el || !window.htmx || typeof data.gzip !== "string") return false;
    var mine = ++latest;
    unpacking = unpacking.then(function () { return unpack(data.gzip); }).then(function (html) {
      var now = document.getElementById(carrierId);
      if (mine !== latest || !now) return;
      var select = now.getAttribute("hx-select");
      window.htmx.swap(now, html, { swapStyle: (now.getAttribute("hx-swap") || "innerHTML").split(" ")[0] },
                       select ? { select: select } : {});
    }).catch(function () {
      if (mine === latest) trigger("#" + carrierId);  // not unpacked: asked for, as a plain event would
    });
    return true;
  }

  if (window.EventSource) {
    try {
      source = new EventSource(src);
    } catch (e) {
      source = null;
    }
  }
  if (source) {
    var opened = false;
    source.addEventListener("open", function () { opened = true; });
    source.addEventListener("error", function () {
      if (!opened) { source.close(); source = null; }  // no channel here: the polls carry on
    });
    var known = null;  // the version the page shows, as the channel last named it
    source.addEventListener("beat", function (event) {
      heard = Date.now();
      var data = read(event);
      var every = parseFloat(data.every);
      if (every > 0) beatMs = every * 1000;
      if (!data.version) return;
      if (known !== null && data.version !== known && data.version !== want) {
        announced({ version: data.version, what: "" }, event);
        trigger("[data-live]");
      }
      known = data.version;
    });
    source.addEventListener("message", function (event) {
      heard = Date.now();
      announced(read(event), event);
      trigger("[data-live]");
    });
    source.addEventListener("page", function (event) {
      heard = Date.now();
      var data = read(event);
      announced(data, event);
      if (swapIn(data)) {
        trigger("[data-live]:not(#" + carrierId + ")");
      } else {
        trigger("[data-live]");
      }
    });
  }

  if (polled) {
    setInterval(function () {
      if (alive()) return;
      changed({ version: null, what: "" });
      trigger("[data-live][data-live-poll]");
    }, pollMs);
  }

  // A page's own poll while the channel works: once a minute only.
  document.addEventListener("htmx:confirm", function (event) {
    var el = event.detail && event.detail.elt, cause = event.detail && event.detail.triggeringEvent;
    if (!el || !el.hasAttribute || !el.hasAttribute("data-live") || (cause && cause.type === "live")) return;
    var key = el.id || "";
    if (alive() && Date.now() - (polledAt[key] || 0) < SAFETY_POLL_MS) {
      event.preventDefault();
      return;
    }
    polledAt[key] = Date.now();
  });

  // The page came back older than the version announced: ask again shortly.
  document.addEventListener("htmx:afterRequest", function (event) {
    var el = event.detail && event.detail.elt;
    if (!want || !el || !el.hasAttribute || !el.hasAttribute("data-live")) return;
    var got = event.detail.xhr && event.detail.xhr.getResponseHeader("X-Results-Version");
    var key = el.id || "";
    if (!got || got === want || (tries[key] || 0) >= RETRIES) return;
    tries[key] = (tries[key] || 0) + 1;
    setTimeout(function () {
      var now = key ? document.getElementById(key) : el;
      if (now && window.htmx) window.htmx.trigger(now, "live");
    }, RETRY_MS);
  });

  window.TorneoLive = { open: open, alive: alive, version: function () { return want; } };
})();
