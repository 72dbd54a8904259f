// Registers the service worker (/sw.js, templates/offline/sw.js) for a signed-in user and
// tells it who is signed in (another user: the pages kept for the one before are dropped)
// and which page is shown (kept if shown before the worker took control; its club's
// "Neue Partie" kept too). At logout the kept pages are dropped; the offline queue
// (IndexedDB) stays.
(function () {
  "use strict";
  if (!("serviceWorker" in navigator)) return;
  const script = document.currentScript;  // data-worker: the worker's URL; data-user: who is signed in
  if (!script) return;
  const user = script.dataset.user || "";
  const PAGES = "trumpfbuch-pages";
  const controlled = Boolean(navigator.serviceWorker.controller);

  navigator.serviceWorker.register(script.dataset.worker, { scope: "/" })
    .then(() => navigator.serviceWorker.ready)
    .then((registration) => {
      registration.active.postMessage({ type: "hello", user, page: window.location.href, controlled });
    })
    .catch(() => {});  // no worker (private mode, http on a LAN address): the site works online as before

  // Logging out: the worker drops the kept pages when it sees the POST; here too, at once
  // (the form is sent as always, nothing waits for this).
  document.addEventListener("submit", (event) => {
    if (event.target.matches("form[data-logout]") && "caches" in window) caches.delete(PAGES).catch(() => {});
  });
})();
