/* Live updates that morph a region in place (idiomorph, static/vendor/idiomorph-ext.min.js, through
   htmx's "morph" extension: hx-ext="morph" hx-swap="morph:outerHTML") never take away what someone is
   typing: the field with the focus keeps its value (and the focus), and so does a field changed and
   not yet sent (its value differs from the one the page came with). */
(function () {
  "use strict";
  if (!window.Idiomorph) return;
  var defaults = window.Idiomorph.defaults;
  defaults.ignoreActiveValue = true;
  defaults.callbacks.beforeAttributeUpdated = function (attribute, element) {
    var field = element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement;
    if (attribute === "value" && field && element.value !== element.defaultValue) return false;
    return true;
  };
})();
