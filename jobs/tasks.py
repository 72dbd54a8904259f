"""The django-tasks tasks: a job run by its id (the job row holds what to do), and the
site's daily housekeeping (``jobs.housekeeping``), enqueued by ``manage.py housekeeping``.

The queue stores each task by its dotted path (``jobs.tasks.daily_backup``): a task moved or
renamed would leave the rows already queued unrunnable, so these stay where they are and the
work they do is what the apps registered."""

from django.conf import settings
from django.core.management import call_command
from django_tasks import task


@task()
def run_job(job_id: str) -> None:
    from . import work

    work.run(job_id)


@task()
def daily_backup() -> str | None:
    """Today's backup into ``BACKUP_DIR`` unless there is one, keeping the last ``BACKUP_KEEP``;
    answers the new file's name."""
    from . import housekeeping

    written = housekeeping.daily_backup()
    return written.name if written else None


@task()
def clean_old_jobs() -> dict:
    """Jobs ended more than ``JOBS_KEEP_DAYS`` ago go, with their files; so do the database
    backend's own task rows of that age."""
    from . import housekeeping

    counts = housekeeping.clean_old_jobs()
    if settings.TASKS_BACKEND == "database":
        call_command("prune_db_task_results", min_age_days=settings.JOBS_KEEP_DAYS, verbosity=0)
    return counts
