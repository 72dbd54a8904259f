// Reading the server's last answer (tx.answer) for one row of the grid: its players, kind,
// label. The answer is the rules engine's; nothing here decides a rule.

import { fmt } from "./dom.js";

export function rowAnswer(tx, i) { return tx.answer && tx.answer.rows[i] ? tx.answer.rows[i] : null; }

// The players of row i: the engine's answer, or for the first row after the checked ones
// the players of the next Spiel (a Stechen names only its own).
export function rowPlayers(tx, i) {
  const r = rowAnswer(tx, i);
  if (r && r.players) { return r.players; }
  if (tx.answer && tx.answer.next && (!r || r.state === "empty") && firstOpenRow(tx) === i) { return tx.answer.next.players; }
  return null;
}

export function firstOpenRow(tx) {
  if (!tx.answer) { return -1; }
  for (let i = 0; i < tx.sheet.rows.length; i++) {
    const r = tx.answer.rows[i];
    if (!r || r.state === "empty") { return i; }
  }
  return tx.sheet.rows.length;
}

export function rowKind(tx, i) {
  const r = rowAnswer(tx, i);
  return r && r.kind ? r.kind : "game";
}

export function labelFor(tx, i) {
  const r = rowAnswer(tx, i);
  if (r && r.kind === "game" && r.number) { return fmt(tx.T.game, { n: r.number }); }
  if (!r || r.state === "empty") {
    if (tx.answer && tx.answer.next && firstOpenRow(tx) === i) { return fmt(tx.T.game, { n: tx.answer.next.number }); }
  }
  return fmt(tx.T.row, { n: i + 1 });
}

export function firstShuffler(tx) {
  const answer = tx.answer;
  for (let i = 0; i < answer.rows.length; i++) {
    const r = answer.rows[i];
    if (r.kind === "game" && r.shuffler) { return r.shuffler; }
  }
  return answer.next && answer.next.number === 1 ? answer.next.shuffler : "";
}
