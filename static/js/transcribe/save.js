// Saving the match: with the answer to exactly what is typed (asked for first if need be),
// and only when the whole match is valid; else every error shows and the first problem gets
// the focus. Once saved, the draft in this browser is dropped and the match page opens.

import { check, show } from "./check.js";
import { focusFirstProblem } from "./errors.js";
import { paintHeader } from "./header.js";
import { paint } from "./paint.js";
import { failure, post, reply, sheetPayload } from "./server.js";
import { paintSummary } from "./summary.js";

export function save(tx) {
  tx.showAll = true;
  if (!tx.answer || tx.answeredAt !== tx.version) {
    tx.wantSave = true;
    check(tx);
    return;
  }
  if (!tx.answer.ready) {
    paint(tx);
    paintHeader(tx);
    paintSummary(tx);
    focusFirstProblem(tx);
    return;
  }
  const button = document.getElementById("tx-save");
  button.disabled = true;
  const label = button.textContent;
  button.textContent = tx.T.saving;
  post(tx, tx.form.dataset.saveUrl, sheetPayload(tx)).then(reply).then((result) => {
    if (result.status === 200 && result.data.url) {
      tx.keepDraft = false;
      window.localStorage.removeItem(tx.storageKey);
      window.location.assign(result.data.url);
      return;
    }
    button.disabled = false;
    button.textContent = label;
    if (result.data.rows) { show(tx, result.data, tx.version); }
    paintSummary(tx, result.data.error || tx.T.failed);
  }).catch((error) => {
    button.disabled = false;
    button.textContent = label;
    failure(tx, error);
  });
}
