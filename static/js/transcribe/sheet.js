// What is typed: the sheet's rows as the grid (../transcribe.js) keeps them, without the page.
//
// A row is {entry, inversions, lines, points, scores}: typed in full (``lines``: per seat
// Stiche, Augen, Trümpfe) or as points only (``scores``: one cell per seat); ``points`` says
// which way it is typed, and a row keeps what was typed in the other way.

const FIELDS = ["tricks", "points", "trumps"];

export function newToken() {
  if (window.crypto && window.crypto.randomUUID) { return window.crypto.randomUUID(); }
  const bytes = new Uint8Array(16);
  window.crypto.getRandomValues(bytes);
  bytes[6] = (bytes[6] & 0x0f) | 0x40;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = Array.prototype.map.call(bytes, (b) => { return (b + 256).toString(16).slice(1); }).join("");
  return hex.slice(0, 8) + "-" + hex.slice(8, 12) + "-" + hex.slice(12, 16) + "-" + hex.slice(16, 20) + "-" + hex.slice(20);
}

// A new row is typed the way the switch above the grid says (``points``).
export function emptyRow(points) { return { entry: "", inversions: "", lines: [], points: points, scores: [] }; }

export function typedLines(row) { return row.lines.some((line) => { return line.some((c) => { return c.trim(); }); }); }
export function typedScores(row) { return row.scores.some((c) => { return c.trim(); }); }

export function hasContent(row) {
  if (row.entry.trim() || row.inversions.trim()) { return true; }
  return typedLines(row) || typedScores(row);
}

// The number cells of a seat in this row, as the grid names them.
export function numberCells(row, seat) {
  return row.points ? ["p" + seat + ".score"] : FIELDS.map((field) => { return "p" + seat + "." + field; });
}

export function cellValue(row, cell) {
  if (cell === "entry" || cell === "inversions") { return row[cell]; }
  const seat = parseInt(cell.slice(1), 10);
  if (cell.endsWith(".score")) { return row.scores[seat] || ""; }
  const line = row.lines[seat] || [];
  return line[FIELDS.indexOf(cell.split(".")[1])] || "";
}

export function setCellValue(row, cell, value) {
  if (cell === "entry" || cell === "inversions") { row[cell] = value; return; }
  const seat = parseInt(cell.slice(1), 10);
  if (cell.endsWith(".score")) {
    while (row.scores.length <= seat) { row.scores.push(""); }
    row.scores[seat] = value;
    return;
  }
  while (row.lines.length <= seat) { row.lines.push(["", "", ""]); }
  row.lines[seat][FIELDS.indexOf(cell.split(".")[1])] = value;
}
