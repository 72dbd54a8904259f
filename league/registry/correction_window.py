"""The correction window: how long a finished Partie's result may still be corrected.

Clubs fix a time after the end of a Partie during which its result may still be corrected
(bridge clubs: from 30 minutes to 48 hours); the club's secretary sets it
(``Club.correction_window``, 24 hours unless he chose otherwise, at most 14 days: the
bounds are the model's). The window runs from the moment the Partie finished
(``Match.finished_at``, written with the engine's status).

A finished Partie is

- *provisional* ("vorläufig") while its window is open and not every player confirmed the
  result as it stands: its Protokollant may still correct it (unless a player confirmed,
  ``access.can_correct``);
- *final* ("endgültig") once the window closed or every seat confirmed the current version:
  only the secretary corrects it then.

A running Partie is neither yet, an annulled one never (it says annulled). Nothing runs when
a window closes: each page asks here when it shows the Partie (:func:`finality`), and every
kept page has the Partien still provisional in its key.

``match`` is anything with ``status``, ``finished_at`` and ``club.correction_window`` (this
module imports nothing of ``protocol``).
"""

from __future__ import annotations

import datetime

from django.utils import timezone

PROVISIONAL = "provisional"
FINAL = "final"


def closes_at(match) -> datetime.datetime | None:
    """When the window of the finished ``match`` closes; None for a Partie not finished (or one
    finished before the site knew the moment: no window, it is final)."""
    if match.status != "finished" or match.finished_at is None:
        return None
    return match.finished_at + match.club.correction_window


def is_open(match, now: datetime.datetime | None = None) -> bool:
    """Whether the finished ``match`` is still within its club's correction window."""
    closing = closes_at(match)
    return closing is not None and (now or timezone.now()) < closing


def finality(match, *, confirmed_by_all: bool, now: datetime.datetime | None = None) -> str | None:
    """:data:`PROVISIONAL` or :data:`FINAL` for a finished Partie (``confirmed_by_all``: every
    seat confirmed the result as it stands); None for a running or annulled one."""
    if match.status != "finished":
        return None
    return PROVISIONAL if is_open(match, now) and not confirmed_by_all else FINAL
