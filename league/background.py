"""The league's long work, done by a worker (``jobs``): season and club exports.

Each function is registered for its job kind; it reads its parameters from the job, tells
the progress what it does, and writes the job's result file.
"""

from __future__ import annotations

from jobs.work import register

from . import exports


@register("season_export")
def season_export(job, progress) -> None:
    season = job.club.seasons.get(pk=job.params["season"])
    with job.writing_result() as file:
        exports.write_season(job.club, season, file, progress=progress)


@register("club_export")
def club_export(job, progress) -> None:
    """Every season: all Partien and the all-time table."""
    with job.writing_result() as file:
        exports.write_season(job.club, None, file, progress=progress)
