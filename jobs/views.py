"""A job's pages: the progress page (polled by htmx), the download, the retry.

Who sees a job: the user who started it and the club's secretaries (and staff); a job's
file holds club data, so anyone else gets 403 even when they may see the club.
"""

from functools import wraps

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import FileResponse, Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from league.models import Club
from league.registry import access

from .models import Job
from .work import TEMPLATES

XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


def job_view(view):
    """Decorator: the job ``pk`` of the club ``slug`` for who started it and the club's managers."""

    @wraps(view)
    def wrapper(request, slug, pk):
        club = get_object_or_404(Club, slug=slug)
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        job = get_object_or_404(Job.objects.select_related("started_by"), pk=pk, club=club)
        if job.started_by_id != request.user.pk and not access.can_manage_club(request.user, club):
            raise PermissionDenied
        return view(request, club, job)

    return wrapper


def _context(club, job) -> dict:
    progress = job.progress()
    total = progress["total"]
    return {"club": club, "job": job, "progress": progress, "stalled": job.is_stalled(progress),
            "phase": _(progress["phase"]) if progress["phase"] else "",
            "percent": min(100, round(100 * progress["done"] / total)) if total else None,
            "finished": job.state in (Job.State.DONE, Job.State.FAILED),
            "report_template": TEMPLATES.get(job.kind, "")}


@job_view
@require_safe
def job_page(request, club, job):
    return render(request, "jobs/job.html", _context(club, job))


@job_view
@require_safe
def job_progress(request, club, job):
    """The progress fragment htmx swaps in every second until the job is finished."""
    return render(request, "jobs/includes/progress.html", _context(club, job))


@job_view
@require_safe
def job_download(request, club, job):
    if not job.has_result:
        raise Http404
    return FileResponse(open(job.result_path, "rb"), as_attachment=True, filename=job.filename,
                        content_type=XLSX if job.filename.endswith(".xlsx") else None)


@job_view
@require_POST
def job_retry(request, club, job):
    if job.can_retry():
        job.retry()
    return redirect("job", slug=club.slug, pk=job.pk)
