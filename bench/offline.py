"""The offline pack in chromium, for ``make bench``:

    python bench/offline.py [--runs 5] [--json OUT]

- **size**: the bytes a phone keeps to run the engine offline: Pyodide's files
  (static/vendor/pyodide, ``make vendor``) plus the rules pack (protocol/offline/pack.py);
- **cold load**: ``loadEngine()`` (static/js/offline/engine.js) in a fresh browser context
  (no HTTP cache, no service worker): Pyodide fetched from the local server, compiled,
  started, the rules pack unpacked;
- **warm load**: the same on a reloaded page whose service worker serves Pyodide and the
  pack from its caches (the second visit at the table, online or not);
- **per keystroke**: ``engine.check`` of a 12-Spiel Partie plus the Spiel being entered
  (what the live preview evaluates offline), median of ``--runs`` x 10 after one warm-up;
- **on 4G** (a phone at the table: 9 Mbit/s down, 3 up, 170 ms round trip, through the
  throttling proxy bench/throttle.py between chromium and the server): the cold load and the
  bytes it took over the link (compressed as sent, headers included; target at most 4 MB and
  5 s), the warm load, and the first check after the network drops: on a page that started the
  engine in the background when idle (static/js/offline/warm.js, as the match and entry pages
  do), and, for comparison, on one that starts it only then (Pyodide from the worker's cache).

Serves as in production: ``collectstatic`` (WhiteNoise's compressed copies, config/storage.py)
into a throw-away folder, ``manage.py runserver`` with DEBUG off (a throw-away SQLite file) on a
free loopback port, and Debian's chromium through Playwright. Without chromium, Pyodide or
Playwright it prints why and writes ``{"note": ...}``.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
PYODIDE = ROOT / "static" / "vendor" / "pyodide"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
PHONE_LINK = {"down_mbps": 9, "up_mbps": 3, "rtt_ms": 170}  # 4G at a club's table
WIRE_TARGET = 4_000_000  # bytes of the cold load over the link
COLD_TARGET_MS = 5_000  # the cold load on 4G
FIRST_CHECK_TARGET_MS = 1_000  # the first check after the network drops
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking"]

LOAD = """async () => {
  const started = performance.now();
  const { loadEngine } = await import("/static/js/offline/engine.js");
  window.engine = await loadEngine();
  return performance.now() - started;
}"""
REGISTER = """async () => {
  await navigator.serviceWorker.register("/sw.js", { scope: "/" });
  await navigator.serviceWorker.ready;
}"""
PYODIDE_KEPT = """async () => {
  const names = (await caches.keys()).filter((n) => n.startsWith("trumpfbuch-pyodide-"));
  return names.length === 1 && (await (await caches.open(names[0])).keys()).length === 5;
}"""
# The cold load, and when the last byte of Pyodide and the rules pack had come (the rest is
# the phone's work: compiling the WebAssembly, starting Python, importing the rules).
LOAD_OVER_LINK = """async () => {
  const started = performance.now();
  const { loadEngine } = await import("/static/js/offline/engine.js");
  window.engine = await loadEngine();
  const done = performance.now();
  const fetched = performance.getEntriesByType("resource")
    .filter((entry) => entry.name.includes("/vendor/pyodide/") || entry.name.includes("/offline/regeln-"))
    .map((entry) => entry.responseEnd);
  return [done - started, Math.max(...fetched) - started];
}"""
# The background start of the match and entry pages (warm.js), then the network drops.
IN_BACKGROUND = """async () => {
  const { startWhenIdle } = await import("/static/js/offline/engine.js");
  window.engine = await startWhenIdle();
  return Boolean(window.engine);
}"""
FIRST_CHECK = """(document) => {
  const started = performance.now();
  window.engine.check(document);
  return performance.now() - started;
}"""
# The engine started only when the first check needs it (Pyodide from the worker's cache).
STARTED_LAZILY = """async (document) => {
  const started = performance.now();
  const { loadEngine } = await import("/static/js/offline/engine.js");
  (await loadEngine()).check(document);
  return performance.now() - started;
}"""
KEYSTROKES = """([document, runs]) => {
  window.engine.check(document);  // warm-up: the first call imports the ruleset
  const times = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    window.engine.check(document);
    times.push(performance.now() - started);
  }
  return times;
}"""


def pack_size() -> dict:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    from protocol.offline import pack, precache

    pyodide = sum((PYODIDE / name).stat().st_size for name in precache.PYODIDE_FILES)
    rules = len(pack.current().data)
    return {"pyodide_bytes": pyodide, "rules_pack_bytes": rules, "total_bytes": pyodide + rules}


def keystroke_document() -> dict:
    """A Partie of four after 12 Spiele, plus the 13th being entered."""
    import random

    from protocol.games.chaotentrumpf.simulation import simulate_match

    document = simulate_match(["Anna", "Bernd", "Carla", "Dieter"], random.Random(12), stop_after=40,
                              penalty_rate=0, warning_rate=0, annul_rate=0)
    document["events"] = document["events"][:13]
    return document


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(tmp: str):
    """runserver with DEBUG off: WhiteNoise serves the collected, precompressed static files."""
    port = free_port()
    env = os.environ | {"DEBUG": "false", "SECRET_KEY": "bench-only", "ALLOWED_HOSTS": "127.0.0.1,localhost",
                        "SECURE_COOKIES": "false", "STATIC_ROOT": f"{tmp}/static",
                        "DATABASE_URL": f"sqlite:///{tmp}/offline.sqlite3", "AXES_ENABLED": "false"}
    subprocess.run([sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"], cwd=ROOT, env=env, check=True)
    server = subprocess.Popen([sys.executable, "manage.py", "runserver", f"127.0.0.1:{port}", "--noreload"],
                              cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    for _ in range(120):
        try:
            urllib.request.urlopen(base + "/konto/login/", timeout=2)
            return server, base
        except OSError:
            time.sleep(0.25)
    server.terminate()
    raise RuntimeError("runserver did not answer")


def spread(values: list[float]) -> dict:
    q = statistics.quantiles(values, n=4) if len(values) > 1 else [values[0]] * 3
    return {"median_ms": round(statistics.median(values), 1), "p25_ms": round(q[0], 1), "p75_ms": round(q[2], 1),
            "runs": len(values)}


def new_page(browser, encodings: dict | None = None):
    context = browser.new_context()
    page = context.new_page()
    page.set_default_timeout(120_000)
    if encodings is not None:  # how each of Pyodide's files came: br, gzip or as is
        page.on("response", lambda r: encodings.__setitem__(r.url.rsplit("/", 1)[-1],
                                                            r.headers.get("content-encoding", "none"))
                if "/vendor/pyodide/" in r.url else None)
    return context, page


def renderer_cpu(cdp) -> float:
    """CPU seconds of every renderer process of the browser so far (one page open: its own)."""
    info = cdp.send("SystemInfo.getProcessInfo")["processInfo"]
    return sum(process["cpuTime"] for process in info if process["type"] == "renderer")


def keep_engine(page, base):
    """The second visit's state: the worker registered, Pyodide and the pack in its caches."""
    page.goto(base + "/konto/login/")
    page.evaluate(REGISTER)
    page.evaluate(LOAD)
    page.wait_for_function(PYODIDE_KEPT)


def measure(runs: int) -> dict:
    from playwright.sync_api import sync_playwright

    result = pack_size()
    document = keystroke_document()
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as p:
        server, base = start_server(tmp)
        browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        try:
            cold = []
            for _ in range(runs):
                context, page = new_page(browser)
                page.goto(base + "/konto/login/")
                cold.append(page.evaluate(LOAD))
                context.close()
            context, page = new_page(browser)
            keep_engine(page, base)
            warm = []
            for _ in range(runs):
                page.reload()
                page.wait_for_function("() => navigator.serviceWorker.controller !== null")
                warm.append(page.evaluate(LOAD))
            keystrokes = page.evaluate(KEYSTROKES, [document, runs * 10])
            context.close()
            phone = on_4g(browser, base, document, runs)
        finally:
            browser.close()
            server.terminate()
            server.wait(timeout=10)
    result |= {"cold": spread(cold), "warm": spread(warm), "keystroke": spread(keystrokes),
               "keystroke_games": sum(1 for e in document["events"] if "game" in e), "4g": phone}
    return result


def on_4g(browser, base: str, document: dict, runs: int) -> dict:
    """The figures of a phone at the table: everything through the throttling proxy."""
    from bench.throttle import Throttle

    host, port = base.removeprefix("http://").rsplit(":", 1)
    throttle = Throttle((host, int(port)), **PHONE_LINK)
    phone = f"http://127.0.0.1:{throttle.start()}"
    cdp = browser.new_browser_cdp_session()
    try:
        cold, transfer, cpu, wire, encodings = [], [], [], [], {}
        for _ in range(runs):
            context, page = new_page(browser, encodings)
            page.goto(phone + "/konto/login/")
            throttle.reset()
            before = renderer_cpu(cdp)
            loaded, fetched = page.evaluate(LOAD_OVER_LINK)
            cpu.append((renderer_cpu(cdp) - before) * 1000)
            cold.append(loaded)
            transfer.append(fetched)
            wire.append(throttle.down.bytes + throttle.up.bytes)
            context.close()
        context, page = new_page(browser)
        keep_engine(page, phone)
        warm, warm_wire, first, lazily = [], [], [], []
        for _ in range(runs):
            page.reload()
            page.wait_for_function("() => navigator.serviceWorker.controller !== null")
            throttle.reset()
            warm.append(page.evaluate(LOAD))
            warm_wire.append(throttle.down.bytes + throttle.up.bytes)
        for _ in range(runs):
            page.reload()
            page.wait_for_function("() => navigator.serviceWorker.controller !== null")
            assert page.evaluate(IN_BACKGROUND)
            context.set_offline(True)
            first.append(page.evaluate(FIRST_CHECK, document))
            context.set_offline(False)
            page.reload()
            page.wait_for_function("() => navigator.serviceWorker.controller !== null")
            context.set_offline(True)
            lazily.append(page.evaluate(STARTED_LAZILY, document))
            context.set_offline(False)
        context.close()
    finally:
        throttle.stop()
    return {"link": PHONE_LINK, "cold": spread(cold), "cold_transfer": spread(transfer), "cold_cpu": spread(cpu),
            "wire_bytes": int(statistics.median(wire)), "encodings": dict(sorted(encodings.items())),
            "warm": spread(warm), "warm_wire_bytes": int(statistics.median(warm_wire)),
            "first_check": spread(first), "first_check_started_lazily": spread(lazily)}


def why_not() -> str | None:
    if not os.path.exists(CHROMIUM):
        return f"offline pack not measured: chromium not found at {CHROMIUM} (apt-get install chromium)"
    if not (PYODIDE / "pyodide.mjs").exists():
        return "offline pack not measured: static/vendor/pyodide is missing (make vendor)"
    try:
        import playwright  # noqa: F401
    except ImportError:
        return "offline pack not measured: Playwright is not installed (make dev-venv)"
    return None


def run(runs: int = 5) -> dict:
    reason = why_not()
    if reason:
        return {"note": reason}
    try:
        return measure(runs)
    except Exception as exc:  # noqa: BLE001 - the bench goes on; the table says why
        return {"note": f"offline pack not measured: {type(exc).__name__}: {exc}"}


def rows(offline: dict) -> list[tuple]:
    """Lines for bench/run.py's table (same columns)."""
    if not offline or "note" in offline:  # --skip-offline: nothing measured
        return []

    def ms(s):
        return f"{s['median_ms']:.0f} ms [{s['p25_ms']:.0f}–{s['p75_ms']:.0f}], {s['runs']} runs"

    mb = offline["total_bytes"] / 1e6
    key = offline["keystroke"]
    return [
        ("offline pack: size", "chromium", "-",
         f"{offline['total_bytes']:,} bytes ({mb:.1f} MB: Pyodide {offline['pyodide_bytes']:,} + rules pack "
         f"{offline['rules_pack_bytes']:,})".replace(",", "."), "", "", ""),
        ("offline pack: cold load (fresh context)", "chromium", "-", ms(offline["cold"]), "", "", ""),
        ("offline pack: warm load (service worker cache)", "chromium", "-", ms(offline["warm"]), "", "", ""),
        (f"offline: engine per keystroke ({offline['keystroke_games'] - 1} Spiele + 1)", "chromium", "-",
         ms(key), "", "< 200 ms", "yes" if key["median_ms"] < 200 else "NO"),
    ] + phone_rows(offline.get("4g"), ms)


def dotted(number: int) -> str:
    return f"{number:,}".replace(",", ".")


def phone_rows(phone: dict | None, ms) -> list[tuple]:
    if not phone:
        return []
    link = phone["link"]
    where = f"chromium, 4G ({link['down_mbps']}/{link['up_mbps']} Mbit/s, {link['rtt_ms']} ms)"
    coded = ", ".join(f"{name} {how}" for name, how in phone["encodings"].items())

    def target(figure, limit, unit=" ms"):
        return f"<= {dotted(limit)}{unit}", "yes" if figure <= limit else "NO"

    return [
        ("offline pack: bytes over the wire (cold)", where, "-",
         f"{dotted(phone['wire_bytes'])} bytes ({coded})", "",
         *target(phone["wire_bytes"], WIRE_TARGET, " bytes")),
        ("offline pack: cold load", where, "-", ms(phone["cold"]), "",
         *target(phone["cold"]["median_ms"], COLD_TARGET_MS)),
        ("offline pack: cold load, its last byte in", where, "-", ms(phone["cold_transfer"]), "", "", ""),
        ("offline pack: cold load, the page's CPU time", where, "-", ms(phone["cold_cpu"]), "", "", ""),
        ("offline pack: warm load (service worker cache)", where, "-",
         f"{ms(phone['warm'])}; {dotted(phone['warm_wire_bytes'])} bytes over the wire", "", "", ""),
        ("offline: first check after the network drops (engine started when idle)", where, "-",
         ms(phone["first_check"]), "", *target(phone["first_check"]["median_ms"], FIRST_CHECK_TARGET_MS)),
        ("offline: first check, engine started only then", where, "-", ms(phone["first_check_started_lazily"]),
         "", "", ""),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--json", help="write the figures to this file")
    args = parser.parse_args()
    offline = run(args.runs)
    if args.json:
        Path(args.json).write_text(json.dumps(offline, indent=2))
    if "note" in offline:
        print(offline["note"])
    for row in rows(offline):
        print(f"{row[0]}: {row[3]}" + (f" (target {row[5]}: {row[6]})" if row[5] else ""))


if __name__ == "__main__":
    main()
