// The rules engine in the browser, for the table without network: the very Python of protocol/rules, run by
// Pyodide, so that offline the preview, every error with its article, the totals, the
// Mischer and the Stechen come from the same code as on the server. No second implementation.
//
//   import { loadEngine } from "./engine.js";
//   const engine = await loadEngine();          // once per page; later calls get the same engine
//   engine.check(documentObject)                 // = python -m protocol.rules check (its JSON)
//   engine.call("protocol.entry_form", "is_complete", ruleset, fields, players, seats) // any pure function of the engine, JSON in/out
//
// Pyodide comes from /static/vendor/pyodide/ (make vendor; beside this file's folder, so the
// URL holds under collectstatic too), the rules pack from <meta name="trumpfbuch-rules">
// (templates/base.html), all asked for at once (see PRELOADED). Nothing else is fetched, not
// even Pyodide's package lock file (NO_PACKAGES). When loaded, <html data-engine="ready"> is set
// and window receives the event "trumpfbuch:engine-ready" (detail: the engine). Pyodide runs on
// the page's own thread: an evaluation takes ~100 ms, a worker thread would cost more in
// messages than it saves.
//
// The match page and the entry pages start it in the background (./warm.js, startWhenIdle) once
// the page has done its own work and the phone is idle: when the network drops the engine is
// already there, and the first check answers at once instead of after Pyodide's start (seconds).

const PYODIDE_URL = new URL("../../vendor/pyodide/", import.meta.url).href;
const PACK_DIR = "/home/pyodide/trumpfbuch";  // where the rules pack is unpacked, first on sys.path

let loading = null;

export function loadEngine() {
  if (!loading) {
    loading = start().catch((error) => {
      loading = null;  // a failed load (offline before the first visit) may be tried again
      throw error;
    });
  }
  return loading;
}

async function fetchPack() {
  const meta = document.querySelector('meta[name="trumpfbuch-rules"]');
  if (!meta) throw new Error("Das Regelpaket ist auf dieser Seite nicht angegeben.");
  const response = await fetch(meta.content, { credentials: "same-origin" });
  if (!response.ok) throw new Error(`Das Regelpaket konnte nicht geladen werden (${response.status}).`);
  return response.arrayBuffer();
}

// Pyodide's lock file names the packages it could install; the rules install none, so the
// engine does not fetch it (120 kB): an empty list with the ABI of the Pyodide in
// static/vendor/pyodide (Pyodide checks it; tests/unit/test_offline_pack.py compares it).
const NO_PACKAGES = {"info": {"abi_version": "2026_0", "arch": "wasm32", "platform": "emscripten_5_0_3", "python": "3.14.2"}, "packages": {}};

// Pyodide's files, asked for at once and in the order they are needed, by <link rel="preload">
// (whose answers the loader's own fetches and imports of the same URLs take over): the loader,
// Emscripten's module (handed to the loader, which would import it only after itself), the
// WebAssembly (compiled as it streams in), the standard library (read once the WebAssembly runs).
// Instead of a round trip after the loader came, and a small script stuck behind 3 MB.
const PRELOADED = [["pyodide.mjs", "modulepreload"], ["pyodide.asm.mjs", "modulepreload"],
  ["pyodide.asm.wasm", "preload"], ["python_stdlib.zip", "preload"]];

function preload([name, rel]) {
  const href = PYODIDE_URL + name;
  if (document.head.querySelector(`link[href="${href}"]`)) return;
  const link = Object.assign(document.createElement("link"), { rel, href });
  if (rel === "preload") Object.assign(link, { as: "fetch", crossOrigin: "anonymous" });
  document.head.append(link);
}

async function start() {
  PRELOADED.forEach(preload);
  const pack = fetchPack();  // last: read once Python runs
  pack.catch(() => {});  // awaited below; a failure then fails the load
  const [{ loadPyodide }, { default: createPyodideModule }] = await Promise.all([
    import(PYODIDE_URL + "pyodide.mjs"), import(PYODIDE_URL + "pyodide.asm.mjs")]);
  const pyodide = await loadPyodide({ indexURL: PYODIDE_URL, createPyodideModule, lockFileContents: NO_PACKAGES,
                                      packageBaseUrl: PYODIDE_URL });
  pyodide.unpackArchive(await pack, "zip", { extractDir: PACK_DIR });
  pyodide.runPython(`import sys\nif ${JSON.stringify(PACK_DIR)} not in sys.path: sys.path.insert(0, ${JSON.stringify(PACK_DIR)})`);
  const bridge = pyodide.pyimport("protocol.offline.bridge");
  bridge.use_language(document.documentElement.lang || "de");  // the engine's words as the site's locale/

  function call(module, functionName, ...args) {
    const answer = JSON.parse(bridge.call(module, functionName, JSON.stringify(args)));
    if ("error" in answer) throw new Error(answer.error);
    return answer.value;
  }

  const engine = {
    call,
    check: (documentObject) => call("protocol.rules.check", "evaluate_document", documentObject),
    prepare: () => bridge.prepare().toJs(),  // the entry pages' modules imported ahead of the first check
    pyodide,
  };
  document.documentElement.dataset.engine = "ready";
  window.dispatchEvent(new CustomEvent("trumpfbuch:engine-ready", { detail: engine }));
  keepOffline();
  return engine;
}

const IDLE_WAIT_MS = 3_000;  // the longest a busy page makes the engine wait for an idle moment

function idle() {
  return new Promise((resolve) => {
    if (window.requestIdleCallback) window.requestIdleCallback(resolve, { timeout: IDLE_WAIT_MS });
    else window.setTimeout(resolve, 200);
  });
}

const QUIET_MS = 4_000;  // Pyodide's start holds the page's thread: not while the Protokollant types
const INPUTS = ["pointerdown", "keydown", "input", "touchstart", "focusin"];
let lastInput = performance.now();
for (const kind of INPUTS) window.addEventListener(kind, () => { lastInput = performance.now(); }, { capture: true, passive: true });

/** Resolves once nobody has touched the page for QUIET_MS (checked again after each touch). */
function quiet() {
  return new Promise((resolve) => {
    const wait = () => {
      const left = QUIET_MS - (performance.now() - lastInput);
      if (left <= 0) resolve();
      else window.setTimeout(wait, left);
    };
    wait();
  });
}

/** Starts the engine in the background, after the page's load event, at the phone's next idle
 * moment once nobody has touched the page for a few seconds. Online with a service worker, the worker first keeps every Pyodide file (one download,
 * see keepEngine), and the engine starts from its cache. Resolves the engine, or null when it
 * cannot start (offline before Pyodide was ever kept: the page works on without it). */
export async function startWhenIdle() {
  if (document.readyState !== "complete") {
    await new Promise((resolve) => window.addEventListener("load", resolve, { once: true }));
  }
  await idle();
  if (navigator.onLine !== false) await keepEngine().catch(() => false);
  await quiet();
  await idle();
  const engine = await loadEngine().catch(() => null);
  if (engine) {
    await idle();
    try {
      engine.prepare();
    } catch (error) { /* the first check imports what it needs itself */ }
  }
  return engine;
}

// The service worker (templates/offline/sw.js) keeps Pyodide from now on, also the files
// this page loaded before the worker took control.
function keepOffline() {
  keepEngine().catch(() => {});
}

let keeping = null;

/** Asks the service worker to have every Pyodide file in its cache (it fetches what is missing)
 * and resolves true only when all are there: the engine will start offline. Sets
 * <html data-engine-kept="true|false"> and sends window the event "trumpfbuch:engine-kept"
 * (detail: {kept, missing}). False without a worker (nothing is kept then). Asked twice at once
 * (the page's script and the background start), the worker is asked once: one download. */
export function keepEngine() {
  if (!keeping) keeping = askWorkerToKeep().finally(() => { keeping = null; });
  return keeping;
}

async function askWorkerToKeep() {
  const worker = navigator.serviceWorker;
  let missing = null;
  if (worker && (await worker.getRegistration())) {
    const registration = await worker.ready;
    const answer = await new Promise((resolve) => {
      const channel = new MessageChannel();
      channel.port1.onmessage = (event) => resolve(event.data || {});
      registration.active.postMessage({ type: "cache-engine" }, [channel.port2]);
    });
    missing = answer.missing || [];
  }
  const kept = Array.isArray(missing) && missing.length === 0;
  document.documentElement.dataset.engineKept = String(kept);
  window.dispatchEvent(new CustomEvent("trumpfbuch:engine-kept", { detail: { kept, missing } }));
  return kept;
}
