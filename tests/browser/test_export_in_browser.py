"""A member exports a season on a 360 px phone: the progress bar moves, the page ends in the download.

The site runs as a club runs it: ``make serve`` (gunicorn and, beside it, the background
worker) on its own SQLite file in production settings; the test server of pytest-django
keeps its database in memory, where no second process (and no worker) can see it.
"""

import io
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from openpyxl import load_workbook

from tests.browser.conftest import log_in

pytestmark = [pytest.mark.browser]

ROOT = Path(__file__).resolve().parents[2]
PARTIEN = 200


def manage(env, *args):
    return subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env, check=True,
                          capture_output=True, text=True, timeout=180).stdout


@pytest.fixture
def served_club(tmp_path):
    """``make serve`` on a fresh database with one generated season; answers its address."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "TASKS_BACKEND", "DJANGO_ALLOW_ASYNC_UNSAFE")}
    env |= {"DEBUG": "false", "SECRET_KEY": secrets.token_urlsafe(60), "ALLOWED_HOSTS": "127.0.0.1",
            "SECURE_COOKIES": "false", "DATABASE_URL": f"sqlite:///{tmp_path / 'site.sqlite3'}",
            "JOBS_DIR": str(tmp_path / "jobs"), "AXES_ENABLED": "false"}
    manage(env, "migrate", "-v0")
    manage(env, "generate_history", "--clubs", "1", "--seasons", "1", "--matches", str(PARTIEN), "--prefix", "Export")
    manage(env, "shell", "-c", "from django.contrib.auth.models import User; from league.models import Club, Member; "
                               "club = Club.objects.get(); "
                               f"user = User.objects.create_user('anna', password='{PASSWORD}'); "
                               "Member.objects.create(club=club, name='Anna im Netz', user=user)")
    server = subprocess.Popen(["make", "serve", f"HOST_PORT=127.0.0.1:{port}"], cwd=ROOT, env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(240):
            try:
                urllib.request.urlopen(url + "/", timeout=2)
                break
            except OSError:
                time.sleep(0.25)
        slug, season = manage(env, "shell", "-c", "from league.models import Club; c = Club.objects.get(); "
                                                  "print(c.slug, c.seasons.get().pk)").split()[-2:]
        yield url, slug, season
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(30)


PASSWORD = "kreuz-as-sticht"


def test_a_member_exports_a_season_and_watches_the_progress(browser, served_club):
    url, slug, season = served_club
    context = browser.new_context(viewport={"width": 360, "height": 740}, locale="de-DE", has_touch=True,
                                  accept_downloads=True)
    page = context.new_page()
    page.set_default_timeout(20_000)
    page.base_url = url
    problems = []
    page.on("console", lambda msg: problems.append(msg.text) if msg.type == "error" else None)
    page.on("response", lambda r: problems.append(f"{r.status} {r.url}") if r.status >= 400 else None)
    log_in(page, "anna", PASSWORD)
    page.goto(f"{url}/verein/{slug}/tabelle/{season}/")
    page.get_by_role("button", name="Saison exportieren (.xlsx)").click()
    page.wait_for_url("**/auftrag/*/")
    assert "Saison-Export" in page.locator("h1").inner_text()

    seen, deadline = [], time.monotonic() + 120
    download_link = page.get_by_role("link", name="herunterladen")
    while not download_link.is_visible():  # the fragment is swapped in every second
        bar = page.locator("progress.job-progress__bar")
        if bar.count():
            seen.append((bar.get_attribute("value"), bar.get_attribute("max")))
            assert page.evaluate("document.documentElement.scrollWidth") <= 360  # fits the phone
        if len(seen) == 3:
            page.reload()  # the page survives a reload: it asks the job, not the browser
        assert time.monotonic() < deadline, (seen, page.locator("#job-progress").inner_text())
        page.wait_for_timeout(150)
    moving = {int(value) for value, total in seen if value is not None and total == str(PARTIEN)}
    assert len(moving) >= 2, seen  # the bar moved while the Partien were written

    with page.expect_download() as info:
        download_link.click()
    download = info.value
    assert download.suggested_filename.endswith(".xlsx") and "-saison-" in download.suggested_filename
    with open(download.path(), "rb") as file:
        book = load_workbook(io.BytesIO(file.read()), read_only=True)
    assert len(list(book["Partien"].iter_rows(min_row=2, values_only=True))) == PARTIEN
    assert problems == []
    context.close()
