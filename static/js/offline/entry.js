// The offline evening on an entry page: the Spiel and the Strafe form keep working
// without network. Every check, the preview, the totals, the Mischer and the Stechen come from
// the rules engine itself (protocol/entry_form/state.py run by Pyodide, ./engine.js); this file
// only moves data between the page, the queue (./queue.js) and the server.
//
// - Offline (navigator.onLine false, or while entries wait), a submit does not POST: the engine
//   checks the entry on top of the stored document and the queued entries; an error is marked at
//   its field as the server marks it; otherwise the entry is queued and the page shows the state
//   after it. Online the form is posted as without this file, nothing asked before; a POST the
//   server does not answer (a WLAN without internet) comes back from the service worker
//   (templates/offline/sw.js) as the typed form, checked and queued here like one typed offline.
// - Online again (the ``online`` event, and at page load) the phone first shows what other
//   devices recorded meanwhile (GET ?seit=<the version it last saw>), then sends the queue in
//   order through the JSON endpoint (protocol/views/sync.py, protocol/handover.py), one tab at a
//   time. Each entry names the place it was typed for (``position``): the very same entry saved
//   there by another phone is recognised and not stored twice; another entry there is a conflict
//   shown with both entries, to discard, to enter at the end ("Als Spiel 8 eintragen") or to
//   edit; nothing after a conflict is sent until it is settled. A 401 keeps the queue and asks
//   to log in.
// A correction page (kind "correction") works the same way: the engine checks the document with
// the corrected entry in its place (protocol/entry_form/state.check_correction), the correction
// is queued with its reason and sent in order with the rest.
// The requests the page makes anyway (the hand-over, the state poll, the live preview) tell the
// server how many entries wait here (X-Trumpfbuch-Waiting), for the round board.
// The match page carries the same bar (no form): what waits is sent from there too, and an
// entry that no longer fits opens on its entry page to be edited (#offline-edit-<id>).
// The phone says in a cookie which document it keeps (tellKept): a page then carries only what
// it lacks, nothing when it keeps the page's version, the newest entry when it keeps the one before.
// The page's words come from the template (protocol/includes/offline.html), translated.

import { keepEngine as keepEngineFiles, loadEngine } from "./engine.js";
import * as queue from "./queue.js";

const data = JSON.parse(document.getElementById("offline-data").textContent);
const match = data.match;
const form = document.querySelector("form.game-form, form.sanction-form, form[data-offline-form]");
const bar = document.querySelector("[data-offline-bar]");
const statePanel = document.querySelector("[data-offline-state]");
const conflictsPanel = document.querySelector("[data-offline-conflicts]");
const meanwhilePanel = document.querySelector("[data-offline-meanwhile]");
const SKIP = new Set(["csrfmiddlewaretoken", "version", "submission", "position", "why-reason", "why-version"]);
const RETRY_MS = 30_000;  // while entries wait and the network seems there
const UNSENT = "trumpfbuch-unsent";  // the worker's copy of a form POST the server did not answer
const KEPT_COOKIE = "trumpfbuch-kept";  // the match and version of the document kept here (protocol/views/sync.py)
const KEPT_DAYS = 14;  // as long as the service worker keeps the pages
const WAITING_HEADER = "X-Trumpfbuch-Waiting";  // how many entries wait here, for the round board (protocol/queue_report.py)

let base = { version: data.version, document: data.document };  // the newest stored match seen
let waiting = 0;
let needLogin = false;
let syncing = null;
let notes = [];  // what the last sync has to say beside the bar ("Spiel 7 war schon eingetragen …")
let told = 0;  // the count this page last told the server

function words(element, key, params) {
  let text = element.dataset[key] || "";
  for (const [name, value] of Object.entries(params || {})) {
    text = text.split(`{${name}}`).join(String(value));
  }
  return text;
}

function signed(n) {
  return n > 0 ? `+${n}` : n < 0 ? `\u2212${-n}` : "0";
}

function minus(n) {
  return n < 0 ? `\u2212${-n}` : String(n);
}

function clock(iso) {
  return new Date(iso).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
}

function element(tag, attributes, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes || {})) {
    if (name === "class") node.className = value; else node.setAttribute(name, value);
  }
  for (const child of children) node.append(child);
  return node;
}

// -- the form's fields, as the engine reads them (protocol/entry_form) -----------------------------

function formFields() {
  const fields = {};
  for (const [name, value] of new FormData(form).entries()) {
    if (SKIP.has(name)) continue;
    if (name in fields) {
      fields[name] = [].concat(fields[name], value);
    } else {
      fields[name] = value;
    }
  }
  // A multiple choice (Re party, decided by) with one box ticked is still a list.
  form.querySelectorAll("input[type=checkbox]").forEach((box) => {
    const many = form.querySelectorAll(`input[type=checkbox][name="${box.name}"]`).length > 1;
    if (many && typeof fields[box.name] === "string") fields[box.name] = [fields[box.name]];
  });
  return fields;
}

function fillForm(fields) {
  form.reset();
  // A box not in the typed fields was not ticked (FormData leaves it out), whatever the page's default
  // (the switch "Nur Punkte" opens on after a Spiel recorded so).
  form.querySelectorAll("input[type=checkbox]").forEach((box) => { if (!(box.name in fields)) box.checked = false; });
  for (const [name, value] of Object.entries(fields)) {
    const values = [].concat(value).map(String);
    form.querySelectorAll(`[name="${name}"]`).forEach((input) => {
      if (input.type === "radio" || input.type === "checkbox") {
        input.checked = values.includes(input.value) || (input.type === "checkbox" && values.includes("on") && input.value === "on");
      } else if (input.tagName === "SELECT" && input.multiple) {
        Array.from(input.options).forEach((option) => { option.selected = values.includes(option.value); });
      } else {
        input.value = values[0];
      }
    });
  }
  form.dispatchEvent(new Event("change", { bubbles: true }));  // match.js: trump mode, inversion rows
}

function entryKind(fields) {
  if (data.kind === "game" || data.kind === "end") return data.kind;
  if (data.kind === "correction" && data.entry === "game") return "game";
  return fields.kind || "penalty";
}

/** The page an entry of ``kind`` is typed on (game | end | the sanctions'). */
function pageKind(kind) {
  return kind === "game" || kind === "end" ? kind : "sanction";
}

// -- the engine's errors at their fields (as the slot tag, protocol_tags, writes them) -----------

function clearErrors() {
  form.querySelectorAll("[data-offline-error]").forEach((node) => node.remove());
  form.querySelectorAll(".field-errors[id^='err-']").forEach((slot) => { slot.textContent = ""; });
  form.querySelectorAll("[aria-invalid]").forEach((input) => input.removeAttribute("aria-invalid"));
}

function showErrors(errors, shown) {
  clearErrors();
  for (const error of errors) {
    let name = error.field || "__all__";
    if (shown && !shown(name)) continue;
    const inputs = form.querySelectorAll(`[name="${name}"]`);
    let slot = document.getElementById(`err-${name}`);
    if (!slot && inputs.length) {
      slot = element("div", { class: "field-errors", id: `err-${name}`, "data-offline-error": "" });
      (inputs[0].closest(".field") || inputs[0].parentElement).append(slot);
    }
    if (!slot) {
      name = "__all__";
      slot = document.getElementById("err-__all__");
    }
    let list = slot.querySelector("ul");
    if (!list) {
      list = element("ul", { class: "errorlist" });
      slot.append(list);
    }
    list.append(element("li", {}, error.message));
    inputs.forEach((input) => {
      input.setAttribute("aria-invalid", "true");
      const ids = (input.getAttribute("aria-describedby") || "").split(" ").filter((id) => id && id !== slot.id);
      input.setAttribute("aria-describedby", [...ids, slot.id].join(" "));
    });
  }
}

// -- the state of the Partie the engine computed ------------------------------------------------

function showState(state) {
  if (!state || !statePanel) return;
  const panel = statePanel;
  const facts = element("p", { class: "offline-state__facts" });
  if (!state.open) {
    facts.append(words(panel, "textOver"));
  } else {
    facts.append(`${words(panel, "textNextGame")}: `, element("strong", {}, String(state.number)));
    if (state.dealer) facts.append(` · ${words(panel, "textShuffler")}: `, element("strong", { "data-offline-dealer": "" }, state.dealer));
    const top = state.totals.find((row) => row.leader);
    facts.append(` · ${words(panel, "textLeader")}: `,
      top ? element("strong", {}, `${top.player} (${minus(top.total)})`) : words(panel, "textTie"));
  }
  const children = [facts];
  if (state.stechen) {
    children.push(element("p", { class: "offline-state__stechen banner", "data-offline-stechen": "" },
      words(panel, "textTiebreak", { players: state.stechen.players.join(", "), limit: state.stechen.limit })));
  }
  const totals = element("ul", { class: "offline-state__totals", "aria-label": words(panel, "textTotals") });
  for (const row of state.totals) {
    totals.append(element("li", { "data-player": row.player }, `${row.player} `, element("strong", {}, minus(row.total))));
  }
  children.push(totals);
  panel.replaceChildren(...children);
  panel.hidden = false;
  // The page's own header and form follow: "Spiel N", the Mischer, the players of the next game.
  if (data.kind !== "game" || !form) return;
  const title = document.querySelector(".page-header h1");
  if (title) title.textContent = title.textContent.replace(/\d+/, String(state.number));
  const dealer = document.querySelector(".page-header__meta strong");
  if (dealer && state.dealer) dealer.textContent = state.dealer;
  form.querySelectorAll(".lines__row[data-player], .points-row[data-player]").forEach((row) => {
    row.hidden = !state.players.includes(row.dataset.player);
  });
}

function showPreview(answer, complete) {
  const section = document.getElementById("preview");
  if (!section || !statePanel) return;
  const panel = statePanel;
  if (answer.preview && !answer.errors.length) {
    const body = element("tbody");
    for (const score of answer.preview.scores) {
      body.append(element("tr", {},
        element("th", { scope: "row" }, score.player, element("br"), element("small", { class: "muted" }, score.explanation)),
        element("td", { class: `num${score.points < 0 ? " neg" : ""}` }, signed(score.points)),
        element("td", { class: "num" }, minus(answer.preview.totals[score.player]))));
    }
    section.replaceChildren(
      element("h2", { class: "preview__title" }, words(panel, "textScores")),
      element("table", { class: "data-table preview__table" },
        element("thead", {}, element("tr", {},
          element("th", { scope: "col" }, words(panel, "textPlayer")),
          element("th", { scope: "col", class: "num" }, words(panel, "textScore")),
          element("th", { scope: "col", class: "num" }, words(panel, "textTotal")))),
        body));
  } else if (complete) {
    section.replaceChildren(element("p", { class: "preview__bad", role: "status" }, words(panel, "textRefused")));
  }
}

// -- what the phone knows of the match: the stored document and the queue on top --------------

async function pending() {
  return (await queue.queued(match)).filter((entry) => !entry.conflict);
}

/** The place a new entry typed now is for: after the stored entries and those waiting here. */
async function nextPosition() {
  const places = (await queue.queued(match)).filter((entry) => entry.kind !== "correction")
    .map((entry) => entry.position).filter((position) => Number.isInteger(position));
  const stored = base.document ? base.document.events.length : 0;
  return Math.max(stored, ...places.map((position) => position + 1));
}

/** ``document`` with ``entry`` on top: appended, or (a correction) in the place it corrects. */
function withEntry(doc, entry) {
  const events = [...doc.events];
  if (entry.kind === "correction") events[entry.position] = entry.body; else events.push({ [entry.kind]: entry.body });
  return { ...doc, events };
}

async function currentDocument() {
  return (await pending()).reduce(withEntry, base.document);
}

/** The engine's check of ``fields`` typed for ``entry`` (its kind, a correction's place) on ``doc``. */
function checkOn(engine, doc, entry, fields) {
  if (entry.kind === "correction") {
    return engine.call("protocol.entry_form.state", "check_correction", doc, entry.position, entry.entry, fields);
  }
  return engine.call("protocol.entry_form.state", "check", doc, entry.kind, fields);
}

/** Start the engine now (it takes a second or two); the page says so when it is there. */
function warmEngine() {
  return loadEngine().then((engine) => {
    document.documentElement.dataset.engine = "ready";
    return engine;
  }).catch(() => null);
}

async function check(fields) {
  const engine = await loadEngine();
  const typed = data.kind === "correction"
    ? { kind: "correction", position: data.position, entry: entryKind(fields) } : { kind: entryKind(fields) };
  return { engine, answer: checkOn(engine, await currentDocument(), typed, fields) };
}

// -- typing and saving offline -----------------------------------------------------------------

function offline() {
  return navigator.onLine === false;
}

let previewTimer = null;
function onInput(event) {
  if (!offline() || data.kind !== "game" || (event && event.target && SKIP.has(event.target.name))) return;
  window.clearTimeout(previewTimer);
  previewTimer = window.setTimeout(preview, 250);
}

async function preview() {
  const fields = formFields();
  const { engine, answer } = await check(fields);
  const state = answer.state || (await engine.call("protocol.entry_form.state", "state", await currentDocument()));
  const players = (state && state.players) || [];
  const seats = (state && state.seats) || base.document.players;
  const complete = engine.call("protocol.entry_form", "is_complete", data.ruleset, fields, players, seats);
  // As the server's preview: a field's error shows once something is typed there, all once complete.
  const typed = (name) => complete || name === "__all__" || String(fields[name] || "").trim() !== "";
  showErrors(answer.errors, typed);
  showPreview(answer, complete);
}

async function onSubmit(event) {
  // Online with nothing waiting: the ordinary POST, as without this file. Whether the server
  // answers is not asked first (a round trip before every save): the service worker sends the
  // POST and hands back what it could not send (keepUnsent).
  if (!offline() && waiting === 0) {
    // The match page the save lands on carries the new entry for the document kept here (the
    // cookie says which version that is): no request for it.
    tellKept();
    return;
  }
  event.preventDefault();
  event.stopImmediatePropagation();
  const button = form.querySelector("button[type=submit]");
  if (button) button.disabled = true;
  try {
    await saveOffline();
  } finally {
    if (button) button.disabled = false;
  }
}

/** The form this page posted that the server did not answer, as the service worker kept it
 * (its fields, the one-time submission id among them), taken out of the worker's keeping. */
async function takeUnsent() {
  if (!form || !("caches" in window)) return null;
  try {
    const cache = await caches.open(UNSENT);
    const key = new URL(window.location.pathname, window.location.origin).href;
    const kept = await cache.match(key);
    if (!kept) return null;
    const body = await kept.text();
    await cache.delete(key);
    const fields = {};
    for (const [name, value] of new URLSearchParams(body)) {
      fields[name] = name in fields ? [].concat(fields[name], value) : value;
    }
    return fields;
  } catch (error) {
    return null;
  }
}

/** A save the server did not answer: back into the form as typed, then checked and queued as
 * offline (sent again later; the server stores it once, by its submission id). */
async function keepUnsent() {
  const fields = await takeUnsent();
  if (!fields) return;
  fillForm(fields);  // the hidden ones too: the submission id, a correction's reason
  await saveOffline();
}

async function saveOffline() {
  const fields = formFields();
  const { answer } = await check(fields);
  const reason = form.elements["why-reason"] ? form.elements["why-reason"].value.trim() : "";
  if (data.kind === "correction" && !reason) {  // as recording._require_reason
    answer.errors.push({ field: "why-reason", message: words(bar, "textReason") });
  }
  showErrors(answer.errors);
  if (answer.errors.length) {
    const first = form.querySelector("[aria-invalid=true]");
    if (first) first.focus();
    return;
  }
  const submission = form.elements.submission && form.elements.submission.value;
  const before = await pending();
  const typed = data.kind === "correction"
    ? { kind: "correction", body: { [answer.kind]: answer.body }, position: data.position, entry: answer.kind,
        reason, page: data.page, was: JSON.stringify(base.document.events[data.position]) }
    : { kind: answer.kind, body: answer.body, position: await nextPosition() };
  await queue.add({
    match, ...typed, fields,
    submission: submission || crypto.randomUUID(),
    version: base.version + before.length,  // each save raises the version by one
    recorded_at: new Date().toISOString(),
  });
  if (data.kind === "correction") {  // the form keeps the corrected entry; another save is another correction
    clearErrors();
    if (form.elements.submission) form.elements.submission.value = crypto.randomUUID();
    showState(answer.state);
  } else {
    startOver(answer.state);
  }
  await render(words(bar, "textSaved"));
  if (!offline()) sync();
}

function startOver(state) {
  // The next Spiel opens in the mode of the one just saved (points only or not), as the server's page does.
  const mode = form.elements.points_only;
  const pointsOnly = mode ? mode.checked : false;
  form.reset();
  if (mode) mode.checked = pointsOnly;
  clearErrors();
  // Doppelkopf, Tarot: the dealer's suggestion follows the rotation (the page's is one game old).
  const dealer = form.querySelector("select[name=dealer]");
  if (dealer && state && state.dealer) dealer.value = state.dealer;
  if (form.elements.submission) form.elements.submission.value = crypto.randomUUID();
  form.dispatchEvent(new Event("change", { bubbles: true }));
  showState(state);
  const section = document.getElementById("preview");
  if (section) section.replaceChildren();
  // The first field of the mode shown (the points, or the page's own first field).
  const shown = (input) => input && input.getClientRects().length > 0;
  const first = [form.querySelector(".points-row input"), form.querySelector("[autofocus]")].find(shown) ||
    Array.from(form.querySelectorAll("input:not([type=hidden]):not([disabled]), select, textarea")).find(shown);
  if (first) first.focus();
}

// -- the bar: what waits, the last sync, the login; the entries that no longer fit -------------

async function render(note) {
  const entries = await queue.queued(match);
  waiting = entries.length;
  const parts = [];
  if (offline()) parts.push(words(bar, "textOffline"));
  if (entries.length === 1) parts.push(words(bar, "textWaitingOne"));
  if (entries.length > 1) parts.push(words(bar, "textWaiting", { n: entries.length }));
  let text = parts.join(" \u2014 ");
  const last = await queue.lastSync(match);
  if (last && (entries.length || offline())) text += ` \u00b7 ${words(bar, "textLastSync", { time: clock(last) })}`;
  bar.querySelector("[data-offline-text]").textContent = text.trim();
  // A note is a sentence of its own, on its own line (never run on after the bar's words).
  const said = [note, ...notes].filter(Boolean);
  const noteLine = bar.querySelector("[data-offline-note]");
  noteLine.replaceChildren(...said.map((line) => element("span", { class: "offline-bar__note" }, line)));
  noteLine.hidden = !said.length;
  const login = bar.querySelector("[data-offline-login]");
  login.hidden = !(needLogin && entries.length);
  login.querySelector("a").textContent = words(bar, "textLogin", { n: entries.length });
  login.querySelector("a").href = data.login;
  bar.hidden = !(offline() || entries.length || said.length);
  bar.dataset.waiting = String(entries.length);
  showConflicts(entries.filter((entry) => entry.conflict));
}

/** A queued entry back into the form, as typed (it leaves the queue: saving queues it anew,
 * for the next free place). What waited behind it goes on. */
async function edit_(entry) {
  await queue.remove(entry.id);
  fillForm(entry.fields);
  if (form.elements["why-reason"] && entry.reason) form.elements["why-reason"].value = entry.reason;
  if (form.elements.submission) form.elements.submission.value = entry.submission;
  await render();
  const first = form.querySelector("input:not([type=hidden]), select");
  if (first) first.focus();
  if (!offline()) sync();
}

/** "Als Spiel 8 eintragen": the entry goes to the end of what is stored now, and the entries
 * this phone typed after it follow it in their order. */
async function enterAtEnd(entry) {
  let position = entry.clash.next_position;
  let moving = false;
  for (const queued of await queue.queued(match)) {
    if (queued.id === entry.id) moving = true;
    if (!moving || queued.kind === "correction") continue;
    Object.assign(queued, { position, version: base.version });
    delete queued.conflict;
    delete queued.clash;
    await queue.put(queued);
    position += 1;
  }
  await render();
  sync();
}

/** "Trotzdem korrigieren": the correction goes on top of what the other device stored (now seen). */
async function correctAnyway(entry) {
  Object.assign(entry, { was: JSON.stringify(entry.clash.stored), version: base.version });
  delete entry.conflict;
  delete entry.clash;
  await queue.put(entry);
  await render();
  sync();
}

function button(label, action, attributes) {
  const node = element("button", { type: "button", class: "btn", ...attributes }, label);
  node.addEventListener("click", action);
  return node;
}

function showConflicts(conflicts) {
  if (!conflictsPanel) return;
  const panel = conflictsPanel;
  if (!conflicts.length) {
    panel.hidden = true;
    panel.replaceChildren();
    return;
  }
  const list = element("ul", { class: "offline-conflicts__list" });
  for (const entry of conflicts) {
    const named = entry.entry || entry.kind;  // a correction: the kind of the entry it corrects
    const kindName = words(conflictsPanel, `textKind${named[0].toUpperCase()}${named.slice(1)}`) || named;
    const item = element("li", { "data-offline-conflict": String(entry.id) },
      element("strong", {}, `${kindName} (${clock(entry.recorded_at)})`), ": ", entry.conflict.join(" "));
    const actions = element("div", { class: "offline-conflicts__actions" });
    const here = form && (entry.kind === "correction"
      ? data.kind === "correction" && entry.position === data.position : pageKind(entry.kind) === data.kind);
    if (entry.clash && !entry.clash.correction) {
      actions.append(button(words(panel, "textEnterAt", { name: entry.clash.next_name }), () => enterAtEnd(entry),
        { "data-enter-at-end": "" }));
    }
    if (entry.clash && entry.clash.correction && entry.clash.stored) {
      actions.append(button(words(panel, "textCorrectAnyway"), () => correctAnyway(entry), { "data-correct-anyway": "" }));
    }
    if (here) {
      actions.append(button(words(panel, "textEdit"), () => edit_(entry), { "data-edit": "" }));
    } else {
      const page = entry.kind === "correction" ? entry.page : data.pages[pageKind(entry.kind)];
      actions.append(element("a", { class: "btn", href: `${page}#offline-edit-${entry.id}`, "data-edit": "" },
        words(panel, "textEdit")));
    }
    actions.append(button(words(panel, "textDiscard"), async () => {
      if (!window.confirm(words(panel, "textConfirmDiscard"))) return;
      await queue.remove(entry.id);
      await render();
      if (!offline()) sync();  // what waited behind it goes on
    }, { class: "btn btn-danger", "data-discard": "" }));
    item.append(actions);
    list.append(item);
  }
  const held = waiting - conflicts.length;
  const children = [element("p", {}, words(panel, "textTitle")), list];
  if (held > 0) children.push(element("p", { class: "muted", "data-offline-held": "" }, words(panel, "textHeld")));
  panel.replaceChildren(...children);
  panel.hidden = false;
}

/** What other devices recorded since this phone last looked, in the history's words. */
function showMeanwhile(lines) {
  if (!meanwhilePanel || !lines.length) return;
  const panel = meanwhilePanel;
  const list = element("ul", { class: "offline-meanwhile__list" }, ...lines.map((line) => element("li", {}, line.text)));
  const seen = button(words(panel, "textSeen"), () => {
    panel.hidden = true;
    panel.replaceChildren();
  }, { "data-meanwhile-seen": "" });
  panel.replaceChildren(element("p", {}, element("strong", {}, words(panel, "textTitle"))), list, seen);
  panel.hidden = false;
}

// -- sending the queue ---------------------------------------------------------------------------

/** The header that tells the server how many entries wait on this phone, carried by the requests
 * the page makes anyway (no request of its own): sent while something waits and once more when
 * nothing does, so that a phone that never queued anything (the secretary looking in) says nothing. */
function waitingHeader(count) {
  if (!count && !told) return {};
  told = count;
  return { [WAITING_HEADER]: String(count) };
}

async function queueLength() {
  return (await queue.queued(match)).length;
}

function csrfToken() {
  const input = document.querySelector("input[name=csrfmiddlewaretoken]");
  if (input) return input.value;
  const cookie = document.cookie.split("; ").find((part) => part.startsWith("csrftoken="));
  return cookie ? decodeURIComponent(cookie.slice("csrftoken=".length)) : "";
}

async function post(entry, version) {
  const was = typeof entry.was === "string" ? JSON.parse(entry.was) : entry.was;
  const response = await fetch(data.sync, {
    method: "POST", credentials: "same-origin",
    headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken(), Accept: "application/json",
               ...waitingHeader((await queueLength()) - 1) },  // those behind this one: the last says 0
    body: JSON.stringify({ kind: entry.kind, body: entry.body, version, submission: entry.submission,
                           recorded_at: entry.recorded_at, position: entry.position, reason: entry.reason, was }),
  });
  let answer = {};
  try { answer = await response.json(); } catch (error) { answer = {}; }
  return { status: response.status, answer };
}

/** The stored match, and what other devices recorded since the version this phone last saw
 * (shown before anything is sent; this phone's own entries left out). */
async function lookFirst() {
  const response = await fetch(`${data.sync}?seit=${base.version}`, {
    credentials: "same-origin", headers: { Accept: "application/json", ...waitingHeader(await queueLength()) },
    cache: "no-store" });
  if (response.status === 401 || response.status === 403) {
    needLogin = true;
    return false;
  }
  if (!response.ok) return false;
  const answer = await response.json();
  const own = new Set([...(await queue.ownSubmissions(match)), ...(await queue.queued(match)).map((e) => e.submission)]);
  showMeanwhile((answer.meanwhile || []).filter((line) => !own.has(line.submission)));
  await adopt(answer.version, answer.document);
  return true;
}

async function adopt(version, doc) {
  if (version < base.version) return;
  base = { version, document: doc };
  await queue.keepDocument(match, version, doc);
  tellKept();
}

/** Tell the server which document this phone keeps (a cookie, protocol/views/sync.py): a page of
 * this Partie then carries only what the phone lacks (nothing, or the newest entry). */
function tellKept() {
  if (!base.document) return;
  document.cookie = `${KEPT_COOKIE}=${match}.${base.version}; path=/; max-age=${KEPT_DAYS * 24 * 3600}; samesite=lax`;
}

/** The page's newest entry appended to the document kept one version ago (the page says how many
 * entries are stored and which is the newest): the phone's own save, brought up to date here. */
async function appendNewest() {
  if (!data.last || !base.document || base.version + 1 !== data.version) return;
  const events = base.document.events;
  if (events.length + 1 === data.count) await adopt(data.version, { ...base.document, events: [...events, data.last] });
}

/** Send what waits, in order. An entry in conflict holds everything typed after it. */
async function sendAll() {
  let sent = 0;
  let looked = false;
  for (let round = 0; round < 500; round++) {
    const [entry] = await queue.queued(match);
    if (!entry || entry.conflict) break;
    let reply;
    try {
      if (!looked) {
        looked = true;
        if (!(await lookFirst())) return sent;
      }
      reply = await post(entry, entry.version);
    } catch (error) {
      return sent;  // still no network: keep everything
    }
    const { status, answer } = reply;
    if (status === 201 || status === 200) {
      await queue.remove(entry.id);
      await queue.noteOwnSubmission(match, entry.submission);
      if (answer.same && answer.message) notes.push(answer.message);
      sent += 1;
      needLogin = false;
    } else if (status === 409 && answer.conflict) {
      await adopt(answer.version, answer.document);
      Object.assign(entry, { conflict: [answer.message], clash: answer.conflict });
      await queue.put(entry);
      break;
    } else if (status === 409 && entry.kind !== "correction") {
      await adopt(answer.version, answer.document);  // saved in between, over and over: try again
    } else if (status === 409) {  // a correction typed without its entry's words: on the version now stored
      await adopt(answer.version, answer.document);
      entry.was = JSON.stringify(answer.document.events[entry.position]);
      entry.version = answer.version;
      entry.conflict = [words(conflictsPanel, "textChanged")];
      entry.clash = { correction: true, stored: answer.document.events[entry.position] || null };
      await queue.put(entry);
      break;
    } else if (status === 422 || status === 400) {
      entry.conflict = answer.errors ? answer.errors.map((error) => error.message) : [answer.message || String(status)];
      await queue.put(entry);
      break;
    } else if (status === 401 || status === 403) {
      needLogin = true;
      return sent;
    } else {
      return sent;  // the server is unwell: try again later
    }
  }
  return sent;
}

async function refresh() {
  const response = await fetch(data.sync, {
    credentials: "same-origin", headers: { Accept: "application/json", ...waitingHeader(await queueLength()) } });
  if (!response.ok) return;
  const answer = await response.json();
  base = { version: answer.version, document: answer.document };
  await queue.keepDocument(match, answer.version, answer.document);
  tellKept();
  if (form && form.elements.version) form.elements.version.value = answer.version;  // an online save goes on from here
  if (form && form.elements["why-version"]) form.elements["why-version"].value = answer.version;  // a correction's
  if (!(await pending()).length) showState(answer.state);
}

/** Does the phone hold the stored match the page shows, without asking? A page carries the
 * document, or nothing when the phone said it keeps this version, or the number of entries and
 * the newest one when it keeps the one before (appended at the start, appendNewest). */
async function holdsPageVersion() {
  if (!base.document) return data.kind === "match";  // the match page needs none; an entry page fetches it
  return base.version === data.version;  // a newer one seen, or an older one not brought up to date: fetched
}

export function sync() {
  if (!syncing) {
    syncing = queue.exclusively(match, async () => {
      if (offline()) return;
      notes = [];
      const queuedBefore = (await queue.queued(match)).length;
      const sent = await sendAll();
      if (sent) await queue.noteSync(match, new Date().toISOString());
      // The stored match is fetched after a hand-over, or when the page does not carry it;
      // never again what the page just brought.
      if (!needLogin && (queuedBefore || !(await holdsPageVersion()))) {
        try { await refresh(); } catch (error) { /* offline again */ }
      }
    }).finally(async () => {
      syncing = null;
      await render();
      window.dispatchEvent(new CustomEvent("trumpfbuch:synced", { detail: { waiting } }));
    });
  }
  return syncing;
}

/** The engine's files kept for the offline evening: the service worker fetches and keeps
 * Pyodide (the rules pack is in its precache); warm.js starts the engine once the page is
 * idle. Where there is no worker (an insecure origin), the engine starts here once the page is
 * idle, so that this open page can go on offline. */
function keepEngine() {
  const worker = navigator.serviceWorker;
  if (worker) {
    // "Offline-Modus bereit" only once the worker holds every Pyodide file (it re-fetches any missing).
    keepEngineFiles().then((kept) => (kept && bar.dataset.textReady ? render(words(bar, "textReady")) : null))
      .catch(() => {});
  } else {
    const idle = window.requestIdleCallback || ((run) => window.setTimeout(run, 3000));
    idle(() => loadEngine().catch(() => null));
  }
}

async function start() {
  if (data.document) await queue.keepDocument(match, data.version, data.document);  // not when the phone keeps it
  const kept = await queue.storedDocument(match);
  if (kept && (kept.version > base.version || !base.document)) base = { version: kept.version, document: kept.document };
  await appendNewest();  // offline too: the page brought it
  tellKept();
  if (form) {
    form.addEventListener("submit", onSubmit, true);
    form.addEventListener("input", onInput);
    form.addEventListener("change", onInput);
  }
  // The server's live preview and the state poll (htmx) have nobody to ask offline.
  document.addEventListener("htmx:beforeRequest", (event) => { if (offline()) event.preventDefault(); });
  // The state poll and the live preview say what waits here (the count of the bar, as last shown).
  document.addEventListener("htmx:configRequest", (event) => { Object.assign(event.detail.headers, waitingHeader(waiting)); });
  window.addEventListener("online", () => { render(); sync(); });
  window.addEventListener("offline", () => {
    render();
    if (form) warmEngine();  // while the Protokollant still types
  });
  window.setInterval(() => { if (waiting && !offline() && !needLogin) sync(); }, RETRY_MS);
  // Reopened offline with entries waiting (or a page older than what this phone saw): the engine's state.
  if (offline() && ((await pending()).length || base.version > data.version)) await showEngineState();
  await render();
  if (form) await keepUnsent();
  const editing = /^#offline-edit-(\d+)$/.exec(window.location.hash);
  if (form && editing) {
    const entry = await queue.get(Number(editing[1]));
    if (entry && entry.match === match) await edit_(entry);
  }
  if (!offline()) {
    // Online, what waits is handed over first: Pyodide's start (seconds) is not waited for;
    // only what is still waiting afterwards (refused, or no answer) is shown through the engine.
    await sync();
    if ((await pending()).length) {
      await showEngineState();
      await render();
    }
    if (form) keepEngine();
  }
  document.documentElement.dataset.offlineReady = "true";
}

/** The state of the Partie with the entries waiting on this phone, as the engine computes it. */
async function showEngineState() {
  if (!statePanel) return;  // the match page: its own state block is the server's; Pyodide is not started for it
  try {
    const engine = await loadEngine();
    showState(engine.call("protocol.entry_form.state", "state", await currentDocument()));
  } catch (error) { /* no engine kept on this phone yet: the bar still says what waits */ }
}

start();
