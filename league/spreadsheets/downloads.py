"""The spreadsheets as downloads: the views only wrap ``league.spreadsheets.exports``.

A season or the whole club takes longer than a request may (a season of 1,000 Partien:
half a minute), so its export is a background job (``league.spreadsheets.background``): the button
starts it and the job's page shows the progress and ends in the download. One Partie's
workbook is written in the request, to a temporary file streamed from there. Members see the
club's data, so they may export it too (``can_view_club_data``). The exports (and openpyxl with
them) load with the first download, not in every web worker that loads the views.
"""

import tempfile

from django.http import FileResponse
from django.shortcuts import get_object_or_404, redirect
from django.views.decorators.http import require_safe

from jobs.tasks import start
from league.registry import access
from league.registry.access import require_club

XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


def _download(write, filename) -> FileResponse:
    file = tempfile.TemporaryFile()
    write(file)
    file.seek(0)
    return FileResponse(file, as_attachment=True, filename=filename, content_type=XLSX)


def export_season(request, slug, pk):
    from league.spreadsheets import exports  # noqa: PLC0415 - openpyxl loads where it is used

    club = require_club(request, slug, access.can_view_club_data, methods=("POST",))
    season = get_object_or_404(club.seasons, pk=pk)
    job = start("season_export", club=club, user=request.user, params={"season": season.pk},
                filename=exports.filename(club, season))
    return redirect("job", slug=club.slug, pk=job.pk)


def export_club(request, slug):
    """Every season: all Partien and the all-time table."""
    from league.spreadsheets import exports  # noqa: PLC0415 - openpyxl loads where it is used

    club = require_club(request, slug, access.can_view_club_data, methods=("POST",))
    job = start("club_export", club=club, user=request.user, filename=exports.filename(club))
    return redirect("job", slug=club.slug, pk=job.pk)


@require_safe
def export_match(request, slug, pk):
    from league.spreadsheets import exports  # noqa: PLC0415 - openpyxl loads where it is used

    club = require_club(request, slug, access.can_view_club_data)
    match = get_object_or_404(club.matches, pk=pk)
    return _download(lambda file: exports.write_match(match, file), exports.filename(club, match=match))
