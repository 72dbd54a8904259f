"""What every printed sheet shares: HTML to PDF bytes, the print date, numbers as printed.

Pure presentation helpers, no rule and no database: each game's printed sheet
(``protocol/games/<game>/sheet.py``) lays its pages out with its templates on
``templates/sheet/base.html`` and hands the HTML to :func:`html_to_pdf`.
"""

from __future__ import annotations

import datetime
from pathlib import Path

from django.utils import timezone
from django.utils.safestring import mark_safe

from protocol.sheet.chart import PLAYER_COLOURS

TEMPLATES = Path(__file__).resolve().parents[2] / "templates" / "sheet"
A4_MM = (210, 297)
PAGE_MARGIN_MM = 12  # left and right, as @page in sheet.css


def html_to_pdf(html: str) -> bytes:
    """WeasyPrint, with every resource local: only file: and data: URLs may be read."""
    from weasyprint import HTML
    from weasyprint.urls import URLFetcher

    fetcher = URLFetcher(allowed_protocols={"file", "data"})
    return HTML(string=html, base_url=str(TEMPLATES), url_fetcher=fetcher).write_pdf()


def print_context(printed_at: datetime.datetime | None) -> dict:
    """The print date of the running foot and the page counter placeholders of base.html."""
    printed_at = printed_at or timezone.now()
    if timezone.is_aware(printed_at):
        printed_at = timezone.localtime(printed_at)
    return {
        "printed_at": printed_at,
        "page_number": mark_safe('<span class="page-number"></span>'),
        "page_count": mark_safe('<span class="page-count"></span>'),
    }


def content_width(landscape: bool) -> float:
    """The printable width in mm (A4 less the page margins of sheet.css)."""
    return (A4_MM[1] if landscape else A4_MM[0]) - 2 * PAGE_MARGIN_MM


def colour(seat: int) -> str:
    """A player's colour by his seat, the same on the table, the chart and the results."""
    return PLAYER_COLOURS[seat % len(PLAYER_COLOURS)]


def parse_date(value: str | None) -> datetime.date | None:
    try:
        return datetime.date.fromisoformat(value) if value else None
    except ValueError:
        return None


def mm(value: float) -> str:
    """A CSS length written out here, so that no locale turns 7.0 into "7,0"."""
    return f"{value:.1f}mm"
