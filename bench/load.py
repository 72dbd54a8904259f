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
SCOREKEEPERS, READERS, PORT = 20, 50, 8765


def run_load(database_url: str, seconds: int) -> dict:
    locust = Path(sys.executable).with_name("locust")
    if not locust.exists() and not shutil.which("locust"):
        return {"note": "skipped: locust is not installed (pip install -r requirements-dev.txt)"}
    from django.contrib.auth import get_user_model

    from league.models import Club
    from protocol import services
    from protocol.models import Event

    club = Club.objects.get(slug="club-1")
    season = club.seasons.order_by("-start").first()
    user = get_user_model().objects.get(username="bench-secretary")
    members = list(club.members.order_by("name"))
    tables = []
    for n in range(SCOREKEEPERS):
        seated = [members[(n + k) % len(members)] for k in range(4)]
        match = services.create_match(club=club, season=season, date=datetime.date(2025, 12, 31), members=seated,
                                      scorekeeper=seated[0], settings={"limit": 5000})
        tables.append({"pk": match.pk, "forms": _forms([m.name for m in seated], seed=n)})
    before = Event.objects.filter(match__pk__in=[t["pk"] for t in tables]).count()
    with tempfile.TemporaryDirectory() as tmp:
        plan = Path(tmp) / "plan.json"
        plan.write_text(json.dumps({"club": club.slug, "season": season.pk, "tables": tables,
                                    "username": "bench-secretary", "password": "bench-only"}))
        env = os.environ | {"DATABASE_URL": database_url, "DEBUG": "false", "SECRET_KEY": "bench-" + "x" * 60,
                            "ALLOWED_HOSTS": "127.0.0.1", "SECURE_COOKIES": "false", "BENCH_PLAN": str(plan),
                            "CONN_MAX_AGE": "60"}
        subprocess.run([sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"], cwd=ROOT, env=env,
                       check=True)
        server = subprocess.Popen([str(Path(sys.executable).with_name("gunicorn")), "config.wsgi", "--bind",
                                   f"127.0.0.1:{PORT}", "--workers", "2", "--log-level", "warning"],
                                  cwd=ROOT, env=env)
        try:
            _wait_for(f"http://127.0.0.1:{PORT}/")
            prefix = Path(tmp) / "locust"
            subprocess.run([str(locust), "-f", str(ROOT / "bench" / "locustfile.py"), "--headless",
                            "-u", str(SCOREKEEPERS + READERS), "-r", "35", "-t", f"{seconds}s",
                            "--host", f"http://127.0.0.1:{PORT}", "--csv", str(prefix), "--only-summary",
                            "--loglevel", "WARNING"], cwd=ROOT, env=env, check=False, timeout=seconds + 60)
            stats = _aggregated(Path(f"{prefix}_stats.csv"))
            accepted = sum(int(line) for line in (Path(tmp) / "accepted").read_text().split()) \
                if (Path(tmp) / "accepted").exists() else 0
        finally:
            server.send_signal(signal.SIGTERM)
            server.wait(timeout=30)
    stored = Event.objects.filter(match__pk__in=[t["pk"] for t in tables]).count() - before
    return stats | {"accepted": accepted, "stored": stored, "seconds": seconds,
                    "users": f"{SCOREKEEPERS} scorekeepers + {READERS} readers"}


def _forms(names: list[str], seed: int, games: int = 80) -> list[dict]:
    """The Spiel form data of a long simulated Partie of these players, Spiel by Spiel."""
    import random

    from protocol.forms.chaotentrumpf import GameForm
    from protocol.simulation import simulate_match

    doc = simulate_match(names, random.Random(seed), settings={"limit": 5000}, max_events=games,
                         penalty_rate=0, warning_rate=0)
    forms = []
    for event in doc["events"]:
        body = event["game"]
        data = GameForm.initial_from(body, list(body["results"]), names)
        forms.append({k: v for k, v in data.items() if v is not None and v is not False and v != ""})
    return forms


def _wait_for(url: str, timeout: float = 30) -> None:
    deadline = time.time() + timeout
    while time.time() < deadline:
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
