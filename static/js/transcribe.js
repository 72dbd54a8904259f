// Protokoll nachtragen: a paper protocol typed into one grid, by keyboard.
//
// The script only collects what is typed and shows what the server answers: it sends the
// whole sheet (header fields and every cell as typed) to the check endpoint, which reads the
// shorthand and lets the rules engine check it, and paints the answer (errors at their cells,
// Mischer, scores, running totals, Stechen). It knows no rule and holds no text: the words
// come from the page (#tx-texts). What is typed is kept in localStorage (per club and user)
// until the match is saved, so a closed tab or a lost connection loses nothing.
(function () {
  "use strict";

  var form = document.getElementById("tx");
  if (!form) { return; }
  var T = JSON.parse(document.getElementById("tx-texts").textContent);
  var grid = document.getElementById("tx-grid");
  var header = document.getElementById("tx-header");
  var csrf = form.querySelector("input[name=csrfmiddlewaretoken]").value;
  var storageKey = form.dataset.storageKey;
  var maxRows = parseInt(form.dataset.maxRows, 10) || 400;
  var FIELDS = ["tricks", "points", "trumps"];
  var CHECK_DELAY = 250;

  var state = { token: newToken(), rows: [emptyRow()] };
  var players = [];        // the seating order, as the server read it
  var answer = null;       // the server's last answer
  var version = 0;         // raised by every edit
  var answeredAt = -1;     // the version the answer was asked for
  var editedAt = [];       // per row: the version of its last edit (newer than the answer: pending)
  var pendingFocus = null; // the row whose entry cell gets the focus once the grid is there
  var wantSave = false;    // save as soon as the answer to what is typed is there
  var timer = null;
  var inflight = null;
  var draftTimer = null;
  var keepDraft = true;    // false while an old draft is offered (it must not be overwritten)
  var focusRow = -1;
  var focusCell = "";
  var left = {};           // "row:cell" of cells the user has left once (their errors show)
  var headerLeft = {};
  var showAll = false;     // after a save attempt every error shows

  function fmt(text, values) {
    return text.replace(/%\((\w+)\)s/g, function (all, key) { return values[key] === undefined ? "" : values[key]; });
  }

  function newToken() {
    if (window.crypto && window.crypto.randomUUID) { return window.crypto.randomUUID(); }
    var bytes = new Uint8Array(16);
    window.crypto.getRandomValues(bytes);
    bytes[6] = (bytes[6] & 0x0f) | 0x40;
    bytes[8] = (bytes[8] & 0x3f) | 0x80;
    var hex = Array.prototype.map.call(bytes, function (b) { return (b + 256).toString(16).slice(1); }).join("");
    return hex.slice(0, 8) + "-" + hex.slice(8, 12) + "-" + hex.slice(12, 16) + "-" + hex.slice(16, 20) + "-" + hex.slice(20);
  }

  function emptyRow() { return { entry: "", inversions: "", lines: [] }; }

  function hasContent(row) {
    if (row.entry.trim() || row.inversions.trim()) { return true; }
    return row.lines.some(function (line) { return line.some(function (c) { return c.trim(); }); });
  }

  function el(tag, attrs, text) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (key) { node.setAttribute(key, attrs[key]); });
    if (text !== undefined) { node.textContent = text; }
    return node;
  }

  // -- the header ------------------------------------------------------------------------
  function headerValues() {
    var values = {};
    header.querySelectorAll("input[name], select[name]").forEach(function (input) {
      if (input.name === "csrfmiddlewaretoken") { return; }
      values[input.name] = input.type === "checkbox" ? (input.checked ? "on" : "") : input.value;
    });
    return values;
  }

  function setHeaderValues(values) {
    header.querySelectorAll("input[name], select[name]").forEach(function (input) {
      if (!(input.name in values)) { return; }
      if (input.type === "checkbox") { input.checked = values[input.name] === "on"; } else { input.value = values[input.name]; }
    });
  }

  // -- the grid --------------------------------------------------------------------------
  function cellValue(row, cell) {
    if (cell === "entry" || cell === "inversions") { return row[cell]; }
    var seat = parseInt(cell.slice(1), 10);
    var line = row.lines[seat] || [];
    return line[FIELDS.indexOf(cell.split(".")[1])] || "";
  }

  function setCellValue(row, cell, value) {
    if (cell === "entry" || cell === "inversions") { row[cell] = value; return; }
    var seat = parseInt(cell.slice(1), 10);
    while (row.lines.length <= seat) { row.lines.push(["", "", ""]); }
    row.lines[seat][FIELDS.indexOf(cell.split(".")[1])] = value;
  }

  function input(i, cell) { return grid.querySelector('input[data-row="' + i + '"][data-cell="' + cell + '"]'); }

  function buildGrid() {
    var active = document.activeElement;
    var keep = active && active.dataset && active.dataset.cell ? [active.dataset.row, active.dataset.cell] : null;
    grid.textContent = "";
    document.getElementById("tx-grid-empty").hidden = players.length > 0;
    grid.hidden = players.length === 0;
    if (!players.length) { return; }
    var head = el("thead");
    var top = el("tr");
    top.appendChild(el("th", { scope: "col", class: "tx-no" }, T.number));
    top.appendChild(el("th", { scope: "col", class: "tx-entry" }, T.entry));
    players.forEach(function (name, seat) {
      var th = el("th", { scope: "col", class: "tx-player" });
      th.appendChild(el("span", { class: "tx-player__name" }, (seat + 1) + " · " + name));
      var sub = el("span", { class: "tx-player__fields", "aria-hidden": "true" });
      sub.appendChild(el("abbr", { title: T.tricks }, T.tricks_short));
      sub.appendChild(el("abbr", { title: T.points }, T.points_short));
      sub.appendChild(el("abbr", { title: T.trumps }, T.trumps_short));
      th.appendChild(sub);
      top.appendChild(th);
    });
    top.appendChild(el("th", { scope: "col", class: "tx-inv" }, T.inversions));
    head.appendChild(top);
    grid.appendChild(head);
    state.rows.forEach(function (row, i) { grid.appendChild(rowBody(i)); });
    paint();
    if (keep) {
      var again = input(keep[0], keep[1]);
      if (again) { again.focus(); }
    }
  }

  function rowBody(i) {
    var row = state.rows[i];
    var body = el("tbody", { class: "tx-row", "data-row": i });
    var tr = el("tr", { class: "tx-row__cells" });
    var no = el("th", { scope: "row", class: "tx-no" });
    no.appendChild(el("span", { class: "tx-no__n" }, String(i + 1)));
    no.appendChild(el("span", { class: "tx-no__shuffler" }));
    tr.appendChild(no);
    var entry = el("td", { class: "tx-entry" });
    entry.appendChild(cell(i, "entry", row, { maxlength: "300", class: "tx-in tx-in--entry" }));
    entry.appendChild(el("span", { class: "tx-echo", id: "tx-echo-" + i }));
    tr.appendChild(entry);
    players.forEach(function (name, seat) {
      var td = el("td", { class: "tx-player", "data-seat": seat });
      var cells = el("div", { class: "tx-player__cells" });
      FIELDS.forEach(function (field) {
        cells.appendChild(cell(i, "p" + seat + "." + field, row, { maxlength: "4", inputmode: "numeric", class: "tx-in tx-in--num" }));
      });
      td.appendChild(cells);
      var result = el("div", { class: "tx-res" });
      result.appendChild(el("span", { class: "tx-res__score" }));
      result.appendChild(el("span", { class: "tx-res__total" }));
      td.appendChild(result);
      tr.appendChild(td);
    });
    var inv = el("td", { class: "tx-inv" });
    inv.appendChild(cell(i, "inversions", row, { maxlength: "300", class: "tx-in tx-in--inv" }));
    tr.appendChild(inv);
    body.appendChild(tr);
    var notes = el("tr", { class: "tx-row__notes", hidden: "" });
    var td = el("td", { colspan: String(players.length + 3) });
    td.appendChild(el("ul", { class: "tx-errors", id: "tx-errors-" + i }));
    notes.appendChild(td);
    body.appendChild(notes);
    return body;
  }

  function cell(i, name, row, attrs) {
    var node = el("input", Object.assign({ type: "text", "data-row": i, "data-cell": name, autocomplete: "off",
                                           spellcheck: "false", autocapitalize: "off" }, attrs));
    node.value = cellValue(row, name);
    return node;
  }

  function ensureTrailingRow() {
    var last = state.rows[state.rows.length - 1];
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
    var r = rowAnswer(i);
    if (r && r.players) { return r.players; }
    if (answer && answer.next && (!r || r.state === "empty") && firstOpenRow() === i) { return answer.next.players; }
    return null;
  }

  function firstOpenRow() {
    if (!answer) { return -1; }
    for (var i = 0; i < state.rows.length; i++) {
      var r = answer.rows[i];
      if (!r || r.state === "empty") { return i; }
    }
    return state.rows.length;
  }

  function rowKind(i) {
    var r = rowAnswer(i);
    return r && r.kind ? r.kind : "game";
  }

  function labelFor(i) {
    var r = rowAnswer(i);
    if (r && r.kind === "game" && r.number) { return fmt(T.game, { n: r.number }); }
    if (!r || r.state === "empty") {
      if (answer && answer.next && firstOpenRow() === i) { return fmt(T.game, { n: answer.next.number }); }
    }
    return fmt(T.row, { n: i + 1 });
  }

  function rowComplete(i) {
    var row = state.rows[i];
    if (!row.entry.trim()) { return false; }
    if (rowKind(i) !== "game") { return true; }
    var tr = grid.querySelector('tbody[data-row="' + i + '"]');
    return Array.prototype.every.call(tr.querySelectorAll("input.tx-in--num"), function (node) {
      return node.disabled || node.value.trim() !== "";
    });
  }

  function paint() {
    if (!players.length) { return; }
    grid.querySelectorAll("tbody.tx-banner").forEach(function (node) { node.remove(); });
    for (var i = 0; i < state.rows.length; i++) { paintRow(i); }
    paintBanners();
  }

  function signed(n) { return n > 0 ? "+" + n : n < 0 ? "−" + (-n) : "0"; }

  function paintRow(i) {
    var body = grid.querySelector('tbody[data-row="' + i + '"]');
    if (!body) { return; }
    var r = rowAnswer(i);
    var kind = rowKind(i);
    var playing = rowPlayers(i);
    var label = labelFor(i);
    var open = firstOpenRow() === i;
    body.className = "tx-row is-" + (r ? r.state : "empty") + (kind !== "game" ? " is-" + kind : "") +
      (r && r.stage ? " is-stechen" : (open && answer && answer.next && answer.next.stage ? " is-stechen" : "")) +
      (r && r.annulled ? " is-annulled" : "") +
      (open && answer && (answer.status === "finished" || answer.status === "annulled") ? " is-after-end" : "");
    var no = body.querySelector(".tx-no__n");
    var shuffler = body.querySelector(".tx-no__shuffler");
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
    setLabel(input(i, "entry"), label + ", " + T.entry);
    setLabel(input(i, "inversions"), label + ", " + T.inversions);
    input(i, "inversions").disabled = kind !== "game";
    players.forEach(function (name, seat) {
      var td = body.querySelector('td[data-seat="' + seat + '"]');
      var off = kind !== "game" || (playing !== null && playing.indexOf(name) < 0);
      td.classList.toggle("is-off", off);
      td.title = off && kind === "game" ? name + ": " + T.not_playing : "";
      FIELDS.forEach(function (field) {
        var node = input(i, "p" + seat + "." + field);
        node.disabled = off;
        setLabel(node, label + ", " + name + ", " + T[field]);
      });
      var score = td.querySelector(".tx-res__score");
      var total = td.querySelector(".tx-res__total");
      var counted = r && r.state === "ok";  // an invalid row has no score; its totals would mislead
      var points = counted && r.scores ? r.scores[name] : undefined;
      var sum = counted && r.totals ? r.totals[name] : undefined;
      score.textContent = points === undefined ? "" : signed(points);
      score.classList.toggle("neg", points < 0);
      total.textContent = sum === undefined ? "" : String(sum);
      total.classList.toggle("neg", sum < 0);
      td.querySelector(".tx-res").title = r && r.explanations && r.explanations[name] ? r.explanations[name] : "";
    });
    var echo = body.querySelector(".tx-echo");
    echo.textContent = r && r.reading ? r.reading : "";
    paintErrors(i, body, r);
  }

  function setLabel(node, text) {
    if (node.getAttribute("aria-label") !== text) { node.setAttribute("aria-label", text); }
  }

  function paintErrors(i, body, r) {
    var list = body.querySelector(".tx-errors");
    list.textContent = "";
    body.querySelectorAll("input[aria-invalid]").forEach(function (node) {
      node.removeAttribute("aria-invalid");
      node.removeAttribute("aria-describedby");
    });
    var shown = 0;
    var complete = rowComplete(i);
    var pending = (editedAt[i] || 0) > answeredAt;  // typed on since the check was asked
    body.classList.toggle("is-pending", pending);
    (r && !pending ? r.errors : []).forEach(function (error, k) {
      var here = focusRow === i;
      var visible = showAll || !here || complete ||
        (error.cell && error.cell !== focusCell && left[i + ":" + error.cell]);
      if (!visible) { return; }
      var id = "tx-e-" + i + "-" + k;
      list.appendChild(el("li", { id: id }, error.message));
      shown++;
      var node = error.cell ? input(i, error.cell) : null;
      if (node) {
        node.setAttribute("aria-invalid", "true");
        var ids = (node.getAttribute("aria-describedby") || "").split(" ").filter(Boolean);
        ids.push(id);
        node.setAttribute("aria-describedby", ids.join(" "));
      }
    });
    body.querySelector(".tx-row__notes").hidden = shown === 0;
    body.classList.toggle("has-errors", shown > 0);
  }

  function paintBanners() {
    if (!answer) { return; }
    answer.rows.forEach(function (r, i) {
      var after = grid.querySelector('tbody[data-row="' + i + '"]');
      if (!after) { return; }
      var texts = [];
      if (r.decides) {
        texts.push(["tx-banner--won", r.decides.winner ? fmt(T.winner, { name: r.decides.winner }) + " " + r.decides.ended_by : r.decides.ended_by]);
      }
      if (r.opens && r.opens.text) { texts.push(["tx-banner--stechen", r.opens.text]); }
      texts.reverse().forEach(function (item) {
        var banner = el("tbody", { class: "tx-banner " + item[0] });
        var tr = el("tr");
        var td = el("td", { colspan: String(players.length + 3) });
        td.appendChild(el("span", { class: "tx-banner__text" }, item[1]));
        tr.appendChild(td);
        banner.appendChild(tr);
        after.after(banner);
      });
    });
  }

  function paintHeader() {
    var errors = answer ? answer.header.errors : {};
    header.querySelectorAll(".field-errors[id^=tx-err-]").forEach(function (slot) {
      var name = slot.id.slice("tx-err-".length);
      var messages = errors[name] || [];
      var visible = showAll || headerLeft[name] || name === "__all__";
      slot.textContent = "";
      var target = header.querySelector('[name="' + name + '"]');
      if (target) { target.removeAttribute("aria-invalid"); }
      if (!messages.length || !visible) { return; }
      var list = el("ul", { class: "errorlist" });
      messages.forEach(function (m) { list.appendChild(el("li", {}, m)); });
      slot.appendChild(list);
      if (target) {
        target.setAttribute("aria-invalid", "true");
        var ids = (target.getAttribute("aria-describedby") || "").split(" ").filter(function (id) { return id && id !== slot.id; });
        ids.push(slot.id);
        target.setAttribute("aria-describedby", ids.join(" "));
      }
    });
    var echo = document.getElementById("tx-header-echo");
    echo.textContent = "";
    if (!answer || !answer.header.players.length) { return; }
    var h = answer.header;
    var seats = h.players.map(function (name, seat) { return (seat + 1) + " " + name; }).join(" · ");
    var parts = [seats];
    if (h.scorekeeper) { parts.push(fmt(T.scorekeeper_is, { name: h.scorekeeper })); }
    var first = firstShuffler();
    if (first) { parts.push(fmt(T.first_shuffler, { name: first })); }
    parts.push(h.season ? fmt(T.season_is, { name: h.season }) : T.no_season);
    echo.appendChild(el("span", {}, parts.join(" — ")));
    if (h.new_members.length) {
      echo.appendChild(el("strong", { class: "tx-echo__new" }, fmt(T.new_members, { names: h.new_members.join(", ") })));
    }
  }

  function firstShuffler() {
    for (var i = 0; i < answer.rows.length; i++) {
      var r = answer.rows[i];
      if (r.kind === "game" && r.shuffler) { return r.shuffler; }
    }
    return answer.next && answer.next.number === 1 ? answer.next.shuffler : "";
  }

  function paintSummary(message) {
    var status = document.getElementById("tx-status");
    var standing = document.getElementById("tx-standing");
    var problem = document.getElementById("tx-problem");
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
    (answer.stages || []).forEach(function (stage) {
      var names = stage.players.slice().sort(function (a, b) { return stage.totals[b] - stage.totals[a]; });
      var item = el("li", { class: stage.stage ? "is-stechen" : "" });
      item.appendChild(el("span", { class: "tx-standing__stage" },
                          stage.stage ? T.stechen : T.standing));
      var list = el("span", { class: "tx-standing__players" });
      names.forEach(function (name) {
        var one = el("span", { class: "tx-standing__player" + (stage.winner === name ? " is-winner" : "") });
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
    var rows = state.rows.map(function (row, i) {
      var playing = rowPlayers(i);
      var lines = [];
      for (var seat = 0; seat < Math.max(players.length, row.lines.length); seat++) {
        var line = (row.lines[seat] || ["", "", ""]).slice(0, 3);
        var name = players[seat];
        // A cell the grid has disabled (he does not play this Spiel) is not sent.
        lines.push(name !== undefined && playing !== null && playing.indexOf(name) < 0 ? ["", "", ""] : line);
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
    return response.json().catch(function () { throw new Error("failed"); }).then(function (data) {
      return { status: response.status, data: data };
    });
  }

  function failure(error) {
    var key = error && error.message === "session" ? "session" : (navigator.onLine === false || error instanceof TypeError) ? "offline" : "failed";
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
    var asked = version;
    if (inflight) { inflight.abort(); }
    var controller = window.AbortController ? new AbortController() : null;
    inflight = controller;
    form.classList.add("is-checking");
    post(form.dataset.checkUrl, sheetPayload(), controller ? controller.signal : undefined).then(reply).then(function (result) {
      inflight = null;
      form.classList.remove("is-checking");
      if (result.status !== 200) { paintSummary(result.data.error || T.failed); return; }
      show(result.data, asked);
    }).catch(function (error) {
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
    var seating = data.header.players;
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
      var target = input(Math.min(pendingFocus, state.rows.length - 1), "entry");
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
    var button = document.getElementById("tx-save");
    button.disabled = true;
    var label = button.textContent;
    button.textContent = T.saving;
    post(form.dataset.saveUrl, sheetPayload()).then(reply).then(function (result) {
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
    }).catch(function (error) {
      button.disabled = false;
      button.textContent = label;
      failure(error);
    });
  }

  function focusFirstProblem() {
    var bad = grid.querySelector("input[aria-invalid=true]") || header.querySelector("[aria-invalid=true]");
    if (bad) { bad.focus(); return; }
    if (answer) {
      for (var i = 0; i < answer.rows.length; i++) {
        if (answer.rows[i].state === "incomplete") {
          var blank = Array.prototype.find.call(grid.querySelectorAll('tbody[data-row="' + i + '"] input:not([disabled])'),
                                                function (node) { return !node.value.trim() && node.dataset.cell !== "inversions"; });
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
    var data = { savedAt: Date.now(), token: state.token, header: headerValues(), rows: state.rows };
    try { window.localStorage.setItem(storageKey, JSON.stringify(data)); } catch (e) { /* full or forbidden: only the tab keeps it */ }
  }

  function loadDraft() {
    try {
      var data = JSON.parse(window.localStorage.getItem(storageKey) || "null");
      if (data && data.header && Array.isArray(data.rows)) { return data; }
    } catch (e) { /* unreadable: ignored */ }
    return null;
  }

  function offerDraft(draft) {
    var rows = draft.rows.filter(hasContent).length;
    if (!rows && !(draft.header.players || "").trim()) { return false; }
    var box = document.getElementById("tx-draft");
    var when = new Date(draft.savedAt).toLocaleString(document.documentElement.lang || undefined,
                                                       { dateStyle: "medium", timeStyle: "short" });
    document.getElementById("tx-draft-text").textContent = fmt(T.draft, { when: when, rows: rows });
    box.hidden = false;
    keepDraft = false;
    box.querySelector("[data-draft=resume]").focus();
    box.addEventListener("click", function (event) {
      var choice = event.target.closest("[data-draft]");
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
    state.rows = draft.rows.map(function (row) {
      return { entry: String(row.entry || ""), inversions: String(row.inversions || ""),
               lines: (Array.isArray(row.lines) ? row.lines : []).map(function (line) {
                 return Array.isArray(line) ? line.map(String) : ["", "", ""];
               }) };
    });
    if (!state.rows.length) { state.rows.push(emptyRow()); }
    ensureTrailingRow();
    setHeaderValues(draft.header);
    Object.keys(draft.header).forEach(function (name) { headerLeft[name] = true; });
    pendingFocus = state.rows.length - 1;
    scheduleCheck(0);
  }

  // -- typing ------------------------------------------------------------------------------
  grid.addEventListener("input", function (event) {
    var node = event.target;
    if (!node.dataset || !node.dataset.cell) { return; }
    var i = parseInt(node.dataset.row, 10);
    setCellValue(state.rows[i], node.dataset.cell, node.value);
    ensureTrailingRow();
    saveDraftSoon();
    scheduleCheck();
    editedAt[i] = version;
  });

  grid.addEventListener("keydown", function (event) {
    var node = event.target;
    if (!node.dataset || !node.dataset.cell || event.altKey || event.ctrlKey || event.metaKey) { return; }
    var i = parseInt(node.dataset.row, 10);
    if (event.key === "Enter") {
      event.preventDefault();
      ensureTrailingRow();
      var next = input(i + 1, "entry");
      scheduleCheck(0);
      if (next) { next.focus(); }
    } else if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      var j = i + (event.key === "ArrowDown" ? 1 : -1);
      var target = input(j, node.dataset.cell);
      if (target && target.disabled) { target = input(j, "entry"); }
      if (target) {
        event.preventDefault();
        target.focus();
      }
    }
  });

  grid.addEventListener("focusin", function (event) {
    var node = event.target;
    if (!node.dataset || !node.dataset.cell) { return; }
    var i = parseInt(node.dataset.row, 10);
    var previous = focusRow;
    focusRow = i;
    focusCell = node.dataset.cell;
    if (node.select && node.value) { node.select(); }
    if (previous !== i && previous >= 0 && previous < state.rows.length) { paintRow(previous); }
    paintRow(i);
  });

  grid.addEventListener("focusout", function (event) {
    var node = event.target;
    if (!node.dataset || !node.dataset.cell) { return; }
    left[node.dataset.row + ":" + node.dataset.cell] = true;
    window.setTimeout(function () {
      if (!grid.contains(document.activeElement)) {
        var previous = focusRow;
        focusRow = -1;
        focusCell = "";
        if (previous >= 0) { paintRow(previous); }
      }
    }, 0);
  });

  header.addEventListener("input", function () { saveDraftSoon(); scheduleCheck(); });
  header.addEventListener("change", function () { saveDraftSoon(); scheduleCheck(); });
  header.addEventListener("focusout", function (event) {
    if (event.target.name) { headerLeft[event.target.name] = true; }
    if (answer) { paintHeader(); }
  });
  header.addEventListener("keydown", function (event) {
    if (event.key !== "Enter" || event.target.tagName !== "INPUT") { return; }
    if (event.ctrlKey || event.metaKey) { return; }
    event.preventDefault();
    headerLeft[event.target.name] = true;
    // On to the grid: its first open row, once the answer has built it.
    pendingFocus = firstOpenRow() < 0 ? 0 : firstOpenRow();
    scheduleCheck(0);
  });

  // Ctrl+Enter (Cmd+Enter) anywhere on the page saves, as the button does.
  form.addEventListener("keydown", function (event) {
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      save();
    }
  });
  form.addEventListener("submit", function (event) { event.preventDefault(); });
  document.getElementById("tx-save").addEventListener("click", save);
  window.addEventListener("online", function () { scheduleCheck(0); });
  window.addEventListener("pagehide", saveDraft);

  // On a phone the legend would push the grid far down: folded, one tap away.
  var help = document.getElementById("tx-help");
  if (help && window.matchMedia && window.matchMedia("(max-width: 40rem)").matches) { help.open = false; }

  var draft = loadDraft();
  if (!draft || !offerDraft(draft)) {
    if (draft) { window.localStorage.removeItem(storageKey); }
    var players_input = header.querySelector("[name=players]");
    if (players_input && !players_input.value) { players_input.focus(); }
    scheduleCheck(0);
  }
})();
