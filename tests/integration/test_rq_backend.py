"""TASKS_BACKEND=rq: the same jobs, queued in Redis (django-tasks-rq) and done by ``manage.py
rqworker``, against the real Redis on 127.0.0.1:6379 (skipped, saying so, where none runs)."""

import io
import os
import socket
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from openpyxl import load_workbook

ROOT = Path(__file__).resolve().parents[2]
REDIS_DB = 11  # a database of its own on the shared Redis


def redis_runs() -> bool:
    try:
        with socket.create_connection(("127.0.0.1", 6379), timeout=1) as connection:
            connection.sendall(b"PING\r\n")
            return connection.recv(16).startswith(b"+PONG")
    except OSError:
        return False


pytestmark = pytest.mark.skipif(not redis_runs(), reason="no Redis on 127.0.0.1:6379")


def manage(env, *args):
    return subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env, check=True,
                          capture_output=True, text=True, timeout=180).stdout


def test_an_export_queued_in_redis_is_done_by_the_rq_worker(tmp_path):
    database, jobs_dir = tmp_path / "site.sqlite3", tmp_path / "jobs"
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "TASKS_BACKEND")}
    env |= {"DATABASE_URL": f"sqlite:///{database}", "JOBS_DIR": str(jobs_dir), "TASKS_BACKEND": "rq",
            "REDIS_URL": f"redis://127.0.0.1:6379/{REDIS_DB}", "BACKUP_DIR": str(tmp_path / "backups")}
    manage(env, "migrate", "-v0")
    manage(env, "check", "--fail-level", "WARNING")  # django-tasks-rq's own checks: django_rq, queues, rq version
    manage(env, "generate_history", "--clubs", "1", "--seasons", "1", "--matches", "20", "--prefix", "Rq")
    job_id = manage(env, "shell", "-c", "from jobs.tasks import start; from league.models import Club; "
                                        "print(start('club_export', club=Club.objects.get(), user=None).pk)").split()[-1]
    with sqlite3.connect(database) as db:
        assert db.execute("SELECT state FROM jobs_job").fetchone() == ("queued",)
        assert db.execute("SELECT count(*) FROM django_tasks_database_dbtaskresult").fetchone() == (0,)  # not in the database

    manage(env, "rqworker", "--burst", "--job-class", "django_tasks_rq.Job", "default")

    with sqlite3.connect(database) as db:
        assert db.execute("SELECT state, attempts FROM jobs_job").fetchone() == ("done", 1)
    book = load_workbook(io.BytesIO((jobs_dir / f"{job_id}.result").read_bytes()), read_only=True)
    assert len(list(book["Partien"].iter_rows(min_row=2, values_only=True))) == 20
