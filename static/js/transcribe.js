// Protokoll nachtragen: a paper protocol typed into one grid, by keyboard.
//
// The script only collects what is typed and shows what the server answers: it sends the
// whole sheet (header fields and every cell as typed) to the check endpoint, which reads the
// shorthand and lets the rules engine check it, and paints the answer (errors at their cells,
// Mischer, scores, running totals, Stechen). It knows no rule and holds no text: the words
// come from the page (#tx-texts). What is typed is kept in localStorage (per club and user)
// until the match is saved, so a closed tab or a lost connection loses nothing.
//
// A row is typed in full (Stiche, Augen, Trümpfe per player) or as points only (one cell
// per player, as a Punktetabelle holds them; the trump cell may stay empty). The switch
// above the grid sets the way for the whole sheet (the rows not typed yet), the button in
// a row's number cell for that row; a row keeps what was typed in the other way.
//
// A module, like static/js/offline/*.js: the page loads it with type="module" (deferred), by
// its hashed name outside DEBUG; the modules of ./transcribe/ it imports are named plainly
// (collectstatic keeps a copy under the plain name, which WhiteNoise serves):
//   sheet.js   what is typed (rows, cells, the token)     grid.js    the grid's rows
//   answer.js  the server's answer read per row           paint.js   the answer in the grid
//   errors.js  where the engine's errors show             header.js  the head of the protocol
//   summary.js the Partie's state and standing            server.js  the requests
//   check.js   the engine's check as one types            save.js    saving the match
//   draft.js   the draft kept in this browser             typing.js  keyboard and focus
//   points.js  the points-only way of typing              dom.js     small helpers
//
// Everything the modules share is one object, ``tx``: the page's elements and words, what is
// typed (tx.sheet), the server's last answer and the versions asked and answered.

import { scheduleCheck } from "./transcribe/check.js";
import { loadDraft, offerDraft, saveDraft } from "./transcribe/draft.js";
import { listenToThePointsSwitches } from "./transcribe/points.js";
import { save } from "./transcribe/save.js";
import { emptyRow, newToken } from "./transcribe/sheet.js";
import { followTheFocus, listenToTheGrid, listenToTheHeader } from "./transcribe/typing.js";

export function transcribe(form) {
  const tx = {
    form: form,
    T: JSON.parse(document.getElementById("tx-texts").textContent),
    grid: document.getElementById("tx-grid"),
    header: document.getElementById("tx-header"),
    csrf: form.querySelector("input[name=csrfmiddlewaretoken]").value,
    storageKey: form.dataset.storageKey,
    maxRows: parseInt(form.dataset.maxRows, 10) || 400,
    pointsSwitch: document.getElementById("tx-points"),
    sheet: { token: newToken(), points: false, rows: [emptyRow(false)] },
    saveWaiting: () => { save(tx); },  // a save that waited for the check's answer
    players: [],        // the seating order, as the server read it
    answer: null,       // the server's last answer
    version: 0,         // raised by every edit
    answeredAt: -1,     // the version the answer was asked for
    editedAt: [],       // per row: the version of its last edit (newer than the answer: pending)
    pendingFocus: null, // the row whose entry cell gets the focus once the grid is there
    wantSave: false,    // save as soon as the answer to what is typed is there
    timer: null,
    inflight: null,
    draftTimer: null,
    keepDraft: true,    // false while an old draft is offered (it must not be overwritten)
    focusRow: -1,
    focusCell: "",
    left: {},           // "row:cell" of cells the user has left once (their errors show)
    headerLeft: {},
    showAll: false      // after a save attempt every error shows
  };

  listenToTheGrid(tx);
  listenToThePointsSwitches(tx);
  followTheFocus(tx);
  listenToTheHeader(tx);

  // Ctrl+Enter (Cmd+Enter) anywhere on the page saves, as the button does.
  form.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      save(tx);
    }
  });
  form.addEventListener("submit", (event) => { event.preventDefault(); });
  document.getElementById("tx-save").addEventListener("click", () => { save(tx); });
  window.addEventListener("online", () => { scheduleCheck(tx, 0); });
  window.addEventListener("pagehide", () => { saveDraft(tx); });

  // On a phone the legend would push the grid far down: folded, one tap away.
  const help = document.getElementById("tx-help");
  if (help && window.matchMedia && window.matchMedia("(max-width: 40rem)").matches) { help.open = false; }

  const draft = loadDraft(tx);
  if (!draft || !offerDraft(tx, draft)) {
    if (draft) { window.localStorage.removeItem(tx.storageKey); }
    const players_input = tx.header.querySelector("[name=players]");
    if (players_input && !players_input.value) { players_input.focus(); }
    scheduleCheck(tx, 0);
  }
}

const form = document.getElementById("tx");
if (form) { transcribe(form); }
