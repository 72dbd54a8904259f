"""The backup files in ``BACKUP_DIR``: written, listed, found by name, the old ones removed.

Vocabulary:

- *Backup file*: ``trumpfbuch-YYYY-MM-DDTHHMMSS.json`` in ``BACKUP_DIR``, what ``manage.py
  backup`` writes (:mod:`protocol.documents.backup`): everything, password hashes included.
  Written under a temporary name and renamed when complete, so a killed worker leaves no
  half-written backup among the kept ones.
- *Due*: no backup file of today (the site's local date) in the directory yet. The daily task
  checks it again itself, so two schedulers (two app servers) still make one backup a day.

The daily backup is the site's housekeeping (``jobs.housekeeping``, ``manage.py
housekeeping``); :mod:`protocol.documents.background` registers :func:`backup_due` and
:func:`daily_backup` with it. A host with cron runs ``manage.py backup --keep 14`` instead.
A file is only ever found by a name that :func:`backup_listing` produced (:func:`find_backup`):
no path from a request reaches the disk.
"""

from __future__ import annotations

import datetime
import json
import os
import re
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings
from django.utils import timezone

from protocol.documents.backup import dump

BACKUP_FILE = re.compile(r"^trumpfbuch-(\d{4}-\d{2}-\d{2})T\d{6}\.json$")


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


# -- the operators' list (protocol/views/backups.py) --------------------------------------------

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
        # the name holds the site's local time the backup was taken (backup_name)
        written = timezone.make_aware(datetime.datetime.strptime(path.name, "trumpfbuch-%Y-%m-%dT%H%M%S.json"))
        files.append(BackupFile(path.name, path.stat().st_size, written, path))
    return files


def find_backup(name: str) -> BackupFile | None:
    """The listed backup called ``name``, or None: only names the listing shows are served."""
    return next((f for f in backup_listing() if f.name == name), None)
