// The live board (templates/league/publishing/live.html) follows the tournament without
// reloads: it asks for the board every few seconds with the ETag it shows, an unchanged board
// is a bodiless 304; when the network drops it keeps the last board with the time it is from.
// On a wide screen a list longer than its data-rotate turns its pages every ten seconds. The
// round's clock counts down here (./round_clock.js), offline too; a new board brings it anew.
import { countDown } from "./round_clock.js";

const POLL_MS = 4000;
const PAGE_MS = 10000;
const WIDE = window.matchMedia("(min-width: 75rem)");

const main = document.querySelector("[data-live-source]");
const board = document.getElementById("live-board");
const notice = document.querySelector("[data-live-notice]");
let etag = main && main.getAttribute("data-live-etag");  // the board the page came with
let asOf = new Date();
let turn = 0;

function clock(date) {
  return String(date.getHours()).padStart(2, "0") + ":" + String(date.getMinutes()).padStart(2, "0");
}

function showPages() {
  board.querySelectorAll("[data-rotate]").forEach((list) => {
    const items = Array.from(list.tBodies ? list.tBodies[0].rows : list.children);
    const size = parseInt(list.getAttribute("data-rotate"), 10);
    const pages = WIDE.matches ? Math.ceil(items.length / size) : 1;
    const page = pages > 1 ? turn % pages : 0;
    items.forEach((item, i) => { item.hidden = pages > 1 && Math.floor(i / size) !== page; });
    const label = list.closest("section").querySelector("[data-live-page]");
    if (label) { label.textContent = pages > 1 ? `${page + 1}/${pages}` : ""; }
  });
}

function connected(ok) {
  if (ok) { asOf = new Date(); }
  notice.hidden = ok;
  if (!ok) { notice.textContent = notice.getAttribute("data-message").replace("{time}", clock(asOf)); }
}

async function poll() {
  try {
    const headers = etag ? { "If-None-Match": etag } : {};
    const response = await fetch(main.getAttribute("data-live-source"), { headers, cache: "no-store" });
    if (response.status === 200) {
      const html = await response.text();
      etag = response.headers.get("ETag");
      board.innerHTML = html;
      board.querySelectorAll("[data-round-clock][data-seconds-left]").forEach(countDown);
      showPages();
    } else if (response.status !== 304) {
      throw new Error(String(response.status));
    }
    connected(true);
  } catch (error) {
    connected(false);  // the last board stays as it was
  }
  window.setTimeout(poll, POLL_MS);
}

if (main && board && notice) {
  showPages();
  WIDE.addEventListener("change", showPages);
  window.setInterval(() => { turn += 1; showPages(); }, PAGE_MS);
  window.setTimeout(poll, POLL_MS);
}
