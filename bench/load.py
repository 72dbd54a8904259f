"""The load test of ``bench/run.py``: gunicorn (2 workers) + PostgreSQL on the loopback, locust headless.

20 scorekeepers each enter Spiele into their own running Partie (through the Spiel form,
with its version and a one-time submission token) while 50 members load the standings.
Afterwards the Spiele stored in the database are compared with the saves the server
accepted (302 answers).
"""

from __future__ import annotations

import csv
import datetime
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SCOREKEEPERS, READERS = 20, 50
# gunicorn as `make serve` runs it (SERVE_WORKERS=2 sync workers); BENCH_SERVER to try others.
SERVER = os.environ.get("BENCH_SERVER", "--workers 2").split()


def run_load(database_url: str, seconds: int) -> dict:
    locust = Path(sys.executable).with_name("locust")
    if not locust.exists() and not shutil.which("locust"):
        return {"note": "skipped: locust is not installed (pip install -r requirements-dev.txt)"}
    from django.conf import settings

    from league.models import Club
    from protocol import matches
    from protocol.models import Event

    club = Club.objects.get(slug="club-1")
    season = club.seasons.order_by("-start").first()
    members = list(club.members.order_by("name"))
    tables = []
    for n in range(SCOREKEEPERS):
        seated = [members[(n + k) % len(members)] for k in range(4)]
        match = matches.create_match(club=club, season=season, date=datetime.date(2025, 12, 31), members=seated,
                                     scorekeeper=seated[0], settings={"limit": 5000})
        tables.append({"pk": match.pk, "forms": _forms([m.name for m in seated], seed=n),
                       "session": _session(_user(f"bench-scorekeeper-{n}", club, secretary=True))})
    # Members of the club reading the table (the standings of this club are not public).
    readers = [_session(_user(f"bench-member-{n}", club, member=members[n % len(members)]))
               for n in range(READERS)]
    before = Event.objects.filter(match__pk__in=[t["pk"] for t in tables]).count()
    port = _free_port()
    with tempfile.TemporaryDirectory() as tmp:
        plan = Path(tmp) / "plan.json"
        plan.write_text(json.dumps({"club": club.slug, "season": season.pk, "tables": tables, "readers": readers}))
        env = os.environ | {"DATABASE_URL": database_url, "DEBUG": "false",
                            # The sessions above are signed with this process's key.
                            "SECRET_KEY": settings.SECRET_KEY,
                            "ALLOWED_HOSTS": "127.0.0.1", "SECURE_COOKIES": "false", "BENCH_PLAN": str(plan),
                            "CONN_MAX_AGE": "60", "DJANGO_SETTINGS_MODULE": "bench.settings_load",
                            "BENCH_CACHE_STATS": str(Path(tmp))}
        # As `make serve` collects it (config/storage.py leaves the vendor files' own references alone).
        subprocess.run([sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"],
                       cwd=ROOT, env=env,
                       check=True)
        server = subprocess.Popen([str(Path(sys.executable).with_name("gunicorn")), "config.wsgi", "--bind",
                                   f"127.0.0.1:{port}", *SERVER, "--log-level", "warning"],
                                  cwd=ROOT, env=env)
        try:
            _wait_for(f"http://127.0.0.1:{port}/", server)
            load_before = os.getloadavg()[0]
            prefix = Path(tmp) / "locust"
            subprocess.run([str(locust), "-f", str(ROOT / "bench" / "locustfile.py"), "--headless",
                            "-u", str(SCOREKEEPERS + READERS), "-r", "35", "-t", f"{seconds}s",
                            "--host", f"http://127.0.0.1:{port}", "--csv", str(prefix), "--only-summary",
                            "--stop-timeout", "20",  # let each user finish the request it is in
                            "--loglevel", "WARNING"], cwd=ROOT, env=env, check=False, timeout=seconds + 60)
            load_after = os.getloadavg()[0]
            stats = _aggregated(Path(f"{prefix}_stats.csv"))
            accepted = sum(int(line) for line in (Path(tmp) / "accepted").read_text().split()) \
                if (Path(tmp) / "accepted").exists() else 0
        finally:
            server.send_signal(signal.SIGTERM)
            server.wait(timeout=30)
        counts = [json.loads(path.read_text()) for path in Path(tmp).glob("[0-9]*.json")]
        hits, misses = sum(c["hits"] for c in counts), sum(c["misses"] for c in counts)
        stats |= {"cache_hits": hits, "cache_misses": misses,
                  "cache_hit_rate": round(hits / (hits + misses), 3) if hits + misses else None,
                  "loadavg_before": round(load_before, 1), "loadavg_after": round(load_after, 1)}
    stored = Event.objects.filter(match__pk__in=[t["pk"] for t in tables]).count() - before
    return stats | {"accepted": accepted, "stored": stored, "seconds": seconds,
                    "users": f"{SCOREKEEPERS} scorekeepers + {READERS} readers"}


def _forms(names: list[str], seed: int, games: int = 80) -> list[dict]:
    """The Spiel form data of a long simulated Partie of these players, Spiel by Spiel."""
    import random

    from protocol.games.chaotentrumpf.forms import GameForm
    from protocol.games.chaotentrumpf.simulation import simulate_match

    doc = simulate_match(names, random.Random(seed), settings={"limit": 5000}, max_events=games,
                         penalty_rate=0, warning_rate=0)
    forms = []
    for event in doc["events"]:
        body = event["game"]
        data = GameForm.initial_from(body, list(body["results"]), names)
        forms.append({k: v for k, v in data.items() if v is not None and v is not False and v != ""})
    return forms


def _user(username: str, club, *, secretary: bool = False, member=None):
    from django.contrib.auth import get_user_model

    user = get_user_model().objects.create_user(username)  # no password: signed in by session below
    if secretary:
        club.secretaries.add(user)
    if member is not None and member.user_id is None:
        member.user = user
        member.save(update_fields=["user"])
    elif member is not None:  # the member has an account already: read as a secretary would
        club.secretaries.add(user)
    return user


def _session(user) -> str:
    """A signed-in session for ``user``, as the login form would leave it: the load measures
    the site in use, not 70 password hashes at once (logins are rare; sessions last weeks)."""
    from importlib import import_module

    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY

    session = import_module(settings.SESSION_ENGINE).SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.create()
    return session.session_key


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


def _aggregated(path: Path) -> dict:
    with path.open() as f:
        row = next(r for r in csv.DictReader(f) if r["Name"] == "Aggregated")
    return {"requests": int(row["Request Count"]), "errors": int(row["Failure Count"]),
            "rps": float(row["Requests/s"]), "p50_ms": int(float(row["50%"])),
            "p95_ms": int(float(row["95%"])), "p99_ms": int(float(row["99%"]))}
