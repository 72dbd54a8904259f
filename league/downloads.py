"""The spreadsheets as downloads: the view only wraps ``league.exports``.

The workbook is written to a temporary file and streamed from there, so a large season
costs disk, not memory. Members see the club's data, so they may export it too
(``can_view_club_data``).
"""

import tempfile

from django.http import FileResponse
from django.shortcuts import get_object_or_404
from django.views.decorators.http import require_safe

from . import access, exports
from .pages import club_view

XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


def _download(write, filename) -> FileResponse:
    file = tempfile.TemporaryFile()
    write(file)
    file.seek(0)
    return FileResponse(file, as_attachment=True, filename=filename, content_type=XLSX)


@club_view(access.can_view_club_data)
@require_safe
def export_season(request, club, pk):
    season = get_object_or_404(club.seasons, pk=pk)
    return _download(lambda file: exports.write_season(club, season, file), exports.filename(club, season))


@club_view(access.can_view_club_data)
@require_safe
def export_club(request, club):
    """Every season: all Partien and the all-time table."""
    return _download(lambda file: exports.write_season(club, None, file), exports.filename(club))


@club_view(access.can_view_club_data)
@require_safe
def export_match(request, club, pk):
    match = get_object_or_404(club.matches, pk=pk)
    return _download(lambda file: exports.write_match(match, file), exports.filename(club, match=match))
