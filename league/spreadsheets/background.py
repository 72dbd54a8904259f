"""The league's long work, done by a worker (``jobs``): season and club exports, the
season import's dry run and the import, and those of a club's own points lists.

Each function is registered for its job kind; it reads its parameters from the job, tells
the progress what it does, and writes the job's result file. The modules that read and
write workbooks (openpyxl) are imported by the work, not while the site loads.
"""

from __future__ import annotations

from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from jobs.models import upload_path
from jobs.work import register


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


# -- the imports: the dry run, then (confirmed) the import ------------------------------------

def register_import(check: str, confirmed: str, *, titles: tuple, template: str):
    """Decorator: ``work(job, progress, season=..., dry_run=...)`` -> the report as JSON for the
    job's page, registered as the dry run ``check`` (the whole import, rolled back) and the
    confirmed import ``confirmed`` of the file its dry run checked (checked again, all or
    nothing; the upload goes once it is in). The work runs in German, as the site speaks,
    with the season the job names; a file that is no workbook is the report's ``unreadable``."""

    def report(work, job, progress, dry_run: bool) -> dict:
        from league.spreadsheets.archive import WorkbookUnreadable

        with translation.override(settings.LANGUAGE_CODE):
            season = None
            if job.params.get("season") is not None:
                season = job.club.seasons.filter(pk=job.params["season"]).first()
                if season is None:
                    return {"unreadable": _("The season chosen for the import no longer exists.")}
            try:
                return work(job, progress, season=season, dry_run=dry_run)
            except WorkbookUnreadable as unreadable:
                return {"unreadable": str(unreadable)}

    def decorator(work):
        @register(check, title=titles[0], template=template)
        def dry_run(job, progress) -> None:
            job.report = report(work, job, progress, dry_run=True)

        @register(confirmed, title=titles[1], template=template)
        def imported(job, progress) -> None:
            job.report = report(work, job, progress, dry_run=False)
            if job.report.get("saved"):
                upload_path(job.params["upload"]).unlink(missing_ok=True)

        return work

    return decorator


@register_import("season_check", "season_import", template="league/includes/import_report.html",
                 titles=(gettext_lazy("Season import: dry run"), gettext_lazy("Season import")))
def _import(job, progress, *, season, dry_run: bool) -> dict:
    from league.spreadsheets import imports

    report = imports.import_season(upload_path(job.params["upload"]), club=job.club, season=season,
                                   user=job.started_by, dry_run=dry_run, progress=progress)
    names = [name for name in report.seasons if name]
    target = job.club.seasons.filter(name=names[0]).first() if len(report.seasons) == 1 and names else None
    return {"ok": report.ok, "saved": report.saved, "dry_run": dry_run, "summary": report.summary(),
            "notes": report.notes, "matches": report.matches, "games": report.games,
            "season": target.pk if target else None,
            "problems": [{"sheet": p.sheet, "row": p.row, "column": p.column, "header": p.header,
                          "message": p.message} for p in report.problems]}


# -- a club's own points lists: the dry run, then (confirmed) the import -----------------------

@register_import("points_check", "points_import", template="league/includes/points_report.html",
                 titles=(gettext_lazy("Points lists: dry run"), gettext_lazy("Points lists: import")))
def _points(job, progress, *, season, dry_run: bool) -> dict:
    from league.spreadsheets.points_import import import_points_list  # here: it loads openpyxl
    from league.spreadsheets.points_mapping import Mapping

    return import_points_list(upload_path(job.params["upload"]), club=job.club, game=job.params["game"],
                              season=season, mapping=Mapping.from_json(job.params.get("mapping")),
                              guests=bool(job.params.get("guests")), user=job.started_by, dry_run=dry_run,
                              progress=progress).as_json()
