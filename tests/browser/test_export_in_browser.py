"""A season of 500 Partien goes out and in again on a 360 px phone, in the background: the
export's progress bar moves, its worker is killed mid-way, the page offers to start it again
(a new worker finishes it) and ends in the download; the downloaded workbook is imported into
another club (dry run, then the import), each with its progress and report. Beside the worker,
``make serve``'s housekeeping made the day's backup.

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

pytestmark = [pytest.mark.browser, pytest.mark.slow]  # about two minutes: a big season

ROOT = Path(__file__).resolve().parents[2]
PARTIEN = 500  # enough for the export to be killed mid-way with its bar moving


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
            "JOBS_DIR": str(tmp_path / "jobs"), "AXES_ENABLED": "false", "JOBS_STALLED_AFTER": "6",
            "BACKUP_DIR": str(tmp_path / "backups"), "STATIC_ROOT": str(tmp_path / "static")}
    manage(env, "migrate", "-v0")
    manage(env, "generate_history", "--clubs", "1", "--seasons", "1", "--matches", str(PARTIEN), "--prefix", "Export")
    manage(env, "shell", "-c", "from django.contrib.auth.models import User; from league.models import Club, Member; "
                               "club = Club.objects.get(); "
                               f"user = User.objects.create_user('anna', password='{PASSWORD}'); "
                               "Member.objects.create(club=club, name='Anna im Netz', user=user); "
                               "Club.objects.create(name='Neuer Verein', slug='neu').secretaries.add(user)")
    server = subprocess.Popen(["make", "serve", f"HOST_PORT=127.0.0.1:{port}"], cwd=ROOT, env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(720):  # collectstatic compresses the offline pack first
            try:
                urllib.request.urlopen(url + "/", timeout=2)
                break
            except OSError:
                time.sleep(0.25)
        slug, season = manage(env, "shell", "-c", "from league.models import Club; c = Club.objects.exclude(slug='neu').get(); "
                                                  "print(c.slug, c.seasons.get().pk)").split()[-2:]
        yield url, slug, season, server, env
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(30)
        except subprocess.TimeoutExpired:  # a worker still finishing its task: this test is not about stopping
            os.killpg(server.pid, signal.SIGKILL)
            server.wait(30)


def descendants(pid):
    """The processes below ``pid`` (from /proc): (pid, command line)."""
    children = {}
    for entry in Path("/proc").iterdir():
        try:
            parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            children.setdefault(parent, []).append((int(entry.name), (entry / "cmdline").read_bytes()))
        except (ValueError, OSError):
            continue
    found, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child[0])
    return found


def watch(page, deadline_seconds=300, *, until, kill_after=None):
    """The progress values seen until ``until`` shows; calls ``kill_after`` once, after two."""
    seen, deadline = [], time.monotonic() + deadline_seconds
    while not until.is_visible():  # the fragment is swapped in every second
        # read at once: the fragment swapped in between two reads may have no bar any more
        bar = page.evaluate("""() => { const bar = document.querySelector("progress.job-progress__bar");
                                       return bar && [bar.getAttribute("value"), bar.getAttribute("max")]; }""")
        if bar:
            value, most = bar
            if value is not None and value not in [v for v, _ in seen]:
                seen.append((value, most))
            assert page.evaluate("document.documentElement.scrollWidth") <= 360  # fits the phone
            if kill_after and len(seen) >= 2:
                kill_after()
                kill_after = None
        assert time.monotonic() < deadline, (seen, page.locator("#job-progress").inner_text())
        page.wait_for_timeout(150)
    return seen


PASSWORD = "kreuz-as-sticht"


def test_a_season_goes_out_and_in_again_in_the_background(browser, served_club, tmp_path):
    url, slug, season, server, env = served_club
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

    # The export: the bar moves; its worker is killed without warning.
    replacement = []

    def kill_the_worker():
        (worker,) = [pid for pid, command in descendants(server.pid)
                     if command.split(b"\0")[1:3] == [b"manage.py", b"db_worker"]]
        os.kill(worker, signal.SIGKILL)
        replacement.append(subprocess.Popen(
            [sys.executable, "manage.py", "db_worker", "--no-reload", "--no-startup-delay"], cwd=ROOT, env=env,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True))

    restart = page.get_by_role("button", name="Neu starten")
    try:
        seen = watch(page, until=restart, kill_after=kill_the_worker)
        assert len(seen) >= 2 and all(total == str(PARTIEN) for _, total in seen), seen  # the bar moved
        assert not list((tmp_path / "jobs").glob("*.result"))  # the killed worker left no file
        page.reload()  # the page survives a reload: it asks the job, not the browser
        restart.click()
        download_link = page.get_by_role("link", name="herunterladen")
        assert len(watch(page, until=download_link)) >= 2  # a new worker does it again, with progress

        with page.expect_download() as info:
            download_link.click()
        download = info.value
        assert download.suggested_filename.endswith(".xlsx") and "-saison-" in download.suggested_filename
        workbook = tmp_path / "saison.xlsx"
        download.save_as(workbook)
        book = load_workbook(io.BytesIO(workbook.read_bytes()), read_only=True)
        assert len(list(book["Partien"].iter_rows(min_row=2, values_only=True))) == PARTIEN

        # The import into another club: the dry run's report, then the import's.
        page.goto(f"{url}/verein/neu/saisons/import/")
        page.locator("input[name=file]").set_input_files(workbook)
        page.get_by_role("button", name="Prüfen (Probelauf)").click()
        page.wait_for_url("**/auftrag/*/")
        confirm = page.get_by_role("button", name="Jetzt importieren")
        watch(page, until=confirm)
        assert f"Partien: {PARTIEN}" in page.locator("#job-progress").inner_text()
        confirm.click()
        page.wait_for_url("**/auftrag/*/")
        to_table = page.get_by_role("link", name="Zur Tabelle")
        watch(page, until=to_table)
        assert f"importiert: {PARTIEN} Partien" in page.locator("#job-progress").inner_text()
        to_table.click()
        page.wait_for_url("**/verein/neu/tabelle/**")
        page.locator("table").first.wait_for()  # the table computed anew for 500 Partien: wait for it
        assert page.locator("table").count()
        imported = manage(env, "shell", "-c", "from league.models import Club; "
                                              "print(Club.objects.get(slug='neu').matches.count())").split()[-1]
        assert imported == str(PARTIEN)  # each Partie once: the killed export left nothing behind
        assert len(list((tmp_path / "backups").glob("trumpfbuch-*.json"))) == 1  # the day's backup, by itself
    finally:
        for process in replacement:
            process.terminate()
            process.wait(30)
    assert problems == []
    context.close()
