"""A job: long work someone started for a club, done by a worker in the background.

Vocabulary:

- *Job*: one piece of long work (a season export, a season check or import) with who started
  it, for which club, its *kind* and *parameters*, its *state* and, when done, its *result*
  file or *report*. Its page shows the progress and survives a reload.
- *Kind*: what the work is. The app that knows the work registers a function for it
  (``jobs.work.register``); the worker looks it up by the kind's name.
- *Progress*: steps done of a total and the phase (an English message id, shown translated).
  It lives in a small file beside the result, not in the database: an import saves in one
  transaction, and a progress row written inside it would only show once it is over.
- *Result*: the finished file. It is written under a temporary name and renamed when it is
  complete (``os.replace`` is atomic), so a worker killed mid-way leaves no half-written
  file to download.
- *Stalled*: running, but the progress file has not been touched for ``JOBS_STALLED_AFTER``
  seconds: its worker died (a living worker touches it every few seconds, ``jobs.work``).
  A stalled or failed job can be started again (*retry*); it starts from the beginning.
"""

from __future__ import annotations

import json
import os
import time
import uuid
from contextlib import contextmanager
from pathlib import Path

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class Job(models.Model):
    class State(models.TextChoices):
        QUEUED = "queued", _("waiting for a worker")
        RUNNING = "running", _("running")
        DONE = "done", _("done")
        FAILED = "failed", _("failed")

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    # None: work for the whole site (a backup, protocol.documents.background), followed by staff only.
    club = models.ForeignKey("league.Club", null=True, blank=True, on_delete=models.CASCADE, related_name="jobs")
    started_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL,
                                   related_name="jobs")
    kind = models.CharField(max_length=40)
    params = models.JSONField(default=dict, blank=True)
    state = models.CharField(max_length=10, choices=State.choices, default=State.QUEUED)
    filename = models.CharField(max_length=200, blank=True, help_text="the download's file name")
    report = models.JSONField(null=True, blank=True)
    error = models.TextField(blank=True)
    attempts = models.PositiveSmallIntegerField(default=0)
    created_at = models.DateTimeField(default=timezone.now)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self):
        return f"{self.kind} {self.pk}"

    # -- files --------------------------------------------------------------------------------

    @property
    def result_path(self) -> Path:
        return Path(settings.JOBS_DIR) / f"{self.pk}.result"

    @property
    def _partial_path(self) -> Path:
        return Path(settings.JOBS_DIR) / f"{self.pk}.part"

    @property
    def _progress_path(self) -> Path:
        return Path(settings.JOBS_DIR) / f"{self.pk}.progress"

    @contextmanager
    def writing_result(self):
        """The open file to write the result to; it becomes the result only when the block
        ends without an exception (and the process lives to rename it)."""
        partial = self._partial_path
        partial.parent.mkdir(parents=True, exist_ok=True)
        try:
            with open(partial, "wb") as file:
                yield file
                file.flush()
                os.fsync(file.fileno())
            os.replace(partial, self.result_path)
        finally:
            partial.unlink(missing_ok=True)

    @property
    def has_result(self) -> bool:
        return self.state == self.State.DONE and self.result_path.exists()

    def forget_files(self) -> None:
        for path in (self.result_path, self._partial_path, self._progress_path):
            path.unlink(missing_ok=True)

    # -- progress -----------------------------------------------------------------------------

    def write_progress(self, done: int, total: int | None, phase: str) -> None:
        path = self._progress_path
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_name(f"{path.name}.{os.getpid()}")
        temporary.write_text(json.dumps({"done": done, "total": total, "phase": phase}))
        os.replace(temporary, path)

    def touch_progress(self) -> None:
        try:
            os.utime(self._progress_path)
        except OSError:  # not written yet, or forgotten by a retry
            pass

    def progress(self) -> dict:
        """``{"done", "total", "phase", "moved"}``: ``moved`` is when the worker last gave a sign
        of life (a POSIX time), ``total`` None while unknown."""
        try:
            state = json.loads(self._progress_path.read_text())
            state["moved"] = self._progress_path.stat().st_mtime
        except (OSError, ValueError):
            state = {"done": 0, "total": None, "phase": "", "moved": None}
        return state

    def is_stalled(self, progress: dict | None = None) -> bool:
        if self.state != self.State.RUNNING:
            return False
        moved = (progress or self.progress())["moved"]
        return moved is None or time.time() - moved > settings.JOBS_STALLED_AFTER

    def can_retry(self) -> bool:
        return self.state == self.State.FAILED or self.is_stalled()


# -- uploads: a file a job works on (a season workbook to check and import) ---------------------

def upload_path(name: str) -> Path:
    return Path(settings.JOBS_DIR) / "uploads" / Path(name).name


def store_upload(upload, suffix: str = "") -> str:
    """Keep an uploaded file (Django's ``UploadedFile``) for a job, written completely before
    it gets its name; answers the name to put into the job's parameters."""
    name = f"{uuid.uuid4()}{suffix}"
    path = upload_path(name)
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(name + ".part")
    try:
        with open(partial, "wb") as file:
            for chunk in upload.chunks():
                file.write(chunk)
        os.replace(partial, path)
    finally:
        partial.unlink(missing_ok=True)
    return name
