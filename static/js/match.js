// Small helpers for the match pages. The pages work without this file; it only makes
// them quicker to use at the table. No inline script: the site runs under a strict CSP.
(function () {
  "use strict";
  document.documentElement.classList.add("js");

  // The answer to a save is the match page itself, sent in place of a redirect to it (one round
  // trip less on the phone's network: protocol/views/matches.py, match_page). The browser shows
  // it at the address of the form that was sent; it takes its own (its canonical link) before
  // the offline scripts run, so that a reload asks for the match page, not the form again.
  var canonical = document.querySelector("link[rel=canonical]");
  if (canonical && window.history.replaceState) {
    var address = new URL(canonical.href, window.location.href);
    if (address.origin === window.location.origin && address.pathname !== window.location.pathname) {
      window.history.replaceState(window.history.state, "", address.pathname + window.location.hash);
    }
  }

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
      var cardField = card && (card.closest(".inversion-row__card") || card);
      if (target && cardField) { cardField.hidden = target.value !== "card"; }
    });
  }

  // The lines, or in "points only" the points inputs: those shown (site.css hides the other mode's).
  function focusFirstEmptyLine(form) {
    var inputs = form.querySelectorAll(".lines__cell input, .points-row input");
    for (var i = 0; i < inputs.length; i++) {
      if (inputs[i].value === "" && inputs[i].getClientRects().length) { inputs[i].focus(); return; }
    }
  }

  // New match: show only the parts (settings, hints) of the game chosen. Without this file
  // every part shows, and the server ignores the settings of the games not chosen.
  function showRulesetParts(form) {
    var checked = form.querySelector("input[name=ruleset]:checked");
    checked = checked || form.querySelector("input[name=ruleset]");  // the first game is the default
    var ruleset = checked ? checked.value : "";
    document.querySelectorAll("[data-ruleset]").forEach(function (el) {
      el.hidden = el.getAttribute("data-ruleset").split(" ").indexOf(ruleset) < 0;
    });
    // A season of another game is hidden with its option; it is not chosen either.
    form.querySelectorAll("option[data-ruleset]").forEach(function (option) {
      if (option.hidden && option.selected) { option.parentNode.value = ""; }
    });
    // Only as many seats as the game has players; a seat already chosen stays in view.
    var most = checked ? parseInt(checked.getAttribute("data-max-players"), 10) : 0;
    form.querySelectorAll(".seat-grid > .field").forEach(function (seat, i) {
      var select = seat.querySelector("select");
      seat.hidden = most > 0 && i >= most && !(select && select.value);
    });
  }

  // The newest Spiel is what the table wants to see: keep the sheet scrolled to the end.
  function showNewestRows() {
    document.querySelectorAll(".sheet-wrap").forEach(function (wrap) { wrap.scrollTop = wrap.scrollHeight; });
  }
  // Other devices at the table fetch the match's state every few seconds; an unchanged state
  // is not swapped in, so a sheet scrolled back or a reader's place stays where it is.
  var lastState = null;
  document.addEventListener("htmx:beforeSwap", function (event) {
    if (event.detail.target.id !== "match-state") { return; }
    var text = event.detail.xhr.responseText;
    if (text === lastState) { event.detail.shouldSwap = false; }
    lastState = text;
  });
  document.addEventListener("htmx:afterSwap", function (event) {
    if (event.target.id === "match-state") { showNewestRows(); }
  });

  // The live preview fills each field's error slot (id "err-<name>"); the inputs of that
  // name are then marked (aria-invalid, the colour) and described by their message, as
  // on a page the server rendered with the errors. An input of a group (data-group: a column
  // of the lines, the special points, the poignées) is marked by its group's slot too: an
  // error of a sum names the whole column (protocol/entry_form/<game>.py, groups).
  function markInvalidFields(form) {
    form.querySelectorAll("[name]").forEach(function (input) {
      var names = [input.name].concat((input.getAttribute("data-group") || "").split(" "));
      var slots = names.filter(Boolean).map(function (name) { return document.getElementById("err-" + name); })
        .filter(function (slot) { return slot && slot.classList.contains("field-errors"); });
      if (!slots.length) { return; }
      var mine = slots.map(function (slot) { return slot.id; });
      var ids = (input.getAttribute("aria-describedby") || "").split(" ").filter(function (id) {
        return id && mine.indexOf(id) < 0;
      });
      var bad = slots.filter(function (slot) { return slot.textContent.trim() !== ""; });
      if (bad.length) {
        input.setAttribute("aria-invalid", "true");
        bad.forEach(function (slot) { ids.push(slot.id); });
      } else {
        input.removeAttribute("aria-invalid");
      }
      if (ids.length) { input.setAttribute("aria-describedby", ids.join(" ")); } else { input.removeAttribute("aria-describedby"); }
    });
  }
  // The offline page (js/offline/entry.js) fills the same slots from the engine in the browser:
  // whenever a slot's text changes, the marks follow it.
  function followSlots(form) {
    if (!window.MutationObserver) { return; }
    var pending = false;
    new MutationObserver(function (records) {
      var inSlot = records.some(function (record) {
        var node = record.target.nodeType === 1 ? record.target : record.target.parentElement;
        return node && node.closest(".field-errors");
      });
      if (!inSlot || pending) { return; }
      pending = true;
      window.queueMicrotask(function () { pending = false; markInvalidFields(form); });
    }).observe(form, { childList: true, subtree: true, characterData: true });
  }
  document.addEventListener("htmx:afterSettle", function () {
    document.querySelectorAll("form.game-form").forEach(markInvalidFields);
  });

  document.addEventListener("DOMContentLoaded", function () {
    openTarget();
    showNewestRows();
    document.querySelectorAll("form.game-form").forEach(function (form) {
      followSlots(form);
      showTrumpMode(form);
      revealInversionRows(form);
      // The finger on "Spiel speichern" leaves the last field, whose change would ask for a
      // preview the save makes needless (the next page shows the scores): none is asked until
      // something is typed again (the tap may end outside the button, without a save).
      form.addEventListener("pointerdown", function (event) {
        if (event.target.closest("button[type=submit]")) { form.dataset.saving = "true"; }
      });
      form.addEventListener("input", function () { delete form.dataset.saving; });
      form.addEventListener("htmx:beforeRequest", function (event) {
        if (form.dataset.saving) { event.preventDefault(); }
      });
      form.addEventListener("change", function (event) {
        showTrumpMode(form);
        revealInversionRows(form);
        // A trump button tapped: the next field is the first player's line (no tap to get there).
        if (event.target.name === "trump" && event.target.type === "radio") { focusFirstEmptyLine(form); }
        // "Points only" switched on: the first player's points are next.
        if (event.target.name === "points_only" && event.target.checked) { focusFirstEmptyLine(form); }
      });
    });
    // After a save the match page puts the focus on "Enter game N+1": the next field of the evening.
    var saved = document.querySelector(".message--success");
    var next = document.querySelector("[data-next-entry]");
    if (saved && next) { next.focus({ preventScroll: true }); }
    document.querySelectorAll("form.new-match").forEach(function (form) {
      showRulesetParts(form);
      form.addEventListener("change", function () { showRulesetParts(form); });
    });
    // One tap saves once: the server refuses a second submit of the same form anyway.
    document.querySelectorAll("button[data-once]").forEach(function (button) {
      button.form.addEventListener("submit", function () {
        window.setTimeout(function () { button.disabled = true; }, 0);
      });
    });
  });
})();
