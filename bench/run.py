"""``make bench``: how fast, at what size, and against which floor.

    python bench/run.py [--runs 9] [--federation-matches 300] [--load-seconds 30] [--skip-load]

``make bench`` uses a scaled "federation": 6 seasons of 300 Partien (~1,800 Partien, a season
twice the club's) instead of the full 6 x 1,550 (~one million Spiel lines), to stay well
inside ten minutes; ``--federation-matches 1550`` runs the full size.

For SQLite (a temporary file) and, when ``DATABASE_URL`` points at PostgreSQL, a throw-away
PostgreSQL database (created and dropped here), one child process per database:

1. generates the "club" size (``generate_history --size club``), measures, then adds the
   "federation" size as a second club in the same database and measures again;
2. measures (medians of ``--runs``): the season standings page (server time in-process
   with Django's test client, query count) against one hand-written SQL aggregate of the
   same table (the floor); saving Spiel 40 into a running Partie through the Spiel form
   against the engine's own check and scoring of that Partie; the Spielprotokollblatt of a
   60-Spiel Partie against WeasyPrint rendering a plain HTML table of the same size; the
   season spreadsheet (time, rows per second, peak Python memory with tracemalloc);
3. on PostgreSQL only: a load test, gunicorn (2 workers) on the loopback and locust
   headless: 20 scorekeepers entering Spiele into 20 Partien, 50 members reading standings.

Prints a table and writes bench/results.json.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "bench" / "results.json"
PY = sys.executable


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--federation-matches", type=int, default=300,
                        help="Partien per season of the federation size (6 seasons)")
    parser.add_argument("--load-seconds", type=int, default=30)
    parser.add_argument("--skip-load", action="store_true")
    parser.add_argument("--child", help=argparse.SUPPRESS)  # database URL of a child run
    parser.add_argument("--out", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        from bench.measure import run_child  # noqa: PLC0415 - Django is set up in the child only

        run_child(args)
        return

    started = time.perf_counter()
    results: dict = {"backends": {}}
    databases = [("sqlite", None)]
    url = os.environ.get("DATABASE_URL", "")
    if url.startswith(("postgres://", "postgresql://")):
        databases.append(("postgresql", url))
    else:
        results["notes"] = ["PostgreSQL not measured and load test skipped: DATABASE_URL is not a postgres:// URL."]
        print(results["notes"][0])
    for name, server_url in databases:
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp) / "out.json"
            if server_url is None:
                child_url = f"sqlite:///{tmp}/bench.sqlite3"
                dropper = None
            else:
                child_url, dropper = _throwaway_postgres(server_url)
            try:
                command = [PY, str(Path(__file__)), "--child", child_url, "--out", str(out),
                           "--runs", str(args.runs), "--federation-matches", str(args.federation_matches),
                           "--load-seconds", str(args.load_seconds)]
                if args.skip_load or server_url is None:
                    command.append("--skip-load")
                print(f"== {name} ==", flush=True)
                subprocess.run(command, check=True, cwd=ROOT)
                results["backends"][name] = json.loads(out.read_text())
            finally:
                if dropper:
                    dropper()
    results["total_seconds"] = round(time.perf_counter() - started, 1)
    RESULTS.write_text(json.dumps(results, indent=2, ensure_ascii=False))
    print_table(results)
    print(f"\nwritten to {RESULTS.relative_to(ROOT)}; total {results['total_seconds']} s")


def _throwaway_postgres(url: str):
    """A fresh database next to the one ``url`` names; returns its URL and a function dropping it."""
    from urllib.parse import urlsplit, urlunsplit

    import psycopg

    parts = urlsplit(url)
    name = f"trumpfbuch_bench_{os.getpid()}"
    admin = urlunsplit(parts._replace(scheme="postgresql", path="/postgres"))
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
        conn.execute(f'CREATE DATABASE "{name}"')

    def drop():
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    return urlunsplit(parts._replace(path=f"/{name}")), drop


def _ms(seconds) -> str:
    return "–" if seconds is None else f"{seconds * 1000:.1f} ms"


def print_table(results: dict) -> None:
    rows = [("measure", "backend", "club", "federation", "floor / ratio", "target")]
    for backend, r in results["backends"].items():
        sizes = r["sizes"]
        c, f = sizes.get("club", {}), sizes.get("federation", {})
        rows.append(("data: Partien / Spiel lines", backend,
                     f"{c.get('matches')} / {c.get('score_lines')}", f"{f.get('matches')} / {f.get('score_lines')}",
                     f"gen {c.get('generate_seconds')} s / {f.get('generate_seconds')} s", ""))
        if "page_cold" in c:
            rows.append(("standings page, cache cleared", backend, _ms(c["page_cold"]), _ms(f["page_cold"]),
                         f"floor {_ms(c['floor'])} / {_ms(f['floor'])}; {c['page_cold'] / c['floor']:.1f}x / "
                         f"{f['page_cold'] / f['floor']:.1f}x", ""))
        rows.append(("standings page", backend, f"{_ms(c['page'])}, {c['page_queries']} q",
                     f"{_ms(f['page'])}, {f['page_queries']} q",
                     f"fed/club {f['page'] / c['page']:.2f}x",
                     "queries equal: " + ("yes" if c["page_queries"] == f["page_queries"] else "NO")))
        for size, s in (("club", c), ("federation", f)):
            rows.append((f"standings floor ({size})", backend, "", "", f"{_ms(s['floor'])}; page/floor "
                         f"{s['page'] / s['floor']:.1f}x", "<= 3x: " + ("yes" if s["page"] <= 3 * s["floor"] else "no")))
        save = r["save"]
        rows.append(("save Spiel 40 (form view)", backend, _ms(save["server"]), "",
                     f"engine {_ms(save['engine'])}; {save['server'] / save['engine']:.1f}x"
                     + (f"; Django's bare POST {_ms(save['framework'])}" if "framework" in save else ""),
                     "<= 3x: " + ("yes" if save["server"] <= 3 * save["engine"] else "no")))
        if "sheet" in r:
            sheet = r["sheet"]
            rows.append(("sheet, 60 Spiele (PDF)", backend, _ms(sheet["render"]), "",
                         f"plain table {_ms(sheet['plain'])}; {sheet['render'] / sheet['plain']:.1f}x",
                         "<= 2x: " + ("yes" if sheet["render"] <= 2 * sheet["plain"] else "no")))
        rows.append(("season xlsx: time", backend, _ms(c["xlsx"]["seconds"]), _ms(f["xlsx"]["seconds"]),
                     f"{c['xlsx']['rows_per_second']:.0f} / {f['xlsx']['rows_per_second']:.0f} rows/s", ""))
        ratio = f["xlsx"]["peak_mb"] / c["xlsx"]["peak_mb"]
        rows.append(("season xlsx: peak memory", backend, f"{c['xlsx']['peak_mb']:.1f} MB",
                     f"{f['xlsx']['peak_mb']:.1f} MB", f"fed/club {ratio:.2f}x",
                     "<= 1.5x: " + ("yes" if ratio <= 1.5 else "no")))
        load = r.get("load")
        if load and "rps" in load:
            ok = load["errors"] == 0 and load["stored"] == load["accepted"] and load["p95_ms"] < 250
            rows.append(("load: gunicorn 2w + locust", backend,
                         f"{load['rps']:.0f} req/s, p50 {load['p50_ms']} p95 {load['p95_ms']} p99 {load['p99_ms']} ms",
                         "", f"errors {load['errors']}, stored {load['stored']} / accepted {load['accepted']}",
                         "0 err, 0 lost, p95<250: " + ("yes" if ok else "no")))
        elif load:
            rows.append(("load test", backend, load.get("note", "skipped"), "", "", ""))
    widths = [max(len(str(row[i])) for row in rows) for i in range(len(rows[0]))]
    print()
    for n, row in enumerate(rows):
        print("  ".join(str(cell).ljust(w) for cell, w in zip(row, widths)))
        if n == 0:
            print("  ".join("-" * w for w in widths))
    for note in results.get("notes", []):
        print(f"note: {note}")


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    main()
