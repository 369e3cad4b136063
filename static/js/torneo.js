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
