"""The site's daily work: a backup a day (the last N kept), old background jobs removed, both
enqueued by ``manage.py housekeeping`` for the real database worker."""

import datetime
import json
import os

import pytest
from django.core.management import call_command
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from jobs import housekeeping
from jobs.models import Job, upload_path
from protocol.documents.backup_files import write_backup
from protocol.models import Match


@pytest.fixture
def backup_dir(settings, tmp_path):
    settings.BACKUP_DIR = tmp_path / "backups"
    settings.BACKUP_KEEP = 3
    return settings.BACKUP_DIR


def names(directory):
    return sorted(p.name for p in directory.iterdir())


def days_ago(days):
    return timezone.now() - datetime.timedelta(days=days)


def test_backup_keep_n_keeps_the_newest_backups_and_nothing_else_is_touched(club, secretary, backup_dir):
    for days in (4, 3, 2, 1):
        write_backup(backup_dir, now=days_ago(days))
    (backup_dir / "notizen.txt").write_text("bleibt")
    call_command("backup", "--keep", "3", verbosity=0)  # into BACKUP_DIR, the newest three kept
    kept = [n for n in names(backup_dir) if n.startswith("trumpfbuch-")]
    assert len(kept) == 3 and "notizen.txt" in names(backup_dir)
    assert kept[-1].startswith(f"trumpfbuch-{timezone.localdate():%Y-%m-%d}T")  # today's is one of them
    assert kept[0].startswith(f"trumpfbuch-{timezone.localtime(days_ago(2)):%Y-%m-%d}T")


def test_a_backup_holds_everything_by_default(club, secretary, known_season, backup_dir):
    club.published, club.embed_origins = True, "https://ctv.example"
    club.save()
    call_command("backup", verbosity=0)
    (path,) = backup_dir.iterdir()
    data = json.loads(path.read_text())
    assert data["passwords"] is True and all(u["password"] for u in data["users"])
    (stored,) = data["clubs"]
    assert len(stored["matches"]) == Match.objects.count() == 4 and stored["seasons"][0]["name"] == "2026"
    assert stored["published"] is True and stored["embed_origins"] == "https://ctv.example"


def test_a_backup_that_breaks_off_leaves_no_file(club, backup_dir, monkeypatch):
    def disk_full(descriptor):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", disk_full)
    with pytest.raises(OSError):
        call_command("backup", verbosity=0)
    assert names(backup_dir) == []


@pytest.mark.django_db(transaction=True)
def test_the_worker_makes_one_backup_a_day_from_what_housekeeping_enqueued(club, secretary, backup_dir, run_worker):
    call_command("housekeeping", "--once")
    assert {r.task_path for r in DBTaskResult.objects.all()} == {"jobs.tasks.daily_backup", "jobs.tasks.clean_old_jobs"}
    run_worker()
    (backup,) = backup_dir.iterdir()
    assert json.loads(backup.read_text())["clubs"][0]["name"] == club.name
    assert set(DBTaskResult.objects.values_list("status", flat=True)) == {"SUCCESSFUL"}

    call_command("housekeeping", "--once")  # a second app server, or the next look: today's is there
    assert not DBTaskResult.objects.filter(status="READY", task_path="jobs.tasks.daily_backup").exists()
    from jobs.tasks import daily_backup

    daily_backup.enqueue()  # and should one be enqueued twice, the task itself sees it is not due
    run_worker()
    assert names(backup_dir) == [backup.name]


def test_old_jobs_go_with_their_files_recent_ones_stay(club, member_user, settings):
    def job(state, ended_days_ago=None, created_days_ago=0, upload=None):
        made = Job.objects.create(kind="season_export", club=club, started_by=member_user, state=state,
                                  created_at=days_ago(created_days_ago), params={"upload": upload} if upload else {},
                                  finished_at=days_ago(ended_days_ago) if ended_days_ago is not None else None)
        with made.writing_result() as file:
            file.write(b"PK")
        made.write_progress(1, 1, "Writing the matches")
        return made

    settings.JOBS_KEEP_DAYS = 30
    upload_path("alt.xlsx").parent.mkdir(parents=True, exist_ok=True)
    upload_path("alt.xlsx").write_bytes(b"PK")
    old = job(Job.State.DONE, ended_days_ago=31, created_days_ago=31, upload="alt.xlsx")
    failed = job(Job.State.FAILED, ended_days_ago=40, created_days_ago=40)
    recent = job(Job.State.DONE, ended_days_ago=1, created_days_ago=1)
    abandoned = job(Job.State.RUNNING, created_days_ago=35)  # its worker died, nobody started it again
    os.utime(abandoned._progress_path, (days_ago(35).timestamp(),) * 2)
    orphan = settings.JOBS_DIR / "0b1e5d6c-0000-4000-8000-000000000000.result"  # its row went some other way
    orphan.write_bytes(b"PK")
    os.utime(orphan, (days_ago(31).timestamp(),) * 2)

    counts = housekeeping.clean_old_jobs()

    assert counts == {"jobs": 3, "files": 1}
    assert list(Job.objects.all()) == [recent] and recent.result_path.exists()
    for gone in (old, failed, abandoned):
        assert not gone.result_path.exists() and not gone._progress_path.exists()
    assert not upload_path("alt.xlsx").exists() and not orphan.exists()


def test_the_housekeeping_loop_makes_the_backup_and_stops_on_sigterm(tmp_path):
    """As ``make serve`` runs it (here doing the work itself, ``--here``), on its own database file."""
    import signal
    import subprocess
    import sys
    import time
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "TASKS_BACKEND")}
    env |= {"DATABASE_URL": f"sqlite:///{tmp_path / 'site.sqlite3'}", "JOBS_DIR": str(tmp_path / "jobs"),
            "BACKUP_DIR": str(tmp_path / "backups")}
    subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=root, env=env, check=True, timeout=120)
    keeper = subprocess.Popen([sys.executable, "manage.py", "housekeeping", "--here", "--interval", "0.2"],
                              cwd=root, env=env, stdout=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        while not list((tmp_path / "backups").glob("trumpfbuch-*.json")) and time.monotonic() < deadline:
            time.sleep(0.1)
        keeper.send_signal(signal.SIGTERM)
        assert keeper.wait(30) == 0  # it ends at once, between two looks
    finally:
        if keeper.poll() is None:
            keeper.kill()
    (backup,) = (tmp_path / "backups").glob("trumpfbuch-*.json")
    assert json.loads(backup.read_text())["format"] == "trumpfbuch-backup/1"
    assert "backup: trumpfbuch-" in keeper.stdout.read()
