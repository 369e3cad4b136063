// Round clock: counts down to data-deadline (milliseconds since the epoch), corrected by the
// server's clock (data-now); when time is up it tells the page ("clock-expired" on body) so that
// htmx loads the end roll of every table. No inline script: the Content Security Policy forbids it.
(function () {
  "use strict";

  function pad(n) {
    return String(n).padStart(2, "0");
  }

  // Minutes and seconds, like a chess clock: 90:00, 05:09.
  function format(seconds) {
    return pad(Math.floor(seconds / 60)) + ":" + pad(seconds % 60);
  }

  function tick() {
    document.querySelectorAll(".round-clock[data-deadline]").forEach(function (clock) {
      var deadline = Number(clock.dataset.deadline);
      if (!deadline) {
        return;
      }
      if (clock.dataset.offset === undefined) {
        clock.dataset.offset = String(Number(clock.dataset.now || Date.now()) - Date.now());
      }
      var left = Math.max(0, Math.ceil((deadline - (Date.now() + Number(clock.dataset.offset))) / 1000));
      var time = clock.querySelector(".clock-time");
      if (left > 0) {
        time.textContent = format(left);
      } else if (!clock.classList.contains("is-expired")) {
        clock.classList.add("is-expired");
        time.textContent = clock.dataset.expiredText || "00:00";
        document.body.dispatchEvent(new CustomEvent("clock-expired"));
      }
    });
  }

  tick();
  window.setInterval(tick, 1000);
})();
