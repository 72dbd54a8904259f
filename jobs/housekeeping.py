"""What a site does by itself every day: the daily backup (the app that keeps the backup
registers it here) and the removal of old background jobs (their files, uploads and rows,
after ``JOBS_KEEP_DAYS``).

Vocabulary:

- *Daily backup*: what :func:`register_daily_backup` was given by the app that owns the
  backup (``protocol.documents.background``): whether today (the site's local date) still
  needs one, and the work making it. The task checks it again itself, so two schedulers (two
  app servers) still make one backup a day.
- *Old job*: done or failed longer than ``JOBS_KEEP_DAYS`` ago, or running whose worker died
  (stalled) and nobody started again since then.

The tasks (``jobs.tasks.daily_backup``, ``jobs.tasks.clean_old_jobs``) are enqueued by
``manage.py housekeeping``, which ``make run`` and ``make serve`` start beside the worker; a
host with cron runs ``manage.py backup --keep 14`` and ``manage.py housekeeping --once``
instead.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable
from pathlib import Path

from django.conf import settings
from django.db.models import Q
from django.utils import timezone

from .models import Job, upload_path

# -- the daily backup ---------------------------------------------------------------------------

DAILY_BACKUP: dict[str, Callable] = {}


def register_daily_backup(*, due: Callable[[datetime.date], bool], make: Callable[[], Path | None]) -> None:
    """The site's daily backup: ``due(today)`` says whether that day has none yet, ``make()``
    writes today's if it is still due (and removes the oldest beyond ``BACKUP_KEEP``),
    answering the new file or None."""
    DAILY_BACKUP.update(due=due, make=make)


def backup_due(today: datetime.date | None = None) -> bool:
    """Whether today still needs the daily backup (never while no app registered one)."""
    return bool(DAILY_BACKUP) and DAILY_BACKUP["due"](today or timezone.localdate())


def daily_backup() -> Path | None:
    return DAILY_BACKUP["make"]() if DAILY_BACKUP else None


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
