"""A Partie's printed sheet, and the job that prints a long one in the background.

A sheet of up to ``SHEET_IN_BACKGROUND_AFTER`` entries prints within the request (the
benchmark's 60-Spiele sheet takes about a second); a longer one (a Partie holds up to 200,
``protocol.rules.envelope.MAX_EVENTS``) is a job: the button leads to the job's page, its
progress, and the download. One job per Partie, its state (version) and person: asking again
leads to the same job until the Partie changes.
"""

from __future__ import annotations

from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext_noop

from .models import Job, start
from .work import register

SHEET_IN_BACKGROUND_AFTER = 40  # entries (Spiele, Strafen, Verwarnungen, the end ...)
KIND = "match_sheet"


def is_long(match) -> bool:
    return match.events.count() > SHEET_IN_BACKGROUND_AFTER


def sheet_filename(match) -> str:
    from protocol import games

    return f"{games.plugin_of(match).pdf_name}-{match.club.slug}-{match.date:%Y-%m-%d}-partie-{match.pk}.pdf"


def render_match_sheet(match) -> bytes:
    """The sheet of a running or finished match, as the engine computes it from the stored facts:
    the printed sheet of its game (protocol/games/<game>/sheet.py), with the stored facts it
    shows besides the engine's answer (the game plug-in's ``pdf_options``)."""
    from protocol import games, services, sheet

    computed = services.evaluate_match(match).match
    return sheet.render_sheet(computed, **games.plugin_of(match).pdf_options(match))


def sheet_job(match, user) -> Job:
    """The job printing this state of the Partie for ``user``: the one already asked for (not
    failed), or a new one."""
    params = {"match": match.pk, "version": match.version}
    existing = (Job.objects.filter(kind=KIND, club=match.club, started_by=user, params=params)
                .exclude(state=Job.State.FAILED).first())
    if existing is not None and (existing.state != Job.State.DONE or existing.has_result):
        return existing
    return start(KIND, club=match.club, user=user, params=params, filename=sheet_filename(match))


@register(KIND)
def match_sheet(job, progress) -> None:
    from protocol.models import Match

    match = Match.objects.select_related("club").get(pk=job.params["match"], club=job.club)
    progress(0, 1, gettext_noop("Printing the sheet"))
    with translation.override(settings.LANGUAGE_CODE):  # the club's German document
        pdf = render_match_sheet(match)
    with job.writing_result() as file:
        file.write(pdf)
    progress(1, 1)
