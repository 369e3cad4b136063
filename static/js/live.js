/* The live channel (tables.live): opens the tournament's event stream (the address in the first
   data-live-src) and, on each event (a change saved, with the new results version), makes the page
   refresh itself: every htmx element marked data-live gets a "live" trigger (its hx-trigger names
   it) and the document a "torneo:live" event (the big screen, the arbiter's list). A page asked for
   while its new version was still being rendered may show the version before: it is asked again,
   a few times, until it shows the new one.
   Without the channel (no EventSource, refused, or lost and reconnecting), the elements marked
   data-live-poll (pages with no poll of their own) are refreshed every data-live-poll seconds (15);
   the pages polling by themselves keep polling. */
(function () {
  "use strict";
  var holder = document.querySelector("[data-live-src]");
  if (!holder) return;
  var src = holder.getAttribute("data-live-src");
  var polled = document.querySelector("[data-live-poll]");
  var pollMs = Math.max(1, parseInt(polled && polled.getAttribute("data-live-poll"), 10) || 15) * 1000;
  var source = null, want = null, tries = {};
  var RETRIES = 4, RETRY_MS = 400;

  function trigger(selector) {
    if (!window.htmx) return;
    document.querySelectorAll(selector).forEach(function (el) { window.htmx.trigger(el, "live"); });
  }

  function changed(detail) {
    document.dispatchEvent(new CustomEvent("torneo:live", { detail: detail }));
  }

  function open() { return source !== null && source.readyState === 1; }

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
    source.addEventListener("message", function (event) {
      var data = {};
      try { data = JSON.parse(event.data); } catch (e) { data = {}; }
      want = data.version || event.lastEventId || null;
      tries = {};
      changed({ version: want, what: data.what || "" });
      trigger("[data-live]");
    });
  }

  if (polled) {
    setInterval(function () {
      if (open()) return;
      changed({ version: null, what: "" });
      trigger("[data-live][data-live-poll]");
    }, pollMs);
  }

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

  window.TorneoLive = { open: open, version: function () { return want; } };
})();
