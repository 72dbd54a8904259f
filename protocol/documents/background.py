"""The backup's work for the site's background jobs (``jobs``): the job an operator starts on
the backup page, and the daily backup the site's housekeeping makes by itself.

A backup job belongs to no club (it holds the whole site) and is followed by staff only
(``access.can_operate_site``). Both are registered when the app is ready (``protocol.apps``).
"""

from __future__ import annotations

from pathlib import Path

from django.conf import settings
from django.utils.translation import gettext_lazy, gettext_noop

from jobs import housekeeping
from jobs.models import Job
from jobs.tasks import start
from jobs.work import register
from protocol.documents.backup_files import backup_due, daily_backup, prune_backups, write_backup

KIND = "site_backup"  # stored in the job rows: renaming it would orphan the queued ones


def start_backup(user) -> Job:
    """A backup job for the whole site, queued for a worker."""
    return start(KIND, club=None, user=user)


@register(KIND, title=gettext_lazy("Backup"), template="protocol/includes/backup_report.html")
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


housekeeping.register_daily_backup(due=lambda today: backup_due(Path(settings.BACKUP_DIR), today),
                                   make=daily_backup)
