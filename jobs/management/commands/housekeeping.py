"""``python manage.py housekeeping``: the site's daily work, enqueued for the background worker.

Runs beside the worker (``make run`` and ``make serve`` start it) and every ``--interval``
seconds (300) enqueues what is due: the daily backup (``jobs.tasks.daily_backup``: into
``BACKUP_DIR``, the last ``BACKUP_KEEP`` kept; ``protocol.documents.background`` registers
it) when today has none yet, and once a day the removal of old jobs
(``jobs.tasks.clean_old_jobs``, after ``JOBS_KEEP_DAYS``). django-tasks has no scheduler of
its own; this is the smallest one that needs no extra server. The tasks check again
themselves, so several app servers each running it make one backup a day.

``--once``: look once and exit (for cron). ``--here``: do the work in this process, now,
without a worker (cron on a host without one: ``manage.py housekeeping --once --here``).
"""

import signal
import threading
import time

from django.core.management.base import BaseCommand
from django.utils import timezone

from jobs import housekeeping, tasks

RETRY_AFTER = 3600  # seconds: a backup still due an hour after it was enqueued is enqueued again


class Command(BaseCommand):
    help = "Enqueue the daily backup and the removal of old jobs when they are due (once, or every --interval s)."

    def add_arguments(self, parser):
        parser.add_argument("--interval", type=float, default=300, help="seconds between two looks (default 300)")
        parser.add_argument("--once", action="store_true", help="look once and exit")
        parser.add_argument("--here", action="store_true", help="do the due work in this process instead of enqueuing it")

    def handle(self, *args, interval, once, here, **options):
        self.here, self.enqueued, self.verbosity = here, {}, options["verbosity"]
        stop = threading.Event()
        if not once:
            for sig in (signal.SIGTERM, signal.SIGINT):
                signal.signal(sig, lambda *_: stop.set())
        while True:
            self.look()
            if once or stop.wait(interval):
                return

    def look(self) -> None:
        today, now = timezone.localdate(), time.monotonic()
        backup = self.enqueued.get("backup")
        if housekeeping.backup_due(today) and (
                backup is None or backup[0] != today or now - backup[1] > RETRY_AFTER):
            self.run(tasks.daily_backup, "backup")
            self.enqueued["backup"] = (today, now)
        if self.enqueued.get("clean") != today:
            self.run(tasks.clean_old_jobs, "clean")
            self.enqueued["clean"] = today

    def run(self, task, what: str) -> None:
        if self.here:
            result = task.call()
            self.stdout.write(f"{what}: {result}")
        else:
            task.enqueue()
            if self.verbosity > 1:
                self.stdout.write(f"{what}: enqueued")
