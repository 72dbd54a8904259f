// Where the engine's errors show: a row's errors at their cells (aria-invalid, described by
// the row's list) once the row is complete or its cell has been left, every one after a save
// attempt; and the first problem to put the focus on when the match cannot be saved yet.

import { rowKind } from "./answer.js";
import { el, input } from "./dom.js";

// A row counts as typed out when its trump (or, points only, nothing) and every number cell
// that is not switched off are filled in.
function rowComplete(tx, i) {
  const row = tx.sheet.rows[i];
  if (!row.entry.trim() && !row.points) { return false; }  // a points row may leave the trump out
  if (rowKind(tx, i) !== "game") { return true; }
  const tr = tx.grid.querySelector('tbody[data-row="' + i + '"]');
  return Array.prototype.every.call(tr.querySelectorAll("input.tx-in--num"), (node) => {
    return node.disabled || node.value.trim() !== "";
  });
}

export function paintErrors(tx, i, body, r) {
  const list = body.querySelector(".tx-errors");
  list.textContent = "";
  body.querySelectorAll("input[aria-invalid]").forEach((node) => {
    node.removeAttribute("aria-invalid");
    node.removeAttribute("aria-describedby");
  });
  let shown = 0;
  const complete = rowComplete(tx, i);
  const pending = (tx.editedAt[i] || 0) > tx.answeredAt;  // typed on since the check was asked
  body.classList.toggle("is-pending", pending);
  (r && !pending ? r.errors : []).forEach((error, k) => {
    const here = tx.focusRow === i;
    const visible = tx.showAll || !here || complete ||
      (error.cell && error.cell !== tx.focusCell && tx.left[i + ":" + error.cell]);
    if (!visible) { return; }
    const id = "tx-e-" + i + "-" + k;
    list.appendChild(el("li", { id: id }, error.message));
    shown++;
    const node = error.cell ? input(tx, i, error.cell) : null;
    if (node) {
      node.setAttribute("aria-invalid", "true");
      const ids = (node.getAttribute("aria-describedby") || "").split(" ").filter(Boolean);
      ids.push(id);
      node.setAttribute("aria-describedby", ids.join(" "));
    }
  });
  body.querySelector(".tx-row__notes").hidden = shown === 0;
  body.classList.toggle("has-errors", shown > 0);
}

export function focusFirstProblem(tx) {
  const bad = tx.grid.querySelector("input[aria-invalid=true]") || tx.header.querySelector("[aria-invalid=true]");
  if (bad) { bad.focus(); return; }
  const answer = tx.answer;
  if (answer) {
    for (let i = 0; i < answer.rows.length; i++) {
      if (answer.rows[i].state === "incomplete") {
        const blank = Array.prototype.find.call(tx.grid.querySelectorAll('tbody[data-row="' + i + '"] input:not([disabled])'),
                                              (node) => {
                                                return !node.value.trim() && node.dataset.cell !== "inversions" &&
                                                  !(tx.sheet.rows[i].points && node.dataset.cell === "entry");
                                              });
        (blank || input(tx, i, "entry")).focus();
        return;
      }
    }
  }
}
