// Small behaviours that need script; no inline handlers (the Content Security Policy forbids them).
document.addEventListener("click", function (event) {
  const button = event.target.closest("[data-confirm]");
  if (button && !window.confirm(button.dataset.confirm)) {
    event.preventDefault();
  }
});

// Table-points calculator: ticking objective territories fills the player's table points.
function updateCalculator(box) {
  let sum = 0;
  box.querySelectorAll("input[type=checkbox]:checked").forEach(function (cb) {
    sum += Number(cb.dataset.value || 0);
  });
  const target = document.getElementById(box.dataset.target);
  const ticked = box.querySelectorAll("input[type=checkbox]:checked").length;
  if (target && ticked) {
    target.value = String(sum);
  }
  const label = box.querySelector(".calc-sum");
  if (label) {
    label.textContent = ticked ? "= " + sum : "";
  }
}
document.addEventListener("change", function (event) {
  const box = event.target.closest(".territories");
  if (box) {
    updateCalculator(box);
  }
});

// "Select all": ticks or unticks every checkbox named data-select-all in the same form.
document.addEventListener("change", function (event) {
  const all = event.target.closest("[data-select-all]");
  if (!all) {
    return;
  }
  all.form.querySelectorAll('input[type=checkbox][name="' + all.dataset.selectAll + '"]').forEach(function (cb) {
    cb.checked = all.checked;
  });
});

// Result form: Enter ("next" on a phone keypad) goes to the next player's table points; on the last
// one it saves, so a table is typed without reaching for the other fields.
document.addEventListener("keydown", function (event) {
  const input = event.target.closest(".tp-input");
  if (!input || event.key !== "Enter") {
    return;
  }
  event.preventDefault();
  const all = Array.from(input.form.querySelectorAll(".tp-input"));
  const next = all[all.indexOf(input) + 1];
  if (next) {
    next.focus();
    next.select();
  } else {
    input.form.requestSubmit();
  }
});
document.addEventListener("DOMContentLoaded", function () {
  const all = document.querySelectorAll(".tp-input");
  all.forEach(function (input, i) {
    input.enterKeyHint = i === all.length - 1 ? "done" : "next";
  });
});

// Fields shown only when another field of the form has one of some values (data-show-when names
// the field, data-show-values the values; a ticked checkbox is "on"): e.g. the fixed plan only for
// the fixed-plan method, a formula's own settings only for that formula.
function showWhen(form) {
  form.querySelectorAll("[data-show-when]").forEach(function (box) {
    const control = form.elements[box.dataset.showWhen];
    if (!control) { return; }
    const value = control.type === "checkbox" ? (control.checked ? "on" : "") : control.value;
    const shown = box.dataset.showValues.split(" ").indexOf(value) !== -1;
    box.hidden = !shown && !box.classList.contains("has-error");
  });
}
document.addEventListener("change", function (event) {
  if (event.target.form && event.target.form.querySelector("[data-show-when]")) { showWhen(event.target.form); }
});
document.addEventListener("DOMContentLoaded", function () {
  document.querySelectorAll("form").forEach(function (form) {
    if (form.querySelector("[data-show-when]")) { showWhen(form); }
  });
});

// Result form saved without network: the server cannot ask, so the phone asks first what the server
// would (everybody at 0, players level with no place) and sends the answer with the queued save.
function resultQuestions(form) {
  const rows = Array.from(form.querySelectorAll(".result-player")).map(function (box) {
    const value = function (suffix) {
      const input = box.querySelector("[name$='-" + suffix + "']");
      return input ? input.value.trim() : "";
    };
    const risiko = box.querySelector("input[type=checkbox][name$='-risiko']");
    return { tp: value("table_points").replace(",", "."), eliminated: value("eliminated"), place: value("place"),
      armies: value("armies"), risiko: !!(risiko && risiko.checked),
      territories: box.querySelectorAll(".territories input:checked").length };
  });
  const asked = [];
  if (rows.length && rows.every(function (r) { return r.tp !== "" && Number(r.tp) === 0 && !r.risiko && !r.territories; })) {
    asked.push(form.dataset.askZero);
  }
  const level = {};
  rows.forEach(function (r) {
    if (r.tp !== "" && Number(r.tp) > 0 && r.eliminated === "" && !r.risiko) {
      (level[Number(r.tp)] = level[Number(r.tp)] || []).push(r);
    }
  });
  Object.keys(level).forEach(function (points) {
    const tied = level[points];
    if (tied.length > 1 && tied.some(function (r) { return r.place === ""; }) &&
        tied.some(function (r) { return r.armies === ""; })) { asked.push(form.dataset.askTie); }
  });
  return asked.filter(function (q, i) { return asked.indexOf(q) === i; });
}
document.addEventListener("submit", function (event) {
  const form = event.target.closest("form.result-form");
  if (!form || navigator.onLine || form.querySelector("input[name=confirmed]")) { return; }
  const asked = resultQuestions(form);
  if (!asked.length) { return; }
  if (window.confirm(asked.join(" ") + " " + form.dataset.askSave)) {
    const answer = document.createElement("input");
    answer.type = "hidden";
    answer.name = "confirmed";
    answer.value = "1";
    form.appendChild(answer);
  } else {
    event.preventDefault();
    event.stopImmediatePropagation();
  }
}, true);

// A select marked data-auto-submit sends its form when chosen (its button stays for no script).
document.addEventListener("change", function (event) {
  const select = event.target.closest("select[data-auto-submit]");
  if (select && select.value) { select.form.requestSubmit(); }
});

// After a refused save the cursor is on the field in error (autofocus): its content is selected, so
// that typing the right figure replaces the wrong one.
document.addEventListener("DOMContentLoaded", function () {
  const field = document.querySelector("input[aria-invalid=true][autofocus]");
  if (field && typeof field.select === "function") {
    field.focus();
    field.select();
  }
});
