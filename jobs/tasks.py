"""The django-tasks tasks: a job run by its id (the job row holds what to do), and the
site's daily housekeeping (``jobs.housekeeping``), enqueued by ``manage.py housekeeping``.

The queue stores each task by its dotted path (``jobs.tasks.daily_backup``): a task moved or
renamed would leave the rows already queued unrunnable, so these stay where they are and the
work they do is what the apps registered.

Starting a job is queueing its task: :func:`start` a new one, :func:`retry` one again (the
job's row below them knows nothing of the queue)."""

from django.conf import settings
from django.core.management import call_command
from django_tasks import task

from . import housekeeping, work
from .models import Job


@task()
def run_job(job_id: str) -> None:
    work.run(job_id)


def start(kind: str, *, club, user, params: dict | None = None, filename: str = "") -> Job:
    """A new job of ``kind`` for ``club``, queued for a worker."""
    if kind not in work.WORK:
        raise ValueError(f"no work registered for the job kind {kind!r}")
    job = Job.objects.create(kind=kind, club=club, started_by=user if user and user.is_authenticated else None,
                             params=params or {}, filename=filename)
    run_job.enqueue(str(job.pk))
    return job


def retry(job: Job) -> None:
    """Start ``job`` again from the beginning (after its worker died or the work failed)."""
    job.forget_files()
    job.state, job.error, job.report, job.finished_at = Job.State.QUEUED, "", None, None
    job.save(update_fields=["state", "error", "report", "finished_at"])
    run_job.enqueue(str(job.pk))


@task()
def daily_backup() -> str | None:
    """Today's backup into ``BACKUP_DIR`` unless there is one, keeping the last ``BACKUP_KEEP``;
    answers the new file's name."""
    written = housekeeping.daily_backup()
    return written.name if written else None


@task()
def clean_old_jobs() -> dict:
    """Jobs ended more than ``JOBS_KEEP_DAYS`` ago go, with their files; so do the database
    backend's own task rows of that age."""
    counts = housekeeping.clean_old_jobs()
    if settings.TASKS_BACKEND == "database":
        call_command("prune_db_task_results", min_age_days=settings.JOBS_KEEP_DAYS, verbosity=0)
    return counts
