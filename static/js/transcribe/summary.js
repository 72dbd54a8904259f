// The summary under the grid: the Partie's state (running, Stechen, won), the standing of
// each stage, and whether the match can be saved (or the message of a failed request).

import { el, fmt } from "./dom.js";

export function paintSummary(tx, message) {
  const T = tx.T;
  const answer = tx.answer;
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
