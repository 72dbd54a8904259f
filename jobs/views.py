"""A job's pages: the progress page (polled by htmx), the download, the retry.

Who sees a job: the user who started it and the club's secretaries (and staff); a job's
file holds club data, so anyone else gets 403 even when they may see the club.
"""

from django.http import FileResponse, Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from league.registry import access
from league.registry.access import require_club

from . import tasks
from .models import Job
from .work import TEMPLATES, TITLES

XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


def _job(request, slug, pk, methods=None) -> tuple:
    """The club of ``slug`` and its job ``pk``, for who started it and the club's managers
    (``access.can_follow_job``); anonymous visitors are sent to the login."""
    club = require_club(request, slug, access.is_signed_in)
    job = get_object_or_404(Job.objects.select_related("started_by", "club"), pk=pk, club=club)
    access.require(request.user, access.can_follow_job(request.user, job))
    access.require_method(request, methods)
    return club, job


def _context(club, job) -> dict:
    return progress_context(club, job, progress_url=reverse("job_progress", args=[club.slug, job.pk]),
                            retry_url=reverse("job_retry", args=[club.slug, job.pk]),
                            download_url=reverse("job_download", args=[club.slug, job.pk]))


def progress_context(club, job, **urls) -> dict:
    """What the progress page and its fragment show, with the ``progress_url``, ``retry_url``
    (and ``download_url``) of the job's pages (a club's, or the site's: ``jobs.site_views``)."""
    progress = job.progress()
    total = progress["total"]
    return {"club": club, "job": job, "progress": progress, "stalled": job.is_stalled(progress), **urls,
            "phase": _(progress["phase"]) if progress["phase"] else "",
            "percent": min(100, round(100 * progress["done"] / total)) if total else None,
            "finished": job.state in (Job.State.DONE, Job.State.FAILED),
            "job_title": TITLES.get(job.kind) or _("Background job"),
            "report_template": TEMPLATES.get(job.kind, "")}


@require_safe
def job_page(request, slug, pk):
    club, job = _job(request, slug, pk)
    return render(request, "jobs/job.html", _context(club, job))


@require_safe
def job_progress(request, slug, pk):
    """The progress fragment htmx swaps in every second until the job is finished."""
    club, job = _job(request, slug, pk)
    return render(request, "jobs/includes/progress.html", _context(club, job))


@require_safe
def job_download(request, slug, pk):
    club, job = _job(request, slug, pk)
    if not job.has_result:
        raise Http404
    return FileResponse(open(job.result_path, "rb"), as_attachment=True, filename=job.filename,
                        content_type=XLSX if job.filename.endswith(".xlsx") else None)


def job_retry(request, slug, pk):
    club, job = _job(request, slug, pk, methods=("POST",))
    if job.can_retry():
        tasks.retry(job)
    return redirect("job", slug=club.slug, pk=job.pk)
