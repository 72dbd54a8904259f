"""What a site does by itself every day: a backup (the last ``BACKUP_KEEP`` kept) and the
removal of old background jobs (their files, uploads and rows, after ``JOBS_KEEP_DAYS``).

Vocabulary:

- *Backup file*: ``trumpfbuch-YYYY-MM-DDTHHMMSS.json`` in ``BACKUP_DIR``, what ``manage.py
  backup`` writes (``protocol.documents.backup``): everything, password hashes included. Written under a
  temporary name and renamed when complete, so a killed worker leaves no half-written backup
  among the kept ones.
- *Due*: no backup file of today (the site's local date) in the directory yet. The daily task
  checks it again itself, so two schedulers (two app servers) still make one backup a day.
- *Old job*: done or failed longer than ``JOBS_KEEP_DAYS`` ago, or running whose worker died
  (stalled) and nobody started again since then.

The tasks (``jobs.tasks.daily_backup``, ``jobs.tasks.clean_old_jobs``) are enqueued by
``manage.py housekeeping``, which ``make run`` and ``make serve`` start beside the worker; a
host with cron runs ``manage.py backup --keep 14`` and ``manage.py housekeeping --once``
instead.
"""

from __future__ import annotations

import datetime
import json
import os
import re
from pathlib import Path

from django.conf import settings
from django.db.models import Q
from django.utils import timezone

from .models import Job, upload_path

BACKUP_FILE = re.compile(r"^trumpfbuch-(\d{4}-\d{2}-\d{2})T\d{6}\.json$")


# -- backups ------------------------------------------------------------------------------------

def backup_name(moment: datetime.datetime) -> str:
    """>>> backup_name(datetime.datetime(2026, 11, 24, 3, 5, 9))
    'trumpfbuch-2026-11-24T030509.json'
    """
    return f"trumpfbuch-{moment:%Y-%m-%dT%H%M%S}.json"


def backup_files(directory: Path) -> list[Path]:
    """The backup files in ``directory``, oldest first (by the time in their names); other
    files there are never touched."""
    if not directory.is_dir():
        return []
    return sorted((p for p in directory.iterdir() if BACKUP_FILE.match(p.name)), key=lambda p: p.name)


def write_backup(directory: Path, *, with_passwords: bool = True, now: datetime.datetime | None = None,
                 progress=None):
    """A complete backup into ``directory`` under a new name; answers ``(path, data)``.
    ``progress(done, total, phase)`` hears of each Partie written (``protocol.documents.backup.dump``)."""
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / backup_name(timezone.localtime(now))
    return path, write_backup_to(path, with_passwords=with_passwords, progress=progress)


def write_backup_to(path: Path, *, with_passwords: bool = True, progress=None) -> dict:
    """The backup written to ``path``: first to a temporary file beside it, renamed when complete."""
    from protocol.documents.backup import dump

    data = dump(with_passwords=with_passwords, progress=progress)
    partial = path.with_name(f".{path.name}.{os.getpid()}.part")
    try:
        with open(partial, "w", encoding="utf-8") as file:
            file.write(json.dumps(data, ensure_ascii=False, indent=1) + "\n")
            file.flush()
            os.fsync(file.fileno())
        os.replace(partial, path)
    finally:
        partial.unlink(missing_ok=True)
    return data


def prune_backups(directory: Path, keep: int) -> list[Path]:
    """Remove all but the newest ``keep`` backup files; answers the removed ones."""
    removed = backup_files(directory)[:-keep] if keep > 0 else []
    for path in removed:
        path.unlink(missing_ok=True)
    return removed


def backup_due(directory: Path, today: datetime.date | None = None) -> bool:
    today = today or timezone.localdate()
    return not any(BACKUP_FILE.match(p.name)[1] == today.isoformat() for p in backup_files(directory))


def daily_backup(directory: Path | None = None, keep: int | None = None) -> Path | None:
    """Today's backup if it is still due, then the oldest beyond ``keep`` removed; answers the
    new file (None when today's was there already)."""
    directory = Path(directory or settings.BACKUP_DIR)
    written = None
    if backup_due(directory):
        written, _data = write_backup(directory)
    prune_backups(directory, keep or settings.BACKUP_KEEP)
    return written


# -- old jobs -----------------------------------------------------------------------------------

def clean_old_jobs(days: int | None = None, now: datetime.datetime | None = None) -> dict[str, int]:
    """Remove the jobs that ended more than ``days`` ago (and the stalled ones started before
    that), with their result, progress and uploaded files; then any file in ``JOBS_DIR`` older
    than that which no remaining job owns (left by a job deleted otherwise). Answers counts."""
    days = settings.JOBS_KEEP_DAYS if days is None else days
    cutoff = (now or timezone.now()) - datetime.timedelta(days=days)
    ended = Q(state__in=[Job.State.DONE, Job.State.FAILED], finished_at__lt=cutoff)
    abandoned = Q(state__in=[Job.State.QUEUED, Job.State.RUNNING], created_at__lt=cutoff)
    old = [job for job in Job.objects.filter(ended | abandoned)
           if job.state in (Job.State.DONE, Job.State.FAILED) or job.is_stalled()]
    for job in old:
        job.forget_files()
    Job.objects.filter(pk__in=[job.pk for job in old]).delete()
    uploads = {job.params["upload"] for job in old if isinstance(job.params, dict) and job.params.get("upload")}
    still_used = {params.get("upload") for params in Job.objects.filter(
        params__upload__in=list(uploads)).values_list("params", flat=True)} if uploads else set()
    for name in uploads - still_used:  # a dry run's upload stays while its import may still come
        upload_path(name).unlink(missing_ok=True)
    return {"jobs": len(old), "files": _remove_orphans(cutoff)}


def _remove_orphans(cutoff: datetime.datetime) -> int:
    """Files older than ``cutoff`` in ``JOBS_DIR`` and its uploads that no remaining job owns."""
    jobs_dir = Path(settings.JOBS_DIR)
    if not jobs_dir.is_dir():
        return 0
    kept_ids, kept_uploads = set(), set()
    for pk, params in Job.objects.values_list("pk", "params"):
        kept_ids.add(str(pk))
        if isinstance(params, dict) and params.get("upload"):
            kept_uploads.add(upload_path(params["upload"]).name)
    limit, removed = cutoff.timestamp(), 0
    candidates = [(p, p.name.split(".", 1)[0] in kept_ids) for p in jobs_dir.iterdir() if p.is_file()]
    uploads = jobs_dir / "uploads"
    if uploads.is_dir():
        candidates += [(p, p.name.removesuffix(".part") in kept_uploads) for p in uploads.iterdir() if p.is_file()]
    for path, owned in candidates:
        if not owned and path.stat().st_mtime < limit:
            path.unlink(missing_ok=True)
            removed += 1
    return removed
