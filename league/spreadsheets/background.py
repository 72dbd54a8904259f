"""The league's long work, done by a worker (``jobs``): season and club exports, the
season import's dry run and the import.

Each function is registered for its job kind; it reads its parameters from the job, tells
the progress what it does, and writes the job's result file.
"""

from __future__ import annotations

from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from jobs.models import upload_path
from jobs.work import register

# The workbook modules (openpyxl) load when a job runs, not with the apps: every process
# (the check command, each web worker) would pay for them.


@register("season_export", title=gettext_lazy("Season export"))
def season_export(job, progress) -> None:
    from league.spreadsheets import exports

    season = job.club.seasons.get(pk=job.params["season"])
    with job.writing_result() as file:
        exports.write_season(job.club, season, file, progress=progress)


@register("club_export", title=gettext_lazy("Export of all seasons"))
def club_export(job, progress) -> None:
    """Every season: all Partien and the all-time table."""
    from league.spreadsheets import exports

    with job.writing_result() as file:
        exports.write_season(job.club, None, file, progress=progress)


# -- the season import: the dry run, then (confirmed) the import ------------------------------

@register("season_check", title=gettext_lazy("Season import: dry run"),
          template="league/includes/import_report.html")
def season_check(job, progress) -> None:
    """The dry run of an uploaded workbook: the whole import, rolled back; its report."""
    job.report = _import(job, progress, dry_run=True)


@register("season_import", title=gettext_lazy("Season import"),
          template="league/includes/import_report.html")
def season_import(job, progress) -> None:
    """The confirmed import of the workbook its dry run checked (checked again, all or nothing)."""
    job.report = _import(job, progress, dry_run=False)
    if job.report.get("saved"):
        upload_path(job.params["upload"]).unlink(missing_ok=True)


def _import(job, progress, *, dry_run: bool) -> dict:
    """The import's report as JSON for the job's page (German, as the site speaks)."""
    from league.spreadsheets import imports

    with translation.override(settings.LANGUAGE_CODE):
        season = None
        if job.params.get("season") is not None:
            season = job.club.seasons.filter(pk=job.params["season"]).first()
            if season is None:
                return {"unreadable": _("The season chosen for the import no longer exists.")}
        try:
            report = imports.import_season(upload_path(job.params["upload"]), club=job.club, season=season,
                                           user=job.started_by, dry_run=dry_run, progress=progress)
        except imports.WorkbookUnreadable as unreadable:
            return {"unreadable": str(unreadable)}
        names = [name for name in report.seasons if name]
        target = job.club.seasons.filter(name=names[0]).first() if len(report.seasons) == 1 and names else None
        return {"ok": report.ok, "saved": report.saved, "dry_run": dry_run, "summary": report.summary(),
                "notes": report.notes, "matches": report.matches, "games": report.games,
                "season": target.pk if target else None,
                "problems": [{"sheet": p.sheet, "row": p.row, "column": p.column, "header": p.header,
                              "message": p.message} for p in report.problems]}
