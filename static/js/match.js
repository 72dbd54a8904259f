// Small helpers for the match pages. The pages work without this file; it only makes
// them quicker to use at the table. No inline script: the site runs under a strict CSP.
(function () {
  "use strict";
  document.documentElement.classList.add("js");

  function openTarget() {
    var id = window.location.hash.slice(1);
    var el = id && document.getElementById(id);
    if (el && el.tagName === "DETAILS") { el.open = true; }
  }
  window.addEventListener("hashchange", openTarget);

  function showTrumpMode(form) {
    var checked = form.querySelector("input[name=trump_mode]:checked");
    var mode = checked ? checked.value : "direct";
    form.classList.toggle("mode-selection", mode === "selection");
    form.classList.toggle("mode-direct", mode !== "selection");
  }

  function revealInversionRows(form) {
    var rows = form.querySelectorAll(".inversion-row");
    for (var i = 1; i < rows.length; i++) {
      var previous = rows[i - 1].querySelector("select");
      if (previous && previous.value) { rows[i].classList.remove("is-spare"); }
    }
    rows.forEach(function (row) {
      var target = row.querySelector("select[name$=_target]");
      var card = row.querySelector("input[name$=_card]");
      if (target && card) { card.hidden = target.value !== "card"; }
    });
  }

  // The newest Spiel is what the table wants to see: keep the sheet scrolled to the end.
  function showNewestRows() {
    document.querySelectorAll(".sheet-wrap").forEach(function (wrap) { wrap.scrollTop = wrap.scrollHeight; });
  }
  document.addEventListener("htmx:afterSwap", function (event) {
    if (event.target.id === "sheet") { showNewestRows(); }
  });

  document.addEventListener("DOMContentLoaded", function () {
    openTarget();
    showNewestRows();
    document.querySelectorAll("form.game-form").forEach(function (form) {
      showTrumpMode(form);
      revealInversionRows(form);
      form.addEventListener("change", function () { showTrumpMode(form); revealInversionRows(form); });
    });
    // One tap saves once: the server refuses a second submit of the same form anyway.
    document.querySelectorAll("button[data-once]").forEach(function (button) {
      button.form.addEventListener("submit", function () {
        window.setTimeout(function () { button.disabled = true; }, 0);
      });
    });
  });
})();
