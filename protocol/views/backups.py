"""The operators' backup page under /betrieb/ (staff only): the backup files with size and
date, each a download, and "Jetzt sichern", which starts a backup job (its page: ``jobs``).

Everyone else: the login when anonymous, 403 when signed in (``access.require``).
"""

from django.http import FileResponse, Http404
from django.shortcuts import redirect, render
from django.views.decorators.http import require_safe

from jobs.models import Job
from league.registry import access
from protocol.documents import background, backup_files


def _operator(request, methods=None) -> None:
    access.require(request.user, access.can_operate_site(request.user))
    access.require_method(request, methods)


def backup_list(request):
    """GET: the backup files with size and date, and the button; POST: start a backup job."""
    _operator(request, ("GET", "HEAD", "POST"))
    if request.method == "POST":
        job = background.start_backup(request.user)
        return redirect("site_job", pk=job.pk)
    recent = Job.objects.filter(club__isnull=True, kind=background.KIND)[:5]
    return render(request, "protocol/backups.html", {"backups": backup_files.backup_listing(), "jobs": recent})


@require_safe
def backup_download(request, name):
    _operator(request)
    backup = backup_files.find_backup(name)
    if backup is None:
        raise Http404
    return FileResponse(open(backup.path, "rb"), as_attachment=True, filename=backup.name,
                        content_type="application/json")
