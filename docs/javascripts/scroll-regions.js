// A wide table scrolls sideways on a phone: its scrolling box (which the theme adds around each table once
// the page is shown) takes the keyboard's focus and is named, so that it can be scrolled without a mouse
// (WCAG 2.1.1; axe scrollable-region-focusable).
function markScrollRegions() {
  document.querySelectorAll(".md-typeset__scrollwrap:not([tabindex])").forEach(function (box) {
    box.setAttribute("tabindex", "0");
    box.setAttribute("role", "region");
    box.setAttribute("aria-label", "Tabella");
  });
}
if (window.document$) {
  window.document$.subscribe(function () { setTimeout(markScrollRegions, 0); });
} else {
  window.addEventListener("load", markScrollRegions);
}
