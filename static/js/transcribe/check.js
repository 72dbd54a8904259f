// The engine's check of what is typed: every edit raises the sheet's version and asks the
// check endpoint again shortly after (the last request still under way is dropped); its
// answer is painted unless a newer one was asked for. The version asked and answered stand
// in form.dataset (version, checked) for the browser tests to wait on.
//
// The answer may start the save that waited for it: ``tx.saveWaiting`` (set by the entry
// module), so that this module does not import the save, which imports it.

import { input } from "./dom.js";
import { buildGrid } from "./grid.js";
import { paintHeader } from "./header.js";
import { paint } from "./paint.js";
import { failure, post, reply, sheetPayload } from "./server.js";
import { paintSummary } from "./summary.js";

const CHECK_DELAY = 250;  // ms after the last key: one request per pause in typing, not per key

export function scheduleCheck(tx, delay) {
  tx.version++;
  tx.form.dataset.version = String(tx.version);
  window.clearTimeout(tx.timer);
  tx.timer = window.setTimeout(() => { check(tx); }, delay === undefined ? CHECK_DELAY : delay);
}

export function check(tx) {
  const form = tx.form;
  window.clearTimeout(tx.timer);
  const asked = tx.version;
  if (tx.inflight) { tx.inflight.abort(); }
  const controller = window.AbortController ? new AbortController() : null;
  tx.inflight = controller;
  form.classList.add("is-checking");
  post(tx, form.dataset.checkUrl, sheetPayload(tx), controller ? controller.signal : undefined).then(reply).then((result) => {
    tx.inflight = null;
    form.classList.remove("is-checking");
    if (result.status !== 200) { paintSummary(tx, result.data.error || tx.T.failed); return; }
    show(tx, result.data, asked);
  }).catch((error) => {
    if (error && error.name === "AbortError") { return; }
    tx.inflight = null;
    form.classList.remove("is-checking");
    failure(tx, error);
  });
}

// Paint an answer. Rows typed into since it was asked show no errors until the next one.
export function show(tx, data, asked) {
  tx.answer = data;
  tx.answeredAt = asked;
  tx.form.dataset.checked = String(asked);
  const seating = data.header.players;
  if (seating.join("\n") !== tx.players.join("\n")) {
    tx.players = seating.slice();
    buildGrid(tx);
  } else {
    paint(tx);
  }
  paintHeader(tx);
  paintSummary(tx);
  tx.form.classList.toggle("is-ready", Boolean(data.ready) && asked === tx.version);
  if (tx.pendingFocus !== null && tx.players.length) {
    const target = input(tx, Math.min(tx.pendingFocus, tx.sheet.rows.length - 1), "entry");
    tx.pendingFocus = null;
    if (target) { target.focus(); }
  }
  if (tx.wantSave && asked === tx.version) {
    tx.wantSave = false;
    tx.saveWaiting();
  }
}
