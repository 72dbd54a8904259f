// Keeping what is typed in this browser (localStorage, per club and user) until the match is
// saved, so that a closed tab or a lost connection loses nothing; a draft left from before is
// offered when the page opens, to continue or to discard.

import { scheduleCheck } from "./check.js";
import { fmt } from "./dom.js";
import { ensureTrailingRow } from "./grid.js";
import { headerValues, setHeaderValues } from "./header.js";
import { emptyRow, hasContent, newToken } from "./sheet.js";

export function saveDraftSoon(tx) {
  if (!tx.keepDraft) { return; }
  window.clearTimeout(tx.draftTimer);
  tx.draftTimer = window.setTimeout(() => { saveDraft(tx); }, 300);
}

export function saveDraft(tx) {
  if (!tx.keepDraft) { return; }
  const sheet = tx.sheet;
  const data = { savedAt: Date.now(), token: sheet.token, header: headerValues(tx), points: sheet.points, rows: sheet.rows };
  try { window.localStorage.setItem(tx.storageKey, JSON.stringify(data)); } catch (e) { /* full or forbidden: only the tab keeps it */ }
}

export function loadDraft(tx) {
  try {
    const data = JSON.parse(window.localStorage.getItem(tx.storageKey) || "null");
    if (data && data.header && Array.isArray(data.rows)) { return data; }
  } catch (e) { /* unreadable: ignored */ }
  return null;
}

export function offerDraft(tx, draft) {
  const rows = draft.rows.filter(hasContent).length;
  if (!rows && !(draft.header.players || "").trim()) { return false; }
  const box = document.getElementById("tx-draft");
  const when = new Date(draft.savedAt).toLocaleString(document.documentElement.lang || undefined,
                                                     { dateStyle: "medium", timeStyle: "short" });
  document.getElementById("tx-draft-text").textContent = fmt(tx.T.draft, { when: when, rows: rows });
  box.hidden = false;
  tx.keepDraft = false;
  box.querySelector("[data-draft=resume]").focus();
  box.addEventListener("click", (event) => {
    const choice = event.target.closest("[data-draft]");
    if (!choice) { return; }
    box.hidden = true;
    tx.keepDraft = true;
    if (choice.dataset.draft === "resume") {
      restore(tx, draft);
    } else {
      window.localStorage.removeItem(tx.storageKey);
      tx.header.querySelector("[name=players]").focus();
    }
  });
  return true;
}

function restore(tx, draft) {
  const sheet = tx.sheet;
  sheet.token = draft.token || newToken();
  sheet.points = draft.points === true;
  tx.pointsSwitch.checked = sheet.points;
  sheet.rows = draft.rows.map((row) => {
    return { entry: String(row.entry || ""), inversions: String(row.inversions || ""),
             lines: (Array.isArray(row.lines) ? row.lines : []).map((line) => {
               return Array.isArray(line) ? line.map(String) : ["", "", ""];
             }),
             points: row.points === true, scores: (Array.isArray(row.scores) ? row.scores : []).map(String) };
  });
  if (!sheet.rows.length) { sheet.rows.push(emptyRow(sheet.points)); }
  ensureTrailingRow(tx);
  setHeaderValues(tx, draft.header);
  Object.keys(draft.header).forEach((name) => { tx.headerLeft[name] = true; });
  tx.pendingFocus = sheet.rows.length - 1;
  scheduleCheck(tx, 0);
}
