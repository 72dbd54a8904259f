// The points-only way of typing (one cell per player, as a Punktetabelle holds them): the
// switch above the grid sets it for every row not typed yet, the button in a row's number
// cell for that row. A row keeps what was typed in the other way.

import { scheduleCheck } from "./check.js";
import { saveDraftSoon } from "./draft.js";
import { buildGrid, ensureTrailingRow } from "./grid.js";
import { typedLines, typedScores } from "./sheet.js";

export function listenToThePointsSwitches(tx) {
  tx.grid.addEventListener("click", (event) => {
    const button = event.target.closest(".tx-mode");
    if (!button) { return; }
    const i = parseInt(button.dataset.row, 10);
    tx.sheet.rows[i].points = !tx.sheet.rows[i].points;
    rebuild(tx, i);
  });

  tx.pointsSwitch.addEventListener("change", () => {
    tx.sheet.points = tx.pointsSwitch.checked;
    tx.sheet.rows.forEach((row) => {
      if (!(row.points ? typedScores(row) : typedLines(row))) { row.points = tx.sheet.points; }
    });
    rebuild(tx, null);
  });
}

// The grid again in the new way; the focus stays on the row's button (i, or null: the switch).
function rebuild(tx, i) {
  ensureTrailingRow(tx);
  buildGrid(tx);
  if (i !== null) {
    const button = tx.grid.querySelector('.tx-mode[data-row="' + i + '"]');
    if (button) { button.focus(); }
  }
  saveDraftSoon(tx);
  scheduleCheck(tx, 0);
  if (i !== null) { tx.editedAt[i] = tx.version; }
}
