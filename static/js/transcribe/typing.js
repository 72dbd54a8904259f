// Typing, by keyboard: every cell typed is kept, checked and saved as a draft; Enter goes on
// to the next row, the arrows up and down to the same cell of the row above or below; a row's
// errors wait until the row is complete or the cell is left. Enter in the head goes on to the
// grid's first open row.

import { firstOpenRow } from "./answer.js";
import { scheduleCheck } from "./check.js";
import { input } from "./dom.js";
import { saveDraftSoon } from "./draft.js";
import { ensureTrailingRow } from "./grid.js";
import { paintHeader } from "./header.js";
import { paintRow } from "./paint.js";
import { setCellValue } from "./sheet.js";

// The row of a grid cell (its input), or null for anything else in the grid (a row's button).
function rowOf(node) {
  return node.dataset && node.dataset.cell ? parseInt(node.dataset.row, 10) : null;
}

export function listenToTheGrid(tx) {
  const grid = tx.grid;
  grid.addEventListener("input", (event) => {
    const node = event.target;
    const i = rowOf(node);
    if (i === null) { return; }
    setCellValue(tx.sheet.rows[i], node.dataset.cell, node.value);
    ensureTrailingRow(tx);
    saveDraftSoon(tx);
    scheduleCheck(tx);
    tx.editedAt[i] = tx.version;
  });

  grid.addEventListener("keydown", (event) => {
    const node = event.target;
    const i = rowOf(node);
    if (i === null || event.altKey || event.ctrlKey || event.metaKey) { return; }
    if (event.key === "Enter") {
      event.preventDefault();
      ensureTrailingRow(tx);
      scheduleCheck(tx, 0);
      const next = nextRowStart(tx, i);
      if (next) { next.focus(); }
    } else if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      const j = i + (event.key === "ArrowDown" ? 1 : -1);
      let target = input(tx, j, node.dataset.cell);
      if (!target || target.disabled) { target = input(tx, j, "entry"); }  // the other way of typing, or off
      if (target) {
        event.preventDefault();
        target.focus();
      }
    }
  });
}

// Enter goes on to the next row's trump cell; from a points row typed without a trump,
// to the next row's first points cell (a Punktetabelle rarely names the trump).
function nextRowStart(tx, i) {
  const row = tx.sheet.rows[i];
  const next = tx.sheet.rows[i + 1];
  if (next && next.points && row.points && !row.entry.trim()) {
    const first = tx.grid.querySelector('tbody[data-row="' + (i + 1) + '"] input.tx-in--score:not([disabled])');
    if (first) { return first; }
  }
  return input(tx, i + 1, "entry");
}

// The row with the focus shows its errors only as they are due (./errors.js); the row left
// shows them all.
export function followTheFocus(tx) {
  const grid = tx.grid;
  grid.addEventListener("focusin", (event) => {
    const node = event.target;
    const i = rowOf(node);
    if (i === null) { return; }
    const previous = tx.focusRow;
    tx.focusRow = i;
    tx.focusCell = node.dataset.cell;
    if (node.select && node.value) { node.select(); }
    if (previous !== i && previous >= 0 && previous < tx.sheet.rows.length) { paintRow(tx, previous); }
    paintRow(tx, i);
  });

  grid.addEventListener("focusout", (event) => {
    const node = event.target;
    if (rowOf(node) === null) { return; }
    tx.left[node.dataset.row + ":" + node.dataset.cell] = true;
    window.setTimeout(() => {
      if (!grid.contains(document.activeElement)) {
        const previous = tx.focusRow;
        tx.focusRow = -1;
        tx.focusCell = "";
        if (previous >= 0) { paintRow(tx, previous); }
      }
    }, 0);
  });
}

export function listenToTheHeader(tx) {
  const header = tx.header;
  header.addEventListener("input", () => { saveDraftSoon(tx); scheduleCheck(tx); });
  header.addEventListener("change", () => { saveDraftSoon(tx); scheduleCheck(tx); });
  header.addEventListener("focusout", (event) => {
    if (event.target.name) { tx.headerLeft[event.target.name] = true; }
    if (tx.answer) { paintHeader(tx); }
  });
  header.addEventListener("keydown", (event) => {
    if (event.key !== "Enter" || event.target.tagName !== "INPUT") { return; }
    if (event.ctrlKey || event.metaKey) { return; }
    event.preventDefault();
    tx.headerLeft[event.target.name] = true;
    // On to the grid: its first open row, once the answer has built it.
    tx.pendingFocus = firstOpenRow(tx) < 0 ? 0 : firstOpenRow(tx);
    scheduleCheck(tx, 0);
  });
}
