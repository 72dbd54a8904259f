// Talking to the server: the whole sheet as the check and the save endpoints take it (header
// fields and every cell as typed), the request, its answer, and what a failed one shows.

import { rowPlayers } from "./answer.js";
import { headerValues } from "./header.js";
import { paintSummary } from "./summary.js";

export function sheetPayload(tx) {
  const players = tx.players;
  const rows = tx.sheet.rows.map((row, i) => {
    const playing = rowPlayers(tx, i);
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
  return { token: tx.sheet.token, header: headerValues(tx), rows: rows };
}

export function post(tx, url, body, signal) {
  return fetch(url, {
    method: "POST", credentials: "same-origin", redirect: "manual", signal: signal,
    headers: { "Content-Type": "application/json", "X-CSRFToken": tx.csrf, "Accept": "application/json" },
    body: JSON.stringify(body)
  });
}

export function reply(response) {
  if (response.type === "opaqueredirect" || response.status === 302 || response.status === 403) {
    throw new Error("session");
  }
  return response.json().catch(() => { throw new Error("failed"); }).then((data) => {
    return { status: response.status, data: data };
  });
}

export function failure(tx, error) {
  const key = error && error.message === "session" ? "session" : (navigator.onLine === false || error instanceof TypeError) ? "offline" : "failed";
  paintSummary(tx, tx.T[key]);
}
