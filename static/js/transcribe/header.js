// The head of the protocol (players, scorekeeper, season, …): its fields as sent and kept,
// their errors once a field has been left, and the echo of how the server read them.

import { firstShuffler } from "./answer.js";
import { el, fmt } from "./dom.js";

export function headerValues(tx) {
  const values = {};
  tx.header.querySelectorAll("input[name], select[name]").forEach((input) => {
    if (input.name === "csrfmiddlewaretoken") { return; }
    values[input.name] = input.type === "checkbox" ? (input.checked ? "on" : "") : input.value;
  });
  return values;
}

export function setHeaderValues(tx, values) {
  tx.header.querySelectorAll("input[name], select[name]").forEach((input) => {
    if (!(input.name in values)) { return; }
    if (input.type === "checkbox") { input.checked = values[input.name] === "on"; } else { input.value = values[input.name]; }
  });
}

export function paintHeader(tx) {
  const T = tx.T;
  const header = tx.header;
  const errors = tx.answer ? tx.answer.header.errors : {};
  header.querySelectorAll(".field-errors[id^=tx-err-]").forEach((slot) => {
    const name = slot.id.slice("tx-err-".length);
    const messages = errors[name] || [];
    const visible = tx.showAll || tx.headerLeft[name] || name === "__all__";
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
  if (!tx.answer || !tx.answer.header.players.length) { return; }
  const h = tx.answer.header;
  const seats = h.players.map((name, seat) => { return (seat + 1) + " " + name; }).join(" · ");
  const parts = [seats];
  if (h.scorekeeper) { parts.push(fmt(T.scorekeeper_is, { name: h.scorekeeper })); }
  const first = firstShuffler(tx);
  if (first) { parts.push(fmt(T.first_shuffler, { name: first })); }
  parts.push(h.season ? fmt(T.season_is, { name: h.season }) : T.no_season);
  echo.appendChild(el("span", {}, parts.join(" — ")));
  if (h.new_members.length) {
    echo.appendChild(el("strong", { class: "tx-echo__new" }, fmt(T.new_members, { names: h.new_members.join(", ") })));
  }
}
