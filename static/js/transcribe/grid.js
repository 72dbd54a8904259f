// The grid's rows: the table built from what is typed (tx.sheet) for the seating the server
// read (tx.players), one tbody per row, and the empty row kept at the end to type on.

import { el, input } from "./dom.js";
import { paint } from "./paint.js";
import { cellValue, emptyRow, hasContent, numberCells } from "./sheet.js";

export function buildGrid(tx) {
  const T = tx.T;
  const grid = tx.grid;
  const active = document.activeElement;
  const keep = active && active.dataset && active.dataset.cell ? [active.dataset.row, active.dataset.cell] : null;
  grid.textContent = "";
  document.getElementById("tx-grid-empty").hidden = tx.players.length > 0;
  grid.hidden = tx.players.length === 0;
  if (!tx.players.length) { return; }
  const head = el("thead");
  const top = el("tr");
  top.appendChild(el("th", { scope: "col", class: "tx-no" }, T.number));
  top.appendChild(el("th", { scope: "col", class: "tx-entry" }, T.entry));
  tx.players.forEach((name, seat) => {
    const th = el("th", { scope: "col", class: "tx-player" });
    th.appendChild(el("span", { class: "tx-player__name" }, (seat + 1) + " · " + name));
    const sub = el("span", { class: "tx-player__fields", "aria-hidden": "true" });
    if (tx.sheet.points) {
      sub.appendChild(el("span", { class: "tx-player__score" }, T.score));
    } else {
      sub.appendChild(el("abbr", { title: T.tricks }, T.tricks_short));
      sub.appendChild(el("abbr", { title: T.points }, T.points_short));
      sub.appendChild(el("abbr", { title: T.trumps }, T.trumps_short));
    }
    th.appendChild(sub);
    top.appendChild(th);
  });
  top.appendChild(el("th", { scope: "col", class: "tx-inv" }, T.inversions));
  head.appendChild(top);
  grid.appendChild(head);
  grid.classList.toggle("tx-grid--points", tx.sheet.points);
  tx.sheet.rows.forEach((row, i) => { grid.appendChild(rowBody(tx, i)); });
  paint(tx);
  if (keep) {
    const again = input(tx, keep[0], keep[1]);
    if (again) { again.focus(); }
  }
}

function rowBody(tx, i) {
  const row = tx.sheet.rows[i];
  const body = el("tbody", { class: "tx-row", "data-row": i });
  const tr = el("tr", { class: "tx-row__cells" });
  const no = el("th", { scope: "row", class: "tx-no" });
  no.appendChild(el("span", { class: "tx-no__n" }, String(i + 1)));
  no.appendChild(el("span", { class: "tx-no__shuffler" }));
  const mode = el("button", { type: "button", class: "tx-mode", "data-row": i, "aria-pressed": String(row.points) },
                  tx.T.points_only);
  no.appendChild(mode);
  tr.appendChild(no);
  const entry = el("td", { class: "tx-entry" });
  entry.appendChild(cell(i, "entry", row, { maxlength: "300", class: "tx-in tx-in--entry" }));
  entry.appendChild(el("span", { class: "tx-echo", id: "tx-echo-" + i }));
  tr.appendChild(entry);
  tx.players.forEach((name, seat) => {
    const td = el("td", { class: "tx-player", "data-seat": seat });
    const cells = el("div", { class: "tx-player__cells" + (row.points ? " tx-player__cells--score" : "") });
    numberCells(row, seat).forEach((name) => {
      // Points may be negative: a score cell keeps the keyboard with its minus sign.
      const attrs = row.points ? { maxlength: "7", class: "tx-in tx-in--num tx-in--score" }
        : { maxlength: "4", inputmode: "numeric", class: "tx-in tx-in--num" };
      cells.appendChild(cell(i, name, row, attrs));
    });
    td.appendChild(cells);
    const result = el("div", { class: "tx-res" });
    result.appendChild(el("span", { class: "tx-res__score" }));
    result.appendChild(el("span", { class: "tx-res__total" }));
    td.appendChild(result);
    tr.appendChild(td);
  });
  const inv = el("td", { class: "tx-inv" });
  inv.appendChild(cell(i, "inversions", row, { maxlength: "300", class: "tx-in tx-in--inv" }));
  tr.appendChild(inv);
  body.appendChild(tr);
  const notes = el("tr", { class: "tx-row__notes", hidden: "" });
  const td = el("td", { colspan: String(tx.players.length + 3) });
  td.appendChild(el("ul", { class: "tx-errors", id: "tx-errors-" + i }));
  notes.appendChild(td);
  body.appendChild(notes);
  return body;
}

function cell(i, name, row, attrs) {
  const node = el("input", Object.assign({ type: "text", "data-row": i, "data-cell": name, autocomplete: "off",
                                         spellcheck: "false", autocapitalize: "off" }, attrs));
  node.value = cellValue(row, name);
  return node;
}

export function ensureTrailingRow(tx) {
  const rows = tx.sheet.rows;
  const last = rows[rows.length - 1];
  if (last && !hasContent(last)) { return; }
  if (rows.length >= tx.maxRows) { return; }
  rows.push(emptyRow(tx.sheet.points));
  if (tx.players.length) {
    tx.grid.appendChild(rowBody(tx, rows.length - 1));
    paint(tx);
  }
}
