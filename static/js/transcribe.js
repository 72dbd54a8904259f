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
// A module, like static/js/offline/*.js: the page loads it with type="module" (deferred).

export function transcribe(form) {
  const T = JSON.parse(document.getElementById("tx-texts").textContent);
  const grid = document.getElementById("tx-grid");
  const header = document.getElementById("tx-header");
  const csrf = form.querySelector("input[name=csrfmiddlewaretoken]").value;
  const storageKey = form.dataset.storageKey;
  const maxRows = parseInt(form.dataset.maxRows, 10) || 400;
  const FIELDS = ["tricks", "points", "trumps"];
  const CHECK_DELAY = 250;

  const pointsSwitch = document.getElementById("tx-points");
  const state = { token: newToken(), points: false, rows: [] };
  state.rows.push(emptyRow());
  let players = [];        // the seating order, as the server read it
  let answer = null;       // the server's last answer
  let version = 0;         // raised by every edit
  let answeredAt = -1;     // the version the answer was asked for
  const editedAt = [];       // per row: the version of its last edit (newer than the answer: pending)
  let pendingFocus = null; // the row whose entry cell gets the focus once the grid is there
  let wantSave = false;    // save as soon as the answer to what is typed is there
  let timer = null;
  let inflight = null;
  let draftTimer = null;
  let keepDraft = true;    // false while an old draft is offered (it must not be overwritten)
  let focusRow = -1;
  let focusCell = "";
  const left = {};           // "row:cell" of cells the user has left once (their errors show)
  const headerLeft = {};
  let showAll = false;     // after a save attempt every error shows

  function fmt(text, values) {
    return text.replace(/%\((\w+)\)s/g, (all, key) => { return values[key] === undefined ? "" : values[key]; });
  }

  function newToken() {
    if (window.crypto && window.crypto.randomUUID) { return window.crypto.randomUUID(); }
    const bytes = new Uint8Array(16);
    window.crypto.getRandomValues(bytes);
    bytes[6] = (bytes[6] & 0x0f) | 0x40;
    bytes[8] = (bytes[8] & 0x3f) | 0x80;
    const hex = Array.prototype.map.call(bytes, (b) => { return (b + 256).toString(16).slice(1); }).join("");
    return hex.slice(0, 8) + "-" + hex.slice(8, 12) + "-" + hex.slice(12, 16) + "-" + hex.slice(16, 20) + "-" + hex.slice(20);
  }

  function emptyRow() { return { entry: "", inversions: "", lines: [], points: state.points, scores: [] }; }

  function typedLines(row) { return row.lines.some((line) => { return line.some((c) => { return c.trim(); }); }); }
  function typedScores(row) { return row.scores.some((c) => { return c.trim(); }); }

  function hasContent(row) {
    if (row.entry.trim() || row.inversions.trim()) { return true; }
    return typedLines(row) || typedScores(row);
  }

  function numberCells(row, seat) {
    return row.points ? ["p" + seat + ".score"] : FIELDS.map((field) => { return "p" + seat + "." + field; });
  }

  function el(tag, attrs, text) {
    const node = document.createElement(tag);
    Object.keys(attrs || {}).forEach((key) => { node.setAttribute(key, attrs[key]); });
    if (text !== undefined) { node.textContent = text; }
    return node;
  }

  // -- the header ------------------------------------------------------------------------
  function headerValues() {
    const values = {};
    header.querySelectorAll("input[name], select[name]").forEach((input) => {
      if (input.name === "csrfmiddlewaretoken") { return; }
      values[input.name] = input.type === "checkbox" ? (input.checked ? "on" : "") : input.value;
    });
    return values;
  }

  function setHeaderValues(values) {
    header.querySelectorAll("input[name], select[name]").forEach((input) => {
      if (!(input.name in values)) { return; }
      if (input.type === "checkbox") { input.checked = values[input.name] === "on"; } else { input.value = values[input.name]; }
    });
  }

  // -- the grid --------------------------------------------------------------------------
  function cellValue(row, cell) {
    if (cell === "entry" || cell === "inversions") { return row[cell]; }
    const seat = parseInt(cell.slice(1), 10);
    if (cell.endsWith(".score")) { return row.scores[seat] || ""; }
    const line = row.lines[seat] || [];
    return line[FIELDS.indexOf(cell.split(".")[1])] || "";
  }

  function setCellValue(row, cell, value) {
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

  function input(i, cell) { return grid.querySelector('input[data-row="' + i + '"][data-cell="' + cell + '"]'); }

  function buildGrid() {
    const active = document.activeElement;
    const keep = active && active.dataset && active.dataset.cell ? [active.dataset.row, active.dataset.cell] : null;
    grid.textContent = "";
    document.getElementById("tx-grid-empty").hidden = players.length > 0;
    grid.hidden = players.length === 0;
    if (!players.length) { return; }
    const head = el("thead");
    const top = el("tr");
    top.appendChild(el("th", { scope: "col", class: "tx-no" }, T.number));
    top.appendChild(el("th", { scope: "col", class: "tx-entry" }, T.entry));
    players.forEach((name, seat) => {
      const th = el("th", { scope: "col", class: "tx-player" });
      th.appendChild(el("span", { class: "tx-player__name" }, (seat + 1) + " · " + name));
      const sub = el("span", { class: "tx-player__fields", "aria-hidden": "true" });
      if (state.points) {
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
    grid.classList.toggle("tx-grid--points", state.points);
    state.rows.forEach((row, i) => { grid.appendChild(rowBody(i)); });
    paint();
    if (keep) {
      const again = input(keep[0], keep[1]);
      if (again) { again.focus(); }
    }
  }

  function rowBody(i) {
    const row = state.rows[i];
    const body = el("tbody", { class: "tx-row", "data-row": i });
    const tr = el("tr", { class: "tx-row__cells" });
    const no = el("th", { scope: "row", class: "tx-no" });
    no.appendChild(el("span", { class: "tx-no__n" }, String(i + 1)));
    no.appendChild(el("span", { class: "tx-no__shuffler" }));
    const mode = el("button", { type: "button", class: "tx-mode", "data-row": i, "aria-pressed": String(row.points) },
                    T.points_only);
    no.appendChild(mode);
    tr.appendChild(no);
    const entry = el("td", { class: "tx-entry" });
    entry.appendChild(cell(i, "entry", row, { maxlength: "300", class: "tx-in tx-in--entry" }));
    entry.appendChild(el("span", { class: "tx-echo", id: "tx-echo-" + i }));
    tr.appendChild(entry);
    players.forEach((name, seat) => {
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
    const td = el("td", { colspan: String(players.length + 3) });
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

  function ensureTrailingRow() {
    const last = state.rows[state.rows.length - 1];
    if (last && !hasContent(last)) { return; }
    if (state.rows.length >= maxRows) { return; }
    state.rows.push(emptyRow());
    if (players.length) {
      grid.appendChild(rowBody(state.rows.length - 1));
      paint();
    }
  }

  // -- what the server said --------------------------------------------------------------
  function rowAnswer(i) { return answer && answer.rows[i] ? answer.rows[i] : null; }

  // The players of row i: the engine's answer, or for the first row after the checked ones
  // the players of the next Spiel (a Stechen names only its own).
  function rowPlayers(i) {
    const r = rowAnswer(i);
    if (r && r.players) { return r.players; }
    if (answer && answer.next && (!r || r.state === "empty") && firstOpenRow() === i) { return answer.next.players; }
    return null;
  }

  function firstOpenRow() {
    if (!answer) { return -1; }
    for (let i = 0; i < state.rows.length; i++) {
      const r = answer.rows[i];
      if (!r || r.state === "empty") { return i; }
    }
    return state.rows.length;
  }

  function rowKind(i) {
    const r = rowAnswer(i);
    return r && r.kind ? r.kind : "game";
  }

  function labelFor(i) {
    const r = rowAnswer(i);
    if (r && r.kind === "game" && r.number) { return fmt(T.game, { n: r.number }); }
    if (!r || r.state === "empty") {
      if (answer && answer.next && firstOpenRow() === i) { return fmt(T.game, { n: answer.next.number }); }
    }
    return fmt(T.row, { n: i + 1 });
  }

  function rowComplete(i) {
    const row = state.rows[i];
    if (!row.entry.trim() && !row.points) { return false; }  // a points row may leave the trump out
    if (rowKind(i) !== "game") { return true; }
    const tr = grid.querySelector('tbody[data-row="' + i + '"]');
    return Array.prototype.every.call(tr.querySelectorAll("input.tx-in--num"), (node) => {
      return node.disabled || node.value.trim() !== "";
    });
  }

  function paint() {
    if (!players.length) { return; }
    grid.querySelectorAll("tbody.tx-banner").forEach((node) => { node.remove(); });
    for (let i = 0; i < state.rows.length; i++) { paintRow(i); }
    paintBanners();
  }

  function signed(n) { return n > 0 ? "+" + n : n < 0 ? "−" + (-n) : "0"; }

  function paintRow(i) {
    const body = grid.querySelector('tbody[data-row="' + i + '"]');
    if (!body) { return; }
    const r = rowAnswer(i);
    const kind = rowKind(i);
    const playing = rowPlayers(i);
    const label = labelFor(i);
    const open = firstOpenRow() === i;
    body.className = "tx-row is-" + (r ? r.state : "empty") + (kind !== "game" ? " is-" + kind : "") +
      (r && r.stage ? " is-stechen" : (open && answer && answer.next && answer.next.stage ? " is-stechen" : "")) +
      (r && r.annulled ? " is-annulled" : "") + (state.rows[i].points ? " is-points" : "") +
      (open && answer && (answer.status === "finished" || answer.status === "annulled") ? " is-after-end" : "");
    const no = body.querySelector(".tx-no__n");
    const shuffler = body.querySelector(".tx-no__shuffler");
    if (r && r.kind && r.kind !== "game") {
      no.textContent = T.kinds[r.kind] || "";
      shuffler.textContent = "";
    } else if (r && r.number) {
      no.textContent = String(r.number);
      shuffler.textContent = r.shuffler || "";
    } else if (open && answer && answer.next) {
      no.textContent = String(answer.next.number);
      shuffler.textContent = answer.next.shuffler || "";
    } else {
      no.textContent = "";
      shuffler.textContent = "";
    }
    shuffler.title = T.shuffler;
    const mode = body.querySelector(".tx-mode");
    mode.setAttribute("aria-pressed", String(state.rows[i].points));
    setLabel(mode, label + ", " + T.points_only);
    setLabel(input(i, "entry"), label + ", " + T.entry);
    setLabel(input(i, "inversions"), label + ", " + T.inversions);
    let refocus = false;
    input(i, "inversions").disabled = kind !== "game";
    players.forEach((name, seat) => {
      const td = body.querySelector('td[data-seat="' + seat + '"]');
      const off = kind !== "game" || (playing !== null && playing.indexOf(name) < 0);
      td.classList.toggle("is-off", off);
      td.title = off && kind === "game" ? name + ": " + T.not_playing : "";
      numberCells(state.rows[i], seat).forEach((name_) => {
        const node = input(i, name_);
        if (off && node === document.activeElement) { refocus = true; }
        node.disabled = off;
        setLabel(node, label + ", " + name + ", " + T[name_.split(".")[1]]);
      });
      const score = td.querySelector(".tx-res__score");
      const total = td.querySelector(".tx-res__total");
      const counted = r && r.state === "ok";  // an invalid row has no score; its totals would mislead
      const points = counted && r.scores ? r.scores[name] : undefined;
      const sum = counted && r.totals ? r.totals[name] : undefined;
      score.textContent = points === undefined ? "" : signed(points);
      score.classList.toggle("neg", points < 0);
      total.textContent = sum === undefined ? "" : String(sum);
      total.classList.toggle("neg", sum < 0);
      td.querySelector(".tx-res").title = r && r.explanations && r.explanations[name] ? r.explanations[name] : "";
    });
    if (refocus) {  // the answer took the cell away (a Stechen's first row): on to the first one left
      const first = body.querySelector("input.tx-in--num:not([disabled])") || input(i, "entry");
      first.focus();
    }
    const echo = body.querySelector(".tx-echo");
    echo.textContent = r && r.reading ? r.reading : "";
    paintErrors(i, body, r);
  }

  function setLabel(node, text) {
    if (node.getAttribute("aria-label") !== text) { node.setAttribute("aria-label", text); }
  }

  function paintErrors(i, body, r) {
    const list = body.querySelector(".tx-errors");
    list.textContent = "";
    body.querySelectorAll("input[aria-invalid]").forEach((node) => {
      node.removeAttribute("aria-invalid");
      node.removeAttribute("aria-describedby");
    });
    let shown = 0;
    const complete = rowComplete(i);
    const pending = (editedAt[i] || 0) > answeredAt;  // typed on since the check was asked
    body.classList.toggle("is-pending", pending);
    (r && !pending ? r.errors : []).forEach((error, k) => {
      const here = focusRow === i;
      const visible = showAll || !here || complete ||
        (error.cell && error.cell !== focusCell && left[i + ":" + error.cell]);
      if (!visible) { return; }
      const id = "tx-e-" + i + "-" + k;
      list.appendChild(el("li", { id: id }, error.message));
      shown++;
      const node = error.cell ? input(i, error.cell) : null;
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

  function paintBanners() {
    if (!answer) { return; }
    answer.rows.forEach((r, i) => {
      const after = grid.querySelector('tbody[data-row="' + i + '"]');
      if (!after) { return; }
      const texts = [];
      if (r.decides) {
        texts.push(["tx-banner--won", r.decides.winner ? fmt(T.winner, { name: r.decides.winner }) + " " + r.decides.ended_by : r.decides.ended_by]);
      }
      if (r.opens && r.opens.text) { texts.push(["tx-banner--stechen", r.opens.text]); }
      texts.reverse().forEach((item) => {
        const banner = el("tbody", { class: "tx-banner " + item[0] });
        const tr = el("tr");
        const td = el("td", { colspan: String(players.length + 3) });
        td.appendChild(el("span", { class: "tx-banner__text" }, item[1]));
        tr.appendChild(td);
        banner.appendChild(tr);
        after.after(banner);
      });
    });
  }

  function paintHeader() {
    const errors = answer ? answer.header.errors : {};
    header.querySelectorAll(".field-errors[id^=tx-err-]").forEach((slot) => {
      const name = slot.id.slice("tx-err-".length);
      const messages = errors[name] || [];
      const visible = showAll || headerLeft[name] || name === "__all__";
      slot.textContent = "";
      const target = header.querySelector('[name="' + name + '"]');
      if (target) { target.removeAttribute("aria-invalid"); }
      if (!messages.length || !visible) { return; }
      const list = el("ul", { class: "errorlist" });
      messages.forEach((m) => { list.appendChild(el("li", {}, m)); });
      slot.appendChild(list);
      if (target) {
        target.setAttribute("aria-invalid", "true");
        const ids = (target.getAttribute("aria-describedby") || "").split(" ").filter((id) => { return id && id !== slot.id; });
        ids.push(slot.id);
        target.setAttribute("aria-describedby", ids.join(" "));
      }
    });
    const echo = document.getElementById("tx-header-echo");
    echo.textContent = "";
    if (!answer || !answer.header.players.length) { return; }
    const h = answer.header;
    const seats = h.players.map((name, seat) => { return (seat + 1) + " " + name; }).join(" · ");
    const parts = [seats];
    if (h.scorekeeper) { parts.push(fmt(T.scorekeeper_is, { name: h.scorekeeper })); }
    const first = firstShuffler();
    if (first) { parts.push(fmt(T.first_shuffler, { name: first })); }
    parts.push(h.season ? fmt(T.season_is, { name: h.season }) : T.no_season);
    echo.appendChild(el("span", {}, parts.join(" — ")));
    if (h.new_members.length) {
      echo.appendChild(el("strong", { class: "tx-echo__new" }, fmt(T.new_members, { names: h.new_members.join(", ") })));
    }
  }

  function firstShuffler() {
    for (let i = 0; i < answer.rows.length; i++) {
      const r = answer.rows[i];
      if (r.kind === "game" && r.shuffler) { return r.shuffler; }
    }
    return answer.next && answer.next.number === 1 ? answer.next.shuffler : "";
  }

  function paintSummary(message) {
    const status = document.getElementById("tx-status");
    const standing = document.getElementById("tx-standing");
    const problem = document.getElementById("tx-problem");
    standing.textContent = "";
    status.className = "tx-status";
    if (message) {
      problem.textContent = message;
      problem.className = "tx-problem is-bad";
      return;
    }
    if (!answer) { return; }
    if (answer.status === "finished") {
      status.textContent = fmt(T.winner, { name: answer.winner }) + " " + answer.ended_by;
      status.classList.add("is-won");
    } else if (answer.status === "tiebreak") {
      status.textContent = T.tiebreak;
    } else if (answer.status) {
      status.textContent = T.running;
    } else {
      status.textContent = "";
    }
    (answer.stages || []).forEach((stage) => {
      const names = stage.players.slice().sort((a, b) => { return stage.totals[b] - stage.totals[a]; });
      const item = el("li", { class: stage.stage ? "is-stechen" : "" });
      item.appendChild(el("span", { class: "tx-standing__stage" },
                          stage.stage ? T.stechen : T.standing));
      const list = el("span", { class: "tx-standing__players" });
      names.forEach((name) => {
        const one = el("span", { class: "tx-standing__player" + (stage.winner === name ? " is-winner" : "") });
        one.appendChild(el("span", {}, name));
        one.appendChild(el("strong", { class: stage.totals[name] < 0 ? "neg" : "" }, String(stage.totals[name])));
        list.appendChild(one);
      });
      item.appendChild(list);
      item.appendChild(el("span", { class: "tx-standing__limit muted" }, fmt(T.to_win, { limit: stage.limit })));
      standing.appendChild(item);
    });
    if (answer.ready) {
      problem.textContent = answer.status === "finished" ? T.ready : T.ready_running;
      problem.className = "tx-problem is-ready";
    } else {
      problem.textContent = T.not_ready + " " + answer.problem;
      problem.className = "tx-problem";
    }
  }

  // -- talking to the server ---------------------------------------------------------------
  function sheetPayload() {
    const rows = state.rows.map((row, i) => {
      const playing = rowPlayers(i);
      // A cell the grid has disabled (he does not play this Spiel) is not sent.
      const plays = (seat) => { return players[seat] === undefined || playing === null || playing.indexOf(players[seat]) >= 0; };
      if (row.points) {
        const scores = [];  // before the first answer the players are not known yet: every cell typed is sent
        for (let seat = 0; seat < Math.max(players.length, row.scores.length); seat++) {
          scores.push(plays(seat) ? (row.scores[seat] || "") : "");
        }
        return { entry: row.entry, inversions: row.inversions, lines: [], scores: scores };
      }
      const lines = [];
      for (let seat = 0; seat < Math.max(players.length, row.lines.length); seat++) {
        const line = (row.lines[seat] || ["", "", ""]).slice(0, 3);
        lines.push(plays(seat) ? line : ["", "", ""]);
      }
      return { entry: row.entry, inversions: row.inversions, lines: lines };
    });
    return { token: state.token, header: headerValues(), rows: rows };
  }

  function post(url, body, signal) {
    return fetch(url, {
      method: "POST", credentials: "same-origin", redirect: "manual", signal: signal,
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrf, "Accept": "application/json" },
      body: JSON.stringify(body)
    });
  }

  function reply(response) {
    if (response.type === "opaqueredirect" || response.status === 302 || response.status === 403) {
      throw new Error("session");
    }
    return response.json().catch(() => { throw new Error("failed"); }).then((data) => {
      return { status: response.status, data: data };
    });
  }

  function failure(error) {
    const key = error && error.message === "session" ? "session" : (navigator.onLine === false || error instanceof TypeError) ? "offline" : "failed";
    paintSummary(T[key]);
  }

  function scheduleCheck(delay) {
    version++;
    form.dataset.version = String(version);
    window.clearTimeout(timer);
    timer = window.setTimeout(check, delay === undefined ? CHECK_DELAY : delay);
  }

  function check() {
    window.clearTimeout(timer);
    const asked = version;
    if (inflight) { inflight.abort(); }
    const controller = window.AbortController ? new AbortController() : null;
    inflight = controller;
    form.classList.add("is-checking");
    post(form.dataset.checkUrl, sheetPayload(), controller ? controller.signal : undefined).then(reply).then((result) => {
      inflight = null;
      form.classList.remove("is-checking");
      if (result.status !== 200) { paintSummary(result.data.error || T.failed); return; }
      show(result.data, asked);
    }).catch((error) => {
      if (error && error.name === "AbortError") { return; }
      inflight = null;
      form.classList.remove("is-checking");
      failure(error);
    });
  }

  // Paint an answer. Rows typed into since it was asked show no errors until the next one.
  function show(data, asked) {
    answer = data;
    answeredAt = asked;
    form.dataset.checked = String(asked);
    const seating = data.header.players;
    if (seating.join("\n") !== players.join("\n")) {
      players = seating.slice();
      buildGrid();
    } else {
      paint();
    }
    paintHeader();
    paintSummary();
    form.classList.toggle("is-ready", Boolean(data.ready) && asked === version);
    if (pendingFocus !== null && players.length) {
      const target = input(Math.min(pendingFocus, state.rows.length - 1), "entry");
      pendingFocus = null;
      if (target) { target.focus(); }
    }
    if (wantSave && asked === version) {
      wantSave = false;
      save();
    }
  }

  // Save: with the answer to exactly what is typed (asked for first if need be), and only
  // when the whole match is valid; else the first problem gets the focus.
  function save() {
    showAll = true;
    if (!answer || answeredAt !== version) {
      wantSave = true;
      check();
      return;
    }
    if (!answer.ready) {
      paint();
      paintHeader();
      paintSummary();
      focusFirstProblem();
      return;
    }
    const button = document.getElementById("tx-save");
    button.disabled = true;
    const label = button.textContent;
    button.textContent = T.saving;
    post(form.dataset.saveUrl, sheetPayload()).then(reply).then((result) => {
      if (result.status === 200 && result.data.url) {
        keepDraft = false;
        window.localStorage.removeItem(storageKey);
        window.location.assign(result.data.url);
        return;
      }
      button.disabled = false;
      button.textContent = label;
      if (result.data.rows) { show(result.data, version); }
      paintSummary(result.data.error || T.failed);
    }).catch((error) => {
      button.disabled = false;
      button.textContent = label;
      failure(error);
    });
  }

  function focusFirstProblem() {
    const bad = grid.querySelector("input[aria-invalid=true]") || header.querySelector("[aria-invalid=true]");
    if (bad) { bad.focus(); return; }
    if (answer) {
      for (let i = 0; i < answer.rows.length; i++) {
        if (answer.rows[i].state === "incomplete") {
          const blank = Array.prototype.find.call(grid.querySelectorAll('tbody[data-row="' + i + '"] input:not([disabled])'),
                                                (node) => {
                                                  return !node.value.trim() && node.dataset.cell !== "inversions" &&
                                                    !(state.rows[i].points && node.dataset.cell === "entry");
                                                });
          (blank || input(i, "entry")).focus();
          return;
        }
      }
    }
  }

  // -- the draft in this browser -----------------------------------------------------------
  function saveDraftSoon() {
    if (!keepDraft) { return; }
    window.clearTimeout(draftTimer);
    draftTimer = window.setTimeout(saveDraft, 300);
  }

  function saveDraft() {
    if (!keepDraft) { return; }
    const data = { savedAt: Date.now(), token: state.token, header: headerValues(), points: state.points, rows: state.rows };
    try { window.localStorage.setItem(storageKey, JSON.stringify(data)); } catch (e) { /* full or forbidden: only the tab keeps it */ }
  }

  function loadDraft() {
    try {
      const data = JSON.parse(window.localStorage.getItem(storageKey) || "null");
      if (data && data.header && Array.isArray(data.rows)) { return data; }
    } catch (e) { /* unreadable: ignored */ }
    return null;
  }

  function offerDraft(draft) {
    const rows = draft.rows.filter(hasContent).length;
    if (!rows && !(draft.header.players || "").trim()) { return false; }
    const box = document.getElementById("tx-draft");
    const when = new Date(draft.savedAt).toLocaleString(document.documentElement.lang || undefined,
                                                       { dateStyle: "medium", timeStyle: "short" });
    document.getElementById("tx-draft-text").textContent = fmt(T.draft, { when: when, rows: rows });
    box.hidden = false;
    keepDraft = false;
    box.querySelector("[data-draft=resume]").focus();
    box.addEventListener("click", (event) => {
      const choice = event.target.closest("[data-draft]");
      if (!choice) { return; }
      box.hidden = true;
      keepDraft = true;
      if (choice.dataset.draft === "resume") {
        restore(draft);
      } else {
        window.localStorage.removeItem(storageKey);
        header.querySelector("[name=players]").focus();
      }
    });
    return true;
  }

  function restore(draft) {
    state.token = draft.token || newToken();
    state.points = draft.points === true;
    pointsSwitch.checked = state.points;
    state.rows = draft.rows.map((row) => {
      return { entry: String(row.entry || ""), inversions: String(row.inversions || ""),
               lines: (Array.isArray(row.lines) ? row.lines : []).map((line) => {
                 return Array.isArray(line) ? line.map(String) : ["", "", ""];
               }),
               points: row.points === true, scores: (Array.isArray(row.scores) ? row.scores : []).map(String) };
    });
    if (!state.rows.length) { state.rows.push(emptyRow()); }
    ensureTrailingRow();
    setHeaderValues(draft.header);
    Object.keys(draft.header).forEach((name) => { headerLeft[name] = true; });
    pendingFocus = state.rows.length - 1;
    scheduleCheck(0);
  }

  // -- typing ------------------------------------------------------------------------------
  grid.addEventListener("input", (event) => {
    const node = event.target;
    if (!node.dataset || !node.dataset.cell) { return; }
    const i = parseInt(node.dataset.row, 10);
    setCellValue(state.rows[i], node.dataset.cell, node.value);
    ensureTrailingRow();
    saveDraftSoon();
    scheduleCheck();
    editedAt[i] = version;
  });

  grid.addEventListener("keydown", (event) => {
    const node = event.target;
    if (!node.dataset || !node.dataset.cell || event.altKey || event.ctrlKey || event.metaKey) { return; }
    const i = parseInt(node.dataset.row, 10);
    if (event.key === "Enter") {
      event.preventDefault();
      ensureTrailingRow();
      scheduleCheck(0);
      const next = nextRowStart(i);
      if (next) { next.focus(); }
    } else if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      const j = i + (event.key === "ArrowDown" ? 1 : -1);
      let target = input(j, node.dataset.cell);
      if (!target || target.disabled) { target = input(j, "entry"); }  // the other way of typing, or off
      if (target) {
        event.preventDefault();
        target.focus();
      }
    }
  });

  // Enter goes on to the next row's trump cell; from a points row typed without a trump,
  // to the next row's first points cell (a Punktetabelle rarely names the trump).
  function nextRowStart(i) {
    const row = state.rows[i];
    const next = state.rows[i + 1];
    if (next && next.points && row.points && !row.entry.trim()) {
      const first = grid.querySelector('tbody[data-row="' + (i + 1) + '"] input.tx-in--score:not([disabled])');
      if (first) { return first; }
    }
    return input(i + 1, "entry");
  }

  // The way a row is typed: its button, or the switch for every row not typed yet.
  grid.addEventListener("click", (event) => {
    const button = event.target.closest(".tx-mode");
    if (!button) { return; }
    const i = parseInt(button.dataset.row, 10);
    state.rows[i].points = !state.rows[i].points;
    rebuild(i);
  });

  pointsSwitch.addEventListener("change", () => {
    state.points = pointsSwitch.checked;
    state.rows.forEach((row) => {
      if (!(row.points ? typedScores(row) : typedLines(row))) { row.points = state.points; }
    });
    rebuild(null);
  });

  function rebuild(i) {
    ensureTrailingRow();
    buildGrid();
    if (i !== null) {
      const button = grid.querySelector('.tx-mode[data-row="' + i + '"]');
      if (button) { button.focus(); }
    }
    saveDraftSoon();
    scheduleCheck(0);
    if (i !== null) { editedAt[i] = version; }
  }

  grid.addEventListener("focusin", (event) => {
    const node = event.target;
    if (!node.dataset || !node.dataset.cell) { return; }
    const i = parseInt(node.dataset.row, 10);
    const previous = focusRow;
    focusRow = i;
    focusCell = node.dataset.cell;
    if (node.select && node.value) { node.select(); }
    if (previous !== i && previous >= 0 && previous < state.rows.length) { paintRow(previous); }
    paintRow(i);
  });

  grid.addEventListener("focusout", (event) => {
    const node = event.target;
    if (!node.dataset || !node.dataset.cell) { return; }
    left[node.dataset.row + ":" + node.dataset.cell] = true;
    window.setTimeout(() => {
      if (!grid.contains(document.activeElement)) {
        const previous = focusRow;
        focusRow = -1;
        focusCell = "";
        if (previous >= 0) { paintRow(previous); }
      }
    }, 0);
  });

  header.addEventListener("input", () => { saveDraftSoon(); scheduleCheck(); });
  header.addEventListener("change", () => { saveDraftSoon(); scheduleCheck(); });
  header.addEventListener("focusout", (event) => {
    if (event.target.name) { headerLeft[event.target.name] = true; }
    if (answer) { paintHeader(); }
  });
  header.addEventListener("keydown", (event) => {
    if (event.key !== "Enter" || event.target.tagName !== "INPUT") { return; }
    if (event.ctrlKey || event.metaKey) { return; }
    event.preventDefault();
    headerLeft[event.target.name] = true;
    // On to the grid: its first open row, once the answer has built it.
    pendingFocus = firstOpenRow() < 0 ? 0 : firstOpenRow();
    scheduleCheck(0);
  });

  // Ctrl+Enter (Cmd+Enter) anywhere on the page saves, as the button does.
  form.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      save();
    }
  });
  form.addEventListener("submit", (event) => { event.preventDefault(); });
  document.getElementById("tx-save").addEventListener("click", save);
  window.addEventListener("online", () => { scheduleCheck(0); });
  window.addEventListener("pagehide", saveDraft);

  // On a phone the legend would push the grid far down: folded, one tap away.
  const help = document.getElementById("tx-help");
  if (help && window.matchMedia && window.matchMedia("(max-width: 40rem)").matches) { help.open = false; }

  const draft = loadDraft();
  if (!draft || !offerDraft(draft)) {
    if (draft) { window.localStorage.removeItem(storageKey); }
    const players_input = header.querySelector("[name=players]");
    if (players_input && !players_input.value) { players_input.focus(); }
    scheduleCheck(0);
  }
}

const form = document.getElementById("tx");
if (form) { transcribe(form); }
