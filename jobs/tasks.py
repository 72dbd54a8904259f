"""The one django-tasks task: run a job by its id (the job row holds what to do)."""

from django_tasks import task


@task()
def run_job(job_id: str) -> None:
    from . import work

    work.run(job_id)
