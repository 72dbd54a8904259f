"""A Partie's printed sheet, and the job that prints a long one in the background.

A sheet of up to ``SHEET_IN_BACKGROUND_AFTER`` entries prints within the request (the
benchmark's 60-Spiele sheet takes about a second); a longer one (a Partie holds up to 200,
``protocol.rules.envelope.MAX_EVENTS``) is a job (``jobs``): the button leads to the job's
page, its progress, and the download. One job per Partie, its state (version) and person:
asking again leads to the same job until the Partie changes. The work is registered for its
kind when the app is ready (``protocol.apps``).

Every sheet printed from a stored Partie carries its check code and the QR code of its public
check page (protocol/sheet/check.py), for the version it prints: the site's address comes
from ``SITE_URL`` or the request that asked for the sheet (the job keeps it in its params).
"""

from __future__ import annotations

from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, gettext_noop

from jobs.models import Job
from jobs.tasks import start
from jobs.work import register
from league.registry.qr import qr_svg
from protocol import games, reading, sheet
from protocol.models import Match
from protocol.sheet import check

SHEET_IN_BACKGROUND_AFTER = 40  # entries (Spiele, Strafen, Verwarnungen, the end ...)
KIND = "match_sheet"  # stored in the job rows: renaming it would orphan the queued ones


def is_long(match) -> bool:
    return match.events.count() > SHEET_IN_BACKGROUND_AFTER


def sheet_filename(match) -> str:
    return f"{games.plugin_of(match).pdf_name}-{match.club.slug}-{match.date:%Y-%m-%d}-partie-{match.pk}.pdf"


def render_match_sheet(match, site: str = "") -> bytes:
    """The sheet of a running or finished match, as the engine computes it from the stored facts:
    the printed sheet of its game (protocol/games/<game>/sheet.py), with the stored facts it
    shows besides the engine's answer (the game plug-in's ``pdf_options``) and the check code
    of the version it prints (its QR code opens the check page at ``site``)."""
    page = reading.page(match, just_fetched=True)  # the answer with the version it is of
    return sheet.render_sheet(page.computed, check=sheet_check(match.pk, page.version, site),
                              **games.plugin_of(match).pdf_options(match))


def sheet_check(match_id: int, version: int, site: str) -> dict:
    """What the sheet prints to be checked: the code, its QR code (inline SVG, as an invitation's)
    and the check page's address without its scheme, to type."""
    code = check.make(match_id, version)
    url = check.url(code, site or settings.SITE_URL)
    absolute = "://" in url  # no address known (a job of an older release, no SITE_URL): no QR code
    return {"code": code, "url": url, "address": url.split("://", 1)[-1].removesuffix(f"{code}/"),
            "qr": qr_svg(url, _("QR code of the check page")) if absolute else ""}


def sheet_job(match, user, site: str = "") -> Job:
    """The job printing this state of the Partie for ``user``: the one already asked for (not
    failed), or a new one. ``site``: the address its QR code leads to."""
    params = {"match": match.pk, "version": match.version, "site": site}
    existing = (Job.objects.filter(kind=KIND, club=match.club, started_by=user, params=params)
                .exclude(state=Job.State.FAILED).first())
    if existing is not None and (existing.state != Job.State.DONE or existing.has_result):
        return existing
    return start(KIND, club=match.club, user=user, params=params, filename=sheet_filename(match))


@register(KIND, title=gettext_lazy("Score sheet (PDF)"))
def match_sheet(job, progress) -> None:
    match = Match.objects.select_related("club").get(pk=job.params["match"], club=job.club)
    progress(0, 1, gettext_noop("Printing the sheet"))
    with translation.override(settings.LANGUAGE_CODE):  # the club's German document
        pdf = render_match_sheet(match, job.params.get("site", ""))
    with job.writing_result() as file:
        file.write(pdf)
    progress(1, 1)
