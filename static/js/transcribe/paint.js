// Painting the server's answer into the grid: per row its state, number and Mischer, who
// plays, the labels, the scores and running totals, the reading of the entry, its errors
// (./errors.js); between rows the banners of a decided Partie and of a Stechen.

import { firstOpenRow, labelFor, rowAnswer, rowKind, rowPlayers } from "./answer.js";
import { el, fmt, input, setLabel, signed } from "./dom.js";
import { paintErrors } from "./errors.js";
import { numberCells } from "./sheet.js";

export function paint(tx) {
  if (!tx.players.length) { return; }
  tx.grid.querySelectorAll("tbody.tx-banner").forEach((node) => { node.remove(); });
  for (let i = 0; i < tx.sheet.rows.length; i++) { paintRow(tx, i); }
  paintBanners(tx);
}

export function paintRow(tx, i) {
  const T = tx.T;
  const answer = tx.answer;
  const body = tx.grid.querySelector('tbody[data-row="' + i + '"]');
  if (!body) { return; }
  const r = rowAnswer(tx, i);
  const kind = rowKind(tx, i);
  const playing = rowPlayers(tx, i);
  const label = labelFor(tx, i);
  const open = firstOpenRow(tx) === i;
  body.className = "tx-row is-" + (r ? r.state : "empty") + (kind !== "game" ? " is-" + kind : "") +
    (r && r.stage ? " is-stechen" : (open && answer && answer.next && answer.next.stage ? " is-stechen" : "")) +
    (r && r.annulled ? " is-annulled" : "") + (tx.sheet.rows[i].points ? " is-points" : "") +
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
  mode.setAttribute("aria-pressed", String(tx.sheet.rows[i].points));
  setLabel(mode, label + ", " + T.points_only);
  setLabel(input(tx, i, "entry"), label + ", " + T.entry);
  setLabel(input(tx, i, "inversions"), label + ", " + T.inversions);
  let refocus = false;
  input(tx, i, "inversions").disabled = kind !== "game";
  tx.players.forEach((name, seat) => {
    const td = body.querySelector('td[data-seat="' + seat + '"]');
    const off = kind !== "game" || (playing !== null && playing.indexOf(name) < 0);
    td.classList.toggle("is-off", off);
    td.title = off && kind === "game" ? name + ": " + T.not_playing : "";
    numberCells(tx.sheet.rows[i], seat).forEach((name_) => {
      const node = input(tx, i, name_);
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
    const first = body.querySelector("input.tx-in--num:not([disabled])") || input(tx, i, "entry");
    first.focus();
  }
  const echo = body.querySelector(".tx-echo");
  echo.textContent = r && r.reading ? r.reading : "";
  paintErrors(tx, i, body, r);
}

function paintBanners(tx) {
  if (!tx.answer) { return; }
  tx.answer.rows.forEach((r, i) => {
    const after = tx.grid.querySelector('tbody[data-row="' + i + '"]');
    if (!after) { return; }
    const texts = [];
    if (r.decides) {
      texts.push(["tx-banner--won", r.decides.winner ? fmt(tx.T.winner, { name: r.decides.winner }) + " " + r.decides.ended_by : r.decides.ended_by]);
    }
    if (r.opens && r.opens.text) { texts.push(["tx-banner--stechen", r.opens.text]); }
    texts.reverse().forEach((item) => {
      const banner = el("tbody", { class: "tx-banner " + item[0] });
      const tr = el("tr");
      const td = el("td", { colspan: String(tx.players.length + 3) });
      td.appendChild(el("span", { class: "tx-banner__text" }, item[1]));
      tr.appendChild(td);
      banner.appendChild(tr);
      after.after(banner);
    });
  });
}
