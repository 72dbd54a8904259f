"""Plausible dates: the one range every date on the site must lie in.

A Partie, a season, a round or a member's entry is dated from 1 January 1950 (older club
records are not kept here) to 31 December of next year (a season is planned ahead, hardly
further). Outside it a date is a typing error (9999-12-31, 0202-11-20), and such dates break
what is computed from them later (charts, the season a Partie falls into). The engine's
envelope check, the site's forms and the season import all ask here.
"""

from __future__ import annotations

import datetime

EARLIEST = datetime.date(1950, 1, 1)


def latest(today: datetime.date | None = None) -> datetime.date:
    """The last plausible date: 31 December of the year after ``today``."""
    return datetime.date((today or datetime.date.today()).year + 1, 12, 31)


def is_plausible(day: datetime.date, today: datetime.date | None = None) -> bool:
    return EARLIEST <= day <= latest(today)


def implausible(day: datetime.date, today: datetime.date | None = None) -> str | None:
    """Why ``day`` can't be right (German, for the engine's messages), or None."""
    if is_plausible(day, today):
        return None
    return (f"Das Datum {day:%d.%m.%Y} kann nicht stimmen: erlaubt sind Daten vom "
            f"{EARLIEST:%d.%m.%Y} bis zum {latest(today):%d.%m.%Y}.")
