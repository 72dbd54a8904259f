"""The worker's side of a job: the registry of kinds, the progress callback, the run.

Each app registers its own kinds (``@register``, in a module its ``AppConfig.ready`` imports:
``protocol.sheet.background``, ``protocol.documents.background``,
``league.spreadsheets.background``); this package knows none of them.

A kind's function takes the job and a :class:`Progress` and either writes the result
(``with job.writing_result() as file``) or sets ``job.report`` (a JSON-able dict); the run
saves the job's state around it. An exception marks the job failed (and the task too, so
``db_worker`` logs it); a worker that dies leaves the job running, and when its heartbeat
(a touch of the progress file every two seconds) stops, the job is stalled.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

from django.utils import timezone
from django.utils.translation import gettext_noop

from .models import Job

logger = logging.getLogger(__name__)

WORK: dict[str, Callable[[Job, Progress], None]] = {}
TITLES: dict[str, str] = {}
TEMPLATES: dict[str, str] = {}


def register(kind: str, *, title: str = "", template: str = ""):
    """Decorator: the function that does the work of ``kind``; ``title`` names it on the job's
    page (a lazy translation), ``template`` shows its report there when it is done (a file
    result needs none: the page offers the download)."""

    def decorator(function):
        WORK[kind] = function
        if title:
            TITLES[kind] = title
        if template:
            TEMPLATES[kind] = template
        return function

    return decorator


class Progress:
    """``progress(done, total, phase)``: what the work has done so far. Written at most every
    ``interval`` seconds (and always when the phase changes), so a loop may call it per row."""

    def __init__(self, job: Job, interval: float = 0.4):
        self.job, self.interval = job, interval
        self.phase, self.total, self._written = "", None, 0.0

    def __call__(self, done: int, total: int | None = None, phase: str | None = None) -> None:
        now = time.monotonic()
        changed = (phase is not None and phase != self.phase) or (total is not None and total != self.total)
        if total is not None:
            self.total = total
        if phase is not None:
            self.phase = phase
        if changed or now - self._written >= self.interval or (self.total and done >= self.total):
            self.job.write_progress(done, self.total, self.phase)
            self._written = now


def run(job_id: str) -> None:
    job = Job.objects.select_related("club", "started_by").get(pk=job_id)
    if job.state == Job.State.DONE:  # a task delivered twice does the work once
        return
    progress = Progress(job)
    progress(0, None, gettext_noop("Starting"))  # first: a running job without progress is stalled
    job.state, job.attempts = Job.State.RUNNING, job.attempts + 1
    job.save(update_fields=["state", "attempts"])
    stop = threading.Event()
    heartbeat = threading.Thread(target=_beat, args=(job, stop), daemon=True)
    heartbeat.start()
    try:
        WORK[job.kind](job, progress)
    except Exception as error:
        logger.exception("job %s (%s) failed", job.pk, job.kind)
        job.state, job.error, job.finished_at = Job.State.FAILED, f"{type(error).__name__}: {error}", timezone.now()
        job.save(update_fields=["state", "error", "finished_at"])
        raise
    finally:
        stop.set()
        heartbeat.join()
    job.state, job.finished_at = Job.State.DONE, timezone.now()
    job.save(update_fields=["state", "report", "filename", "finished_at"])


HEARTBEAT = 2.0  # seconds


def _beat(job: Job, stop: threading.Event) -> None:
    """While the work runs, even in a long step that reports nothing (reading a workbook), the
    progress is touched every ``HEARTBEAT`` seconds: a job whose progress stands still has lost
    its worker."""
    while not stop.wait(HEARTBEAT):
        job.touch_progress()
