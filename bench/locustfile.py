"""Locust users for bench/load.py: scorekeepers entering Spiele and following the redirect to
the match page (what they wait for), members at the tables whose match pages poll the state
every 4 seconds as their browsers do (with the ETag of the state they have: an unchanged
state is a 304), and now and then read the standings.

The plan (tables, prepared Spiel form data, login) comes from ``BENCH_PLAN``; each accepted
save (a 302 from the Spiel form) is counted, and the count is written beside the plan.
"""

import itertools
import json
import os
import re
import uuid
from pathlib import Path

from locust import HttpUser, between, events, task

PLAN_PATH = Path(os.environ["BENCH_PLAN"])
PLAN = json.loads(PLAN_PATH.read_text())
NEXT_TABLE = itertools.count()
NEXT_READER = itertools.count()
ACCEPTED = [0]
HIDDEN = re.compile(r'name="(version|csrfmiddlewaretoken)" value="([^"]*)"')


@events.test_stop.add_listener
def _write_accepted(**_):
    (PLAN_PATH.parent / "accepted").write_text(str(ACCEPTED[0]))


class Scorekeeper(HttpUser):
    weight = 20
    fixed_count = 20
    wait_time = between(1, 3)  # typing a Spiel takes a while even in a benchmark

    def on_start(self):
        self.table = PLAN["tables"][next(NEXT_TABLE) % len(PLAN["tables"])]
        self.games = iter(self.table["forms"])
        self.client.cookies.set("sessionid", self.table["session"])  # signed in (bench/load.py)
        self.match_path = f"/verein/{PLAN['club']}/partien/{self.table['pk']}/"
        self.url = self.match_path + "spiel/"

    @task
    def enter_game(self):
        form = next(self.games, None)
        if form is None:
            return
        page = self.client.get(self.url, name="Spiel form", allow_redirects=False)
        hidden = dict(HIDDEN.findall(page.text))
        data = dict(form, version=hidden.get("version"), submission=str(uuid.uuid4()),
                    csrfmiddlewaretoken=hidden.get("csrfmiddlewaretoken", ""))
        with self.client.post(self.url, data, name="Spiel save", allow_redirects=False,
                              catch_response=True) as response:
            saved = response.status_code == 302 and response.headers.get("Location", "").endswith(self.match_path)
            if saved:
                ACCEPTED[0] += 1
                response.success()
            else:
                response.failure(f"not saved: {response.status_code}")
        if saved:  # the scorekeeper waits for the match page the save leads to
            with self.client.get(self.match_path, name="match page after save", allow_redirects=False,
                                 catch_response=True) as page:
                if page.status_code != 200:
                    page.failure(f"match page: {page.status_code}")


class Member(HttpUser):
    weight = 50
    fixed_count = 50
    wait_time = between(3.5, 4.5)  # match.html polls the state every 4 s

    def on_start(self):
        n = next(NEXT_READER)
        self.client.cookies.set("sessionid", PLAN["readers"][n % len(PLAN["readers"])])
        table = PLAN["tables"][n % len(PLAN["tables"])]
        self.match_path = f"/verein/{PLAN['club']}/partien/{table['pk']}/"
        self.etag = None
        self.client.get(self.match_path, name="match page")

    @task(4)
    def poll(self):
        # As the browser asks: with the ETag of the state it has (a 304 keeps it).
        headers = {"If-None-Match": self.etag} if self.etag else {}
        with self.client.get(self.match_path + "blatt/", name="match state poll", allow_redirects=False,
                             headers=headers, catch_response=True) as response:
            if response.status_code == 200:
                self.etag = response.headers.get("ETag")
            elif response.status_code != 304:
                response.failure(f"poll: {response.status_code}")

    @task
    def standings(self):
        with self.client.get(f"/verein/{PLAN['club']}/tabelle/{PLAN['season']}/", name="standings",
                             allow_redirects=False, catch_response=True) as response:
            if response.status_code != 200:  # a redirect to the login would be a failure too
                response.failure(f"standings: {response.status_code}")
