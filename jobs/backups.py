"""Backups from the site: the operators' list of the backup files and the job writing a new one.

The files are those of ``manage.py backup`` and the daily task (``jobs.housekeeping``) in
``BACKUP_DIR``. A backup job belongs to no club (it holds the whole site) and is followed by
staff only (``access.can_operate_site``). A file is only ever found by a name that
:func:`backup_listing` produced (``find_backup``): no path from a request reaches the disk.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings
from django.utils import timezone
from django.utils.translation import gettext_noop

from .housekeeping import backup_files, prune_backups, write_backup
from .models import Job, start
from .work import register

KIND = "site_backup"


@dataclass(frozen=True)
class BackupFile:
    name: str
    size: int
    written: datetime.datetime
    path: Path


def backup_listing(directory: Path | None = None) -> list[BackupFile]:
    """The backup files of ``BACKUP_DIR``, newest first, with size and time written."""
    files = []
    for path in reversed(backup_files(Path(directory or settings.BACKUP_DIR))):
        # the name holds the site's local time the backup was taken (housekeeping.backup_name)
        written = timezone.make_aware(datetime.datetime.strptime(path.name, "trumpfbuch-%Y-%m-%dT%H%M%S.json"))
        files.append(BackupFile(path.name, path.stat().st_size, written, path))
    return files


def find_backup(name: str) -> BackupFile | None:
    """The listed backup called ``name``, or None: only names the listing shows are served."""
    return next((f for f in backup_listing() if f.name == name), None)


def start_backup(user) -> Job:
    """A backup job for the whole site, queued for a worker."""
    return start(KIND, club=None, user=user)


@register(KIND, template="jobs/includes/backup_report.html")
def site_backup(job, progress) -> None:
    """A complete backup (passwords included, like ``manage.py backup``) into ``BACKUP_DIR``,
    written under a temporary name and renamed when complete; then the oldest beyond
    ``BACKUP_KEEP`` removed, as the daily backup does."""
    directory = Path(settings.BACKUP_DIR)
    path, data = write_backup(directory, progress=progress)
    matches = sum(len(c["matches"]) for c in data["clubs"])
    progress(matches, matches, gettext_noop("Removing old backups"))
    prune_backups(directory, settings.BACKUP_KEEP)
    job.filename = path.name
    job.report = {"name": path.name, "clubs": len(data["clubs"]), "matches": matches, "users": len(data["users"])}
