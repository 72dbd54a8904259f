{% autoescape off %}// Trumpfbuch's service worker, served at /sw.js by protocol/offline/views.py from
// templates/offline/sw.js; CONFIG comes from protocol/offline/precache.py. Workbox, from
// the site itself (make vendor). It keeps
// - the precache: the pages' CSS and scripts, the offline modules, the icons, the rules pack,
//   each revisioned by content hash (a deploy that changes one refreshes it);
// - Pyodide, complete, once an entry page asked for it while online (a cache named by
//   Pyodide's own hash; every entry page asks again, missing files are fetched again);
// - the pages a Protokollant needs at the table, network first, so that a page opened once
//   opens again without network (at once offline; after settings.OFFLINE_NETWORK_TIMEOUT,
//   3 s, of a network that does not answer). Never a POST (but the page a save answers with,
//   kept under its own address), never the login page, never a redirect; cleared at logout
//   and when another user signs in on this browser. IndexedDB (the offline queue) is not
//   touched here;
// - an entry form's POST the server does not answer (a WLAN without internet: the phone thinks
//   it is online): its fields, for the page to check and queue (static/js/offline/entry.js), and
//   the page again from the kept ones. Nothing is asked before a POST.
const CONFIG = {{ config }};

importScripts(CONFIG.workbox + "workbox-sw.js");
workbox.setConfig({ modulePathPrefix: CONFIG.workbox, debug: false });
const { cacheableResponse, core, expiration, precaching, routing, strategies } = workbox;

const PAGES = "trumpfbuch-pages";
const UNSENT = "trumpfbuch-unsent";
// A save the server has not answered by then is kept on the phone (never sooner than a page is
// taken from the kept ones: settings.OFFLINE_NETWORK_TIMEOUT).
const SAVE_SECONDS = Math.max(10, CONFIG.networkTimeoutSeconds);
const USER = "trumpfbuch-user";
const USER_KEY = "/__trumpfbuch-user__";

core.setCacheNameDetails({ prefix: "trumpfbuch" });
self.skipWaiting();
core.clientsClaim();
precaching.cleanupOutdatedCaches();
// A file the page has just loaded is asked for again only conditionally (a bodiless 304 if it is
// unchanged), not downloaded a second time (Workbox bypasses the HTTP cache for a file listed with
// a revision); a file listed without one has its hash in its URL and comes from the HTTP cache.
precaching.addPlugins([{
  requestWillFetch: async ({ request }) => (request.cache === "reload" ? new Request(request, { cache: "no-cache" }) : request),
}]);
precaching.precacheAndRoute(CONFIG.precache);

// The pages kept for the table: the overview, a club, "Neue Partie", a match page and its
// entry pages (Spiel, Strafe, Ende, Korrektur). protokoll.json is fetched, not navigated to.
const MATCH = "/verein/[^/]+/partien/[0-9]+/";
const PAGE_PATHS = [/^\/$/, /^\/verein\/[^/]+\/$/, /^\/verein\/[^/]+\/partien\/neu\/$/,
  new RegExp(`^${MATCH}(spiel/|strafe/|ende/|eintrag/[0-9]+/korrigieren/)?$`)];
const DOCUMENT_PATH = new RegExp(`^${MATCH}protokoll\\.json$`);
const ENTRY_PATH = new RegExp(`^${MATCH}(spiel/|strafe/|ende/|eintrag/[0-9]+/korrigieren/)$`);

function isPage(url) {
  return url.origin === self.location.origin && PAGE_PATHS.some((path) => path.test(url.pathname));
}

function isDocument(url) {
  return url.origin === self.location.origin && DOCUMENT_PATH.test(url.pathname);
}

// Each logout and each change of user starts a new generation of kept pages: a page fetched
// before it and written after it (a slow write on a busy phone) is not kept for the next one.
let generation = 0;

function newGeneration() {
  generation += 1;
  return caches.delete(PAGES);
}

// Only a page that was really shown: 200, not redirected (an expired session's redirect to
// the login), not the login page itself; fetched in the current generation.
const onlyShownPages = {
  requestWillFetch: async ({ request, state }) => {
    if (state) state.generation = generation;
    return request;
  },
  cacheWillUpdate: async ({ response, state }) =>
    response && response.status === 200 && !response.redirected && response.type !== "opaqueredirect"
      && new URL(response.url).pathname !== CONFIG.login
      && !(state && state.generation !== undefined && state.generation !== generation) ? response : null,
};

const pages = new strategies.NetworkFirst({
  cacheName: PAGES,
  networkTimeoutSeconds: CONFIG.networkTimeoutSeconds,  // settings.OFFLINE_NETWORK_TIMEOUT
  matchOptions: { ignoreVary: true },  // Vary: Cookie, Accept-Language: one user per browser (see USER)
  plugins: [onlyShownPages, new expiration.ExpirationPlugin({ maxEntries: 60, maxAgeSeconds: 14 * 24 * 3600 })],
});
routing.registerRoute(({ request, url }) => (request.mode === "navigate" && isPage(url)) || isDocument(url), pages);

// Pyodide's files are found whatever headers or query the page's request carries (WhiteNoise
// answers with Vary: Accept-Encoding; a file is one file here).
const PYODIDE_MATCH = { ignoreVary: true, ignoreSearch: true };

routing.registerRoute(
  ({ url }) => url.origin === self.location.origin && url.pathname.startsWith(CONFIG.pyodide.prefix),
  new strategies.CacheFirst({
    cacheName: CONFIG.pyodide.cache,
    matchOptions: PYODIDE_MATCH,
    plugins: [new cacheableResponse.CacheableResponsePlugin({ statuses: [200] })],
  }));

// Logging out drops the kept pages (the POST itself goes to the network as always). An entry
// form's POST goes to the network too; only when no answer comes (a network error, or none in
// SAVE_SECONDS) its fields are kept for the page, which is shown again (from the kept pages when
// the network is still away). Sent again later, the entry is stored once: its submission id.
self.addEventListener("fetch", (event) => {
  const { request } = event;
  const url = new URL(request.url);
  if (request.method !== "POST" || url.origin !== self.location.origin) return;
  if (url.pathname === CONFIG.logout) {
    event.waitUntil(newGeneration());
  } else if (request.mode === "navigate" && ENTRY_PATH.test(url.pathname)) {
    event.respondWith(sendOrKeep(request, event));
  }
});

async function sendOrKeep(request, event) {
  const fields = request.clone();
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), SAVE_SECONDS * 1000);
  const started = generation;  // a logout while the save is under way: its answer is not kept
  try {
    const response = await fetch(request, { signal: controller.signal });
    event.waitUntil(keepAnswer(request, response, started));
    return response;
  } catch (error) {
    const page = new URL(request.url);
    await (await caches.open(UNSENT)).put(page.href, new Response(await fields.text()));
    return Response.redirect(page.href, 303);
  } finally {
    clearTimeout(timer);
  }
}

self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys().then((names) => Promise.all(names
    .filter((name) => name.startsWith("trumpfbuch-pyodide-") && name !== CONFIG.pyodide.cache)
    .map((name) => caches.delete(name)))));
});

// Another user on this browser: the pages of the one before are dropped.
async function forUser(id) {
  const cache = await caches.open(USER);
  const known = await cache.match(USER_KEY);
  if (!known || (await known.text()) !== id) {
    await newGeneration();
    await cache.put(USER_KEY, new Response(id));
  }
}

// A save answers with the page it leads to (the match page, its address in Content-Location):
// kept as that page, as its GET would have been.
async function keepAnswer(request, response, started) {
  const address = response.headers.get("Content-Location");
  if (response.status !== 200 || !address || started !== generation) return;
  const url = new URL(address, request.url);
  if (url.origin !== self.location.origin || !isPage(url)) return;
  const copy = response.clone();
  const page = new Response(await copy.blob(), { status: 200, statusText: copy.statusText, headers: copy.headers });
  if (started === generation) await (await caches.open(PAGES)).put(url.href, page);
}

// A page shown before this worker controlled it (the first visit): kept all the same, from the
// browser's HTTP cache where it has just been loaded (``shown``), not fetched a second time.
async function keepPage(href, shown = false) {
  const url = new URL(href);
  if (!isPage(url)) return;
  const started = generation;
  const response = await fetch(url.href, { credentials: "same-origin", cache: shown ? "force-cache" : "default" });
  const keep = await onlyShownPages.cacheWillUpdate({ response });
  if (keep && started === generation) await (await caches.open(PAGES)).put(url.href, keep);
}

// All of Pyodide, asked for by every entry page while online (static/js/offline/engine.js,
// keepEngine): each file that is not in the cache (never kept, or lost) is fetched again, each
// on its own, so that one failed download leaves the others, and all at once (one after the
// other, each would wait a round trip the link could use). Answers the URLs still missing
// ([] = the engine starts offline).
async function cacheEngine() {
  const cache = await caches.open(CONFIG.pyodide.cache);
  const kept = await Promise.all(CONFIG.pyodide.urls.map(async (url) => {
    if (await cache.match(url, PYODIDE_MATCH)) return true;
    return cache.add(url).then(() => true, () => false);
  }));
  return CONFIG.pyodide.urls.filter((url, i) => !kept[i]);
}

// "Neue Partie" of the club whose page or Partie is shown, kept before it is first opened
// (the club's members may start one; for anyone else the server says 403, nothing is kept).
async function keepNewMatch(href) {
  const club = new URL(href).pathname.match(/^\/verein\/([^/]+)\//);
  if (!club) return;
  const url = new URL(`/verein/${club[1]}/partien/neu/`, self.location.origin).href;
  if (!(await (await caches.open(PAGES)).match(url, { ignoreVary: true }))) await keepPage(url);
}

self.addEventListener("message", (event) => {
  const message = event.data || {};
  if (message.type === "hello") {
    event.waitUntil(forUser(String(message.user))
      .then(() => (message.controlled ? null : keepPage(message.page, true)))
      .then(() => keepNewMatch(message.page)));
  } else if (message.type === "cache-engine") {
    const reply = event.ports[0];
    event.waitUntil(cacheEngine().then(
      (missing) => reply && reply.postMessage({ missing }),
      (error) => reply && reply.postMessage({ missing: CONFIG.pyodide.urls, error: String(error) })));
  }
});
{% endautoescape %}
