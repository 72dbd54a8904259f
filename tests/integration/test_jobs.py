"""Background jobs: who sees a job's page and file, the progress, a stalled job, a killed worker."""

import io
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.urls import reverse
from openpyxl import load_workbook

from jobs.models import Job
from jobs.tasks import start
from league.models import Member

ROOT = Path(__file__).resolve().parents[2]


def urls(job):
    kwargs = {"slug": job.club.slug, "pk": job.pk}
    return {name: reverse(name, kwargs=kwargs) for name in ("job", "job_progress", "job_download")}


@pytest.fixture
def other_member_client(club, make_user, client):
    user = make_user("carla")
    Member.objects.create(club=club, name="Carla K.", user=user)
    client.force_login(user)
    return client


@pytest.fixture
def member_job(club, member_user, known_season):
    return start("season_export", club=club, user=member_user, params={"season": known_season.pk},
                 filename="ctv-saison-2026.xlsx")


@pytest.mark.django_db(transaction=True)
def test_the_secretary_starts_an_export_of_all_seasons_and_sees_it_finish(secretary_client, club, known_season,
                                                                          run_worker):
    response = secretary_client.post(reverse("export_club", kwargs={"slug": club.slug}))
    job = club.jobs.get()
    assert job.started_by.username == "schriftfuehrer" and job.kind == "club_export"
    fragment = secretary_client.get(urls(job)["job_progress"]).content.decode()
    assert 'hx-trigger="every 1s"' in fragment  # the page polls while the job waits
    run_worker()
    fragment = secretary_client.get(urls(job)["job_progress"]).content.decode()
    assert "hx-trigger" not in fragment and urls(job)["job_download"] in fragment  # polling ends in the link
    assert secretary_client.get(response["Location"]).status_code == 200


@pytest.mark.django_db(transaction=True)
def test_only_the_starter_and_the_secretaries_see_a_job_and_its_file(member_job, member_client, secretary_client,
                                                                      other_member_client, outsider_client,
                                                                      client, run_worker):
    run_worker()
    for name, url in urls(member_job).items():
        assert member_client.get(url).status_code == 200, name
        assert secretary_client.get(url).status_code == 200, name
        assert other_member_client.get(url).status_code == 403, name  # a member of the club, not the starter
        assert outsider_client.get(url).status_code == 403, name
    anonymous = client.__class__()
    assert anonymous.get(urls(member_job)["job"])["Location"].startswith(reverse("login"))


def test_a_job_of_another_club_is_not_found_under_this_club(member_job, member_client, club):
    from league.models import Club

    Club.objects.create(name="Skatfreunde", slug="skat")
    url = reverse("job", kwargs={"slug": "skat", "pk": member_job.pk})
    assert member_client.get(url).status_code == 404


def test_an_unfinished_job_has_no_download(member_job, member_client):
    assert member_client.get(urls(member_job)["job_download"]).status_code == 404


def test_the_progress_page_shows_the_bar_with_done_of_total(member_job, member_client):
    member_job.state = Job.State.RUNNING
    member_job.save()
    member_job.write_progress(3, 4, "Writing the matches")
    page = member_client.get(urls(member_job)["job"]).content.decode()
    assert '<progress class="job-progress__bar" max="4" value="3">' in page
    assert "Partien werden geschrieben" in page and "3 von 4 (75&nbsp;%)" in page


@pytest.mark.django_db(transaction=True)
def test_a_stalled_job_is_offered_again_and_then_finishes(member_job, member_client, settings, run_worker):
    member_job.state = Job.State.RUNNING  # as a worker leaves it when it is killed
    member_job.save()
    member_job.write_progress(1, 4, "Writing the matches")
    assert "Neu starten" not in member_client.get(urls(member_job)["job"]).content.decode()
    settings.JOBS_STALLED_AFTER = 0
    time.sleep(0.05)
    page = member_client.get(urls(member_job)["job"]).content.decode()
    assert "Neu starten" in page and "hx-trigger" not in page
    response = member_client.post(reverse("job_retry", kwargs={"slug": member_job.club.slug, "pk": member_job.pk}))
    assert response["Location"] == urls(member_job)["job"]
    run_worker()
    member_job.refresh_from_db()
    assert member_job.state == Job.State.DONE and member_job.attempts == 1
    assert load_workbook(io.BytesIO(member_job.result_path.read_bytes()), read_only=True).sheetnames[0] == "Tabelle"


@pytest.mark.django_db(transaction=True)
def test_a_failing_job_keeps_no_file_and_says_so(member_job, member_client, run_worker):
    member_job.params = {"season": 999999}  # the season went away meanwhile
    member_job.save()
    run_worker()
    member_job.refresh_from_db()
    assert member_job.state == Job.State.FAILED and "DoesNotExist" in member_job.error
    assert not member_job.result_path.exists()
    page = member_client.get(urls(member_job)["job"]).content.decode()
    assert "fehlgeschlagen" in page and "Neu starten" in page


# -- a real worker process, killed mid-export --------------------------------------------------

def manage(env, *args, **kwargs):
    return subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env, check=True,
                          capture_output=True, text=True, timeout=180, **kwargs)


def test_a_worker_killed_mid_export_leaves_no_file_and_the_retry_completes(tmp_path):
    """Its own SQLite file (a second process can't see the test database in memory)."""
    database, jobs_dir = tmp_path / "worker.sqlite3", tmp_path / "jobs"
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "TASKS_BACKEND")}
    env |= {"DATABASE_URL": f"sqlite:///{database}", "JOBS_DIR": str(jobs_dir), "DEBUG": "true"}
    manage(env, "migrate", "-v0")
    manage(env, "generate_history", "--clubs", "1", "--seasons", "1", "--matches", "150", "--prefix", "Kill")
    job_id = manage(env, "shell", "-c", "from jobs.tasks import start; from league.models import Club; "
                                        "print(start('club_export', club=Club.objects.get(), user=None).pk)"
                    ).stdout.split()[-1]  # after the shell's own notes
    progress, result = jobs_dir / f"{job_id}.progress", jobs_dir / f"{job_id}.result"

    worker = subprocess.Popen([sys.executable, "manage.py", "db_worker", "--no-reload", "--no-startup-delay",
                               "--interval", "0.1"], cwd=ROOT, env=env, start_new_session=True,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                seen = json.loads(progress.read_text())
            except (OSError, ValueError):
                seen = {"done": 0}
            if seen["done"] >= 20:
                break
            time.sleep(0.05)
        assert seen["done"] >= 20 and seen["done"] < seen["total"], seen  # mid-way through the Partien
        os.killpg(worker.pid, signal.SIGKILL)
    finally:
        if worker.poll() is None:
            os.killpg(worker.pid, signal.SIGKILL)
        worker.wait(10)

    assert not result.exists()  # only the temporary file: nothing a download could serve
    with sqlite3.connect(database) as db:
        assert db.execute("SELECT state FROM jobs_job").fetchone() == ("running",)

    manage(env, "shell", "-c", f"from jobs.models import Job; from jobs.tasks import retry; retry(Job.objects.get(pk='{job_id}'))")
    manage(env, "db_worker", "--batch", "--no-reload", "--no-startup-delay", "--interval", "0")
    with sqlite3.connect(database) as db:
        assert db.execute("SELECT state, attempts FROM jobs_job").fetchone() == ("done", 2)
    book = load_workbook(io.BytesIO(result.read_bytes()), read_only=True)
    numbers = [row[0] for row in book["Partien"].iter_rows(min_row=2, values_only=True)]
    assert len(numbers) == 150  # every Partie
    assert not list(jobs_dir.glob("*.part"))


def test_a_worker_busy_with_a_long_silent_step_is_not_taken_for_dead(club, member_user, settings):
    """Reading a large workbook reports nothing for a while; the worker's heartbeat still shows."""
    from jobs import work

    settings.JOBS_STALLED_AFTER = 3
    seen = []

    def silent(job, progress):
        time.sleep(5)
        job.state = Job.State.RUNNING  # as the page reads it meanwhile
        seen.append(job.is_stalled())

    work.WORK["silent_test"] = silent
    try:
        job = Job.objects.create(kind="silent_test", club=club, started_by=member_user)
        work.run(str(job.pk))
    finally:
        del work.WORK["silent_test"]
    assert seen == [False]
    job.refresh_from_db()
    assert job.state == Job.State.DONE
