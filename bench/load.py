"""The tournament load of ``bench/run.py``: gunicorn (2 workers) on the loopback, locust headless,
on the database the child measures (SQLite and PostgreSQL).

A tournament day of 30 tables of 4 (a published club of 120 players, round 1 drawn, one
Partie per table already at Spiel 20–40, a table card per table):

- one phone per table (the Protokollant's, holding the table's card) saves a Spiel every
  45–90 s as the phone does: the Spiel form and its POST, answered with the match page;
- the other three phones of the table hold the card too and poll the match state as the
  match page does (htmx, every 4 s, with the ETag the browser has: unchanged is a 304);
- 100 followers (the hall's projector, families at home) open the live board and poll it
  as static/js/live.js does (every 4 s, ``If-None-Match`` with the board they show).

The users open their pages in a warm-up of ``WARMUP`` seconds (the site's pages, not counted:
the people of a tournament do not all arrive in one second). The floor is the same users in
the same run fetching cached GETs: every request of theirs
replaced by a GET of the very bytes the page answered, from the shared cache
(``bench.floors.cached``: the session read, one cache read). The run alternates between the
two every ``slice`` seconds (all users together, by the clock), so that both see the same
machine; each request counts in the phase it started in. Reported: p95 of each, their ratio,
errors and lost saves (the Spiele stored against the saves the server accepted, answering
with the match page).
"""

from __future__ import annotations

import datetime
import json
import os
import random
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parents[1]
TABLES, AT_TABLE, FOLLOWERS = 30, 4, 100
SLICE = 15  # seconds of each phase (figure, floor, figure, ...)
WARMUP = 30  # seconds in which the users open their pages, before the measured phases
# gunicorn as `make serve` runs it (SERVE_WORKERS=2 sync workers); BENCH_SERVER to try others.
SERVER = os.environ.get("BENCH_SERVER", "--workers 2").split()


def run_load(database_url: str, seconds: int) -> dict:
    locust = Path(sys.executable).with_name("locust")
    if not locust.exists() and not shutil.which("locust"):
        return {"note": "skipped: locust is not installed (pip install -r requirements-dev.txt)"}
    from django.conf import settings

    from bench.floors import keep_bytes
    from protocol.models import Event

    plan = tournament()
    pks = [t["pk"] for t in plan["tables"]]
    before = Event.objects.filter(match__pk__in=pks).count()
    port = _free_port()
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "plan.json").write_text(json.dumps(plan | {"slice": SLICE, "warmup": WARMUP}))
        env = os.environ | {"DATABASE_URL": database_url, "DEBUG": "false",
                            # The sessions and the cards above are signed with this process's key.
                            "SECRET_KEY": settings.SECRET_KEY,
                            "ALLOWED_HOSTS": "127.0.0.1", "SECURE_COOKIES": "false",
                            "BENCH_PLAN": str(Path(tmp) / "plan.json"),
                            "CONN_MAX_AGE": "60", "DJANGO_SETTINGS_MODULE": "bench.settings_load",
                            "BENCH_CACHE_STATS": str(Path(tmp)),
                            # the database whose backends' CPU counts (PostgreSQL; SQLite is in the workers)
                            "BENCH_DB_NAME": urlsplit(database_url).path.lstrip("/") if database_url.startswith("postgres") else ""}
        # As `make serve` collects it (config/storage.py leaves the vendor files' own references alone).
        subprocess.run([sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"], cwd=ROOT, env=env, check=True)
        server = subprocess.Popen([str(Path(sys.executable).with_name("gunicorn")), "config.wsgi", "--bind",
                                   f"127.0.0.1:{port}", *SERVER, "--log-level", "warning"], cwd=ROOT, env=env)
        host = f"http://127.0.0.1:{port}"
        env["BENCH_SERVER_PID"] = str(server.pid)
        try:
            _wait_for(host + "/", server)
            for name, (path, session, *cookies) in plan["floor_pages"].items():  # what each floor sends
                keep_bytes(name, _get(host + path, session, *cookies))
            load_before = os.getloadavg()[0]
            users = TABLES * AT_TABLE + FOLLOWERS
            subprocess.run([str(locust), "-f", str(ROOT / "bench" / "locustfile.py"), "--headless",
                            "-u", str(users), "-r", str(users), "-t", f"{WARMUP + seconds}s", "--host", host,
                            "--only-summary", "--stop-timeout", "20",  # each user finishes its request
                            "--loglevel", "WARNING"], cwd=ROOT, env=env, check=False, timeout=WARMUP + seconds + 90,
                           stdout=subprocess.DEVNULL)
            load_after = os.getloadavg()[0]
        finally:
            server.send_signal(signal.SIGTERM)
            server.wait(timeout=30)
        done = Path(tmp) / "requests.json"
        if not done.exists():
            return {"note": "locust wrote no results"}
        result = summary(json.loads(done.read_text()))
        counts = [json.loads(path.read_text()) for path in Path(tmp).glob("[0-9]*.json")]
        hits, misses = sum(c["hits"] for c in counts), sum(c["misses"] for c in counts)
    stored = Event.objects.filter(match__pk__in=pks).count() - before
    return result | {"stored": stored, "lost": result["accepted"] - stored, "seconds": seconds, "slice": SLICE,
                     "warmup": WARMUP,
                     "users": f"{TABLES} tables of {AT_TABLE} (1 saving, {AT_TABLE - 1} polling) + {FOLLOWERS} followers",
                     "cache_hit_rate": round(hits / (hits + misses), 3) if hits + misses else None,
                     "loadavg_before": round(load_before, 1), "loadavg_after": round(load_after, 1)}


def p95(times: list[float]) -> float | None:
    if not times:
        return None
    return statistics.quantiles(times, n=20)[-1] if len(times) > 1 else times[0]


def summary(requests: dict) -> dict:
    """p95 of the figure's requests and of the floor's, each kind's, errors and accepted saves."""
    rows = requests["requests"]
    out: dict = {"accepted": requests["accepted"], "kinds": {}}
    for phase in ("figure", "floor"):
        mine = [r for r in rows if r[0] == phase]
        out[phase] = {"requests": len(mine), "errors": sum(1 for r in mine if not r[3]),
                      "p50_ms": round(statistics.median([r[2] for r in mine]), 1) if mine else None,
                      "p95_ms": round(p95([r[2] for r in mine]), 1) if mine else None}
        for kind in sorted({r[1] for r in mine}):
            times = [r[2] for r in mine if r[1] == kind]
            out["kinds"].setdefault(kind, {})[phase] = {"requests": len(times), "p95_ms": round(p95(times), 1)}
        # The server's CPU per request answered in the phase (workers and database backends): the
        # work, whatever the machine's other load does to the queue and so to the p95.
        answered = sum(1 for r in rows if r[4] == phase)
        spent = requests.get("cpu", {}).get(phase)
        out[phase]["cpu_ms_per_request"] = round(1000 * spent / answered, 2) if spent and answered else None
    out["errors"] = out["figure"]["errors"] + out["floor"]["errors"]
    out["error_samples"] = requests.get("error_samples", [])[:5]
    figure, floor = out["figure"]["p95_ms"], out["floor"]["p95_ms"]
    out["ratio"] = figure / floor if figure and floor else None
    cpu_figure, cpu_floor = out["figure"]["cpu_ms_per_request"], out["floor"]["cpu_ms_per_request"]
    out["cpu_ratio"] = cpu_figure / cpu_floor if cpu_figure and cpu_floor else None
    return out


def tournament() -> dict:
    """A published club's tournament at Spiel 20–40 of round 1, 30 tables, a card per table:
    the locust plan (sessions, the prepared Spiele, the pages whose bytes the floors send)."""
    from importlib import import_module

    from django.conf import settings

    from league.models import Club, Member, Round, Season, TableSeat
    from league.tournaments import cards
    from league.tournaments.card_access import SESSION_KEY
    from protocol import matches

    store = import_module(settings.SESSION_ENGINE).SessionStore

    def card_session(card) -> str:
        session = store()
        session[SESSION_KEY] = card.pk  # as opening the card's address leaves it
        session.create()
        return session.session_key

    today = datetime.date.today()
    club = Club.objects.create(name=f"Turniertag {os.getpid()}", slug=f"turniertag-{os.getpid()}", published=True)
    players = Member.objects.bulk_create([Member(club=club, name=f"Spieler {n:03d}") for n in range(TABLES * AT_TABLE)])
    season = Season.objects.create(club=club, name="Turniertag", start=today, end=today, mode=Season.Mode.TOURNAMENT,
                                   ruleset="chaotentrumpf", game_settings={"limit": 5000})
    round_ = Round.objects.create(season=season, number=1, date=today, seed=1)
    rng = random.Random(1)
    tables = []
    for table in range(1, TABLES + 1):
        members = players[(table - 1) * AT_TABLE: table * AT_TABLE]
        TableSeat.objects.bulk_create([TableSeat(round=round_, table=table, position=p, member=m)
                                       for p, m in enumerate(members)])
        first, forms = _partie([m.name for m in members], start=rng.randint(20, 40), seed=table)
        match = matches.create_match(club=club, date=today, members=members, scorekeeper=members[0],
                                     settings=dict(season.game_settings), season=season, ruleset=season.ruleset,
                                     round=round_, table_number=table, events=first)
        tables.append({"pk": match.pk, "forms": forms, "version": match.version})
    issued = cards.cards_of(round_, list(range(1, TABLES + 1)))
    for n, table in enumerate(tables, start=1):
        table["sessions"] = [card_session(issued[n]) for _ in range(AT_TABLE)]  # every phone of the table
    base = f"/verein/{club.slug}/partien/"
    live = f"/ergebnisse/{club.slug}/{season.pk}/live/"
    sample = tables[0]
    floor_pages = {  # the bytes each floor sends: the page as it answered a user of that kind
        # as the table's phone opens it after a save: keeping the document of that version (its cookie)
        "card-form": (f"{base}{sample['pk']}/spiel/", sample["sessions"][0], f"trumpfbuch-kept={sample['pk']}.{sample['version']}"),
        "card-match": (f"{base}{sample['pk']}/", sample["sessions"][0]),
        "card-poll": (f"{base}{sample['pk']}/blatt/", sample["sessions"][1]),
        "public-live": (live, None),
        "public-board": (live + "stand/", None),
    }
    return {"club": club.slug, "season": season.pk, "tables": tables, "live": live, "floor_pages": floor_pages}


def _partie(names: list[str], start: int, seed: int, more: int = 12) -> tuple[list[dict], list[dict]]:
    """The first ``start`` Spiele of a simulated Partie (its events) and the Spiel form data of
    the ``more`` Spiele after them."""
    from protocol.games.chaotentrumpf.forms import GameForm
    from protocol.games.chaotentrumpf.simulation import simulate_match

    for attempt in range(1000):
        doc = simulate_match(names, random.Random(1000 * seed + attempt), settings={"limit": 5000},
                             max_events=start + more + 5, penalty_rate=0, warning_rate=0)
        games = [i for i, e in enumerate(doc["events"]) if "game" in e]
        if len(games) >= start + more:
            break
    else:
        raise SystemExit(f"no simulated Partie of {start + more} Spiele")
    forms = []
    for i in games[start:start + more]:
        body = doc["events"][i]["game"]
        data = GameForm.initial_from(body, list(body["results"]), names)
        forms.append({k: v for k, v in data.items() if v is not None and v is not False and v != ""})
    return doc["events"][: games[start - 1] + 1], forms


def _get(url: str, session: str | None, cookies: str = "") -> bytes:
    cookie = "; ".join(part for part in (f"sessionid={session}" if session else "", cookies) if part)
    request = urllib.request.Request(url, headers={"Cookie": cookie} if cookie else {})
    with urllib.request.urlopen(request, timeout=30) as response:
        return response.read()


def _free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _wait_for(url: str, server, timeout: float = 30) -> None:
    deadline = time.time() + timeout
    while time.time() < deadline:
        if server.poll() is not None:
            raise RuntimeError(f"gunicorn exited with {server.returncode}")
        try:
            urllib.request.urlopen(url, timeout=2)
            return
        except Exception:  # noqa: BLE001 - not up yet
            time.sleep(0.3)
    raise RuntimeError("gunicorn did not start")
