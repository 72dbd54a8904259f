"""The site operators' pages (staff only): the backups, and a backup job's progress page.

Everyone else: the login when anonymous, 403 when signed in (``access.require``).
"""

from django.http import FileResponse, Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_safe

from league.registry import access

from . import backups
from .models import Job
from .views import progress_context


def _operator(request, methods=None) -> None:
    access.require(request.user, access.can_operate_site(request.user))
    access.require_method(request, methods)


def _site_job(request, pk, methods=None) -> Job:
    _operator(request, methods)
    return get_object_or_404(Job.objects.select_related("started_by"), pk=pk, club__isnull=True)


def backup_list(request):
    """GET: the backup files with size and date, and the button; POST: start a backup job."""
    _operator(request, ("GET", "HEAD", "POST"))
    if request.method == "POST":
        job = backups.start_backup(request.user)
        return redirect("site_job", pk=job.pk)
    recent = Job.objects.filter(club__isnull=True, kind=backups.KIND)[:5]
    return render(request, "jobs/backups.html", {"backups": backups.backup_listing(), "jobs": recent})


@require_safe
def backup_download(request, name):
    _operator(request)
    backup = backups.find_backup(name)
    if backup is None:
        raise Http404
    return FileResponse(open(backup.path, "rb"), as_attachment=True, filename=backup.name,
                        content_type="application/json")


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
        job.retry()
    return redirect("site_job", pk=job.pk)
