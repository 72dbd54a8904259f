"""The pages of a job for the whole site (no club: a backup, protocol/views/backups.py) under
/betrieb/: its progress page and its retry, for the site's operators (staff) only.

Everyone else: the login when anonymous, 403 when signed in (``access.require``).
"""

from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_safe

from league.registry import access

from . import tasks
from .models import Job
from .views import progress_context


def _site_job(request, pk, methods=None) -> Job:
    access.require(request.user, access.can_operate_site(request.user))
    access.require_method(request, methods)
    return get_object_or_404(Job.objects.select_related("started_by"), pk=pk, club__isnull=True)


def _context(job) -> dict:
    return progress_context(None, job, progress_url=reverse("site_job_progress", args=[job.pk]),
                            retry_url=reverse("site_job_retry", args=[job.pk]))


@require_safe
def site_job(request, pk):
    job = _site_job(request, pk)
    return render(request, "jobs/job.html", _context(job))


@require_safe
def site_job_progress(request, pk):
    job = _site_job(request, pk)
    return render(request, "jobs/includes/progress.html", _context(job))


def site_job_retry(request, pk):
    job = _site_job(request, pk, methods=("POST",))
    if job.can_retry():
        tasks.retry(job)
    return redirect("site_job", pk=job.pk)
