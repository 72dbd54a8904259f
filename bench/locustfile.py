"""Locust users of the tournament load (bench/load.py): at each of 30 tables one phone saving a
Spiel every 45–90 s and three polling the match state, and 100 followers of the live board.

After a warm-up in which every user opens its page (the site's, not counted), every
``slice`` seconds (the plan's) all users switch between the figure (the site as the
phones and browsers use it) and the floor (the same users fetching the same bytes as cached
GETs, ``bench.floors.cached``); each request is recorded with the phase it started in, its
kind and its time, and written beside the plan with the number of saves the server accepted.
"""

import glob
import itertools
import json
import os
import random
import re
import time
import uuid
from pathlib import Path

import gevent
from locust import HttpUser, between, constant_pacing, events, task

PLAN_PATH = Path(os.environ["BENCH_PLAN"])
PLAN = json.loads(PLAN_PATH.read_text())
SLICE, WARMUP = PLAN["slice"], PLAN["warmup"]
STARTED = [time.monotonic()]
NEXT_PHONE, NEXT_POLLER, NEXT_FOLLOWER = itertools.count(), itertools.count(), itertools.count()
REQUESTS: list = []
ERRORS: list = []
ACCEPTED = [0]
HIDDEN = re.compile(r'name="(version|csrfmiddlewaretoken)" value="([^"]*)"')


CPU: dict = {"figure": 0.0, "floor": 0.0}  # the server's CPU seconds spent in each phase


def server_cpu() -> dict[str, int]:
    """CPU nanoseconds so far of each gunicorn worker and, on PostgreSQL, of each backend of the
    bench database (/proc/<pid>/schedstat); SQLite runs inside the workers."""
    pids = []
    for children in glob.glob(f"/proc/{os.environ['BENCH_SERVER_PID']}/task/*/children"):
        pids += open(children).read().split()
    database = os.environ.get("BENCH_DB_NAME")
    if database:
        for cmdline in glob.glob("/proc/[0-9]*/cmdline"):
            try:
                if f" {database} " in open(cmdline).read():
                    pids.append(cmdline.split("/")[2])
            except OSError:
                pass
    spent = {}
    for pid in pids:
        try:
            spent[pid] = int(open(f"/proc/{pid}/schedstat").read().split()[0])
        except OSError:
            pass
    return spent


def _sample_cpu():
    """At each switch of phase, add the server's CPU since the last switch to the phase that
    ends (per process: a backend that appeared counts from zero, one that ended is left out)."""
    last, was = server_cpu(), phase()
    while True:
        gevent.sleep(0.25)
        if phase() != was:
            spent = server_cpu()
            CPU[was] = CPU.get(was, 0.0) + sum(max(0, ns - last.get(pid, 0)) for pid, ns in spent.items()) / 1e9
            last, was = spent, phase()


@events.test_start.add_listener
def _started(**_):
    STARTED[0] = time.monotonic()
    gevent.spawn(_sample_cpu)


@events.test_stop.add_listener
def _write(**_):
    (PLAN_PATH.parent / "requests.json").write_text(json.dumps(
        {"requests": REQUESTS, "accepted": ACCEPTED[0], "error_samples": ERRORS[:20], "cpu": CPU}))


def phase() -> str:
    """"warmup" while the users open their pages (the site's own, not counted), then "figure"
    and "floor" by turns, every SLICE seconds."""
    since = time.monotonic() - STARTED[0] - WARMUP
    if since < 0:
        return "warmup"
    return "figure" if int(since / SLICE) % 2 == 0 else "floor"


class Recorded(HttpUser):
    abstract = True

    def fetch(self, kind: str, path: str, *, method="GET", expect=(200,), floor: str | None = None, now=None, **kw):
        """One request of ``kind``: the page itself in the figure's phase, the same bytes from the
        cache in the floor's (``floor``: their name); recorded with its phase (``now``: the
        phase its task started in) and time."""
        now = now or phase()
        if now == "floor":
            method, path, kw, expect = "GET", f"/bench-floor/cached/{floor}/", {}, (200,)
        started = time.perf_counter()
        with self.client.request(method, path, name=f"{now}: {kind}", allow_redirects=False, catch_response=True,
                                 **kw) as response:
            ok = response.status_code in expect
            if not ok:
                response.failure(f"{kind}: {response.status_code}")
                ERRORS.append(f"{now} {kind} {path}: {response.status_code} {response.text[:200]}")
        REQUESTS.append((now, kind, (time.perf_counter() - started) * 1000, ok, phase()))
        return now, response


class Phone(Recorded):
    """The Protokollant's phone at a table: the Spiel form and its POST, answered with the match page."""

    fixed_count = len(PLAN["tables"])
    wait_time = between(45, 90)

    def on_start(self):
        self.table = PLAN["tables"][next(NEXT_PHONE) % len(PLAN["tables"])]
        self.forms = iter(self.table["forms"])
        self.client.cookies.set("sessionid", self.table["sessions"][0])
        self.match_path = f"/verein/{PLAN['club']}/partien/{self.table['pk']}/"
        time.sleep(random.uniform(WARMUP / 2, WARMUP + 45))  # the tables do not save in step

    @task
    def save(self):
        form = next(self.forms, None)
        if form is None:
            return
        url = self.match_path + "spiel/"
        now, page = self.fetch("Spiel form", url, floor="card-form")  # the save's two requests: one phase
        if now != "floor":
            hidden = dict(HIDDEN.findall(page.text))
            data = dict(form, version=hidden.get("version"), submission=str(uuid.uuid4()),
                        csrfmiddlewaretoken=hidden.get("csrfmiddlewaretoken", ""))
            headers = {"Referer": self.client.base_url + url}
        else:
            data, headers = {}, {}
        # answered with the match page itself (its address in Content-Location), not a redirect to it
        now, response = self.fetch("Spiel save", url, method="POST", expect=(200,), floor="card-match", now=now,
                                   data=data, headers=headers)
        if now != "floor":
            if response.headers.get("Content-Location", "") == self.match_path:
                ACCEPTED[0] += 1
                # the phone keeps the document of the version it saved (static/js/offline/entry.js)
                self.client.cookies.set("trumpfbuch-kept", f"{self.table['pk']}.{int(data['version']) + 1}")
            else:
                self.forms = iter([form, *self.forms])  # refused: typed again next time


class TablePoller(Recorded):
    """One of the three other phones at a table: the match page, then its state every 4 s."""

    fixed_count = len(PLAN["tables"]) * 3
    wait_time = constant_pacing(4)  # hx-trigger="every 4s"

    def on_start(self):
        n = next(NEXT_POLLER)
        table = PLAN["tables"][(n // 3) % len(PLAN["tables"])]
        self.client.cookies.set("sessionid", table["sessions"][1 + n % 3])
        self.match_path = f"/verein/{PLAN['club']}/partien/{table['pk']}/"
        self.etag = None
        time.sleep(random.uniform(0, WARMUP))  # the phones come to the tables one by one
        self.fetch("match page", self.match_path, floor="card-match")

    @task
    def poll(self):
        # htmx through the browser's cache: the page's state revalidated with its ETag.
        headers = {"HX-Request": "true", **({"If-None-Match": self.etag} if self.etag else {})}
        now, response = self.fetch("match state poll", self.match_path + "blatt/", expect=(200, 304),
                                   floor="card-poll", headers=headers)
        if now != "floor" and response.status_code == 200:
            self.etag = response.headers.get("ETag")


class Follower(Recorded):
    """A screen following the live board: the page, then the board every 4 s (static/js/live.js)."""

    fixed_count = 100
    wait_time = constant_pacing(4)

    def on_start(self):
        next(NEXT_FOLLOWER)
        time.sleep(random.uniform(0, WARMUP))  # the screens are switched on one by one
        _, page = self.fetch("live page", PLAN["live"], floor="public-live")
        found = re.search(r'data-live-etag="([^"]*)"', page.text or "")
        self.etag = found.group(1).replace("&quot;", '"') if found else None

    @task
    def poll(self):
        headers = {"If-None-Match": self.etag} if self.etag else {}
        now, response = self.fetch("live board poll", PLAN["live"] + "stand/", expect=(200, 304),
                                   floor="public-board", headers=headers)
        if now != "floor" and response.status_code == 200:
            self.etag = response.headers.get("ETag")
