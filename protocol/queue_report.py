"""What a table's phone says of its offline queue, so that the round board can show "3 Einträge
warten auf Übertragung" for a table whose network failed.

The server cannot see a phone's queue (static/js/offline/queue.js) while the phone is offline.
So the phone makes no request for it: the requests it makes anyway, the state poll of the match
page and the queue's own hand-over (protocol.views.sync), carry the number of entries still
waiting on it in the header :data:`HEADER`; a POST that hands one entry over says how many wait
behind it, so the last one of a queue says 0. A phone sends the header while something waits
there and until it has said 0 once: the other devices at the table (the secretary's phone
looking in) say nothing and do not overwrite it.

Per Partie the latest count and when it came are kept (``Match.queue_waiting``,
``Match.queue_reported_at``) by a plain UPDATE, not through the recording door: a report is no
fact of the Partie and raises no version. An unchanged count is written again at most once per
:data:`FRESH`, not once per poll. A header that is no small whole number is ignored.
"""

from __future__ import annotations

import datetime

from django.utils import timezone

from protocol.models import Match

HEADER = "X-Trumpfbuch-Waiting"
MOST = 9999  # more than a whole evening's entries: anything longer is no count
FRESH = datetime.timedelta(minutes=1)  # "zuletzt gemeldet vor 2 Min.": minutes are precise enough


def reported(request) -> int | None:
    """The count the request carries, or None: no header, or no whole number 0…:data:`MOST`."""
    raw = request.headers.get(HEADER)
    if raw is None:
        return None
    raw = raw.strip()
    if not (raw.isascii() and raw.isdigit()) or len(raw) > len(str(MOST)):
        return None
    return int(raw)


def keep(pk: int, count: int, stored: int, stored_at: datetime.datetime | None) -> bool:
    """Keep ``count`` for the Partie ``pk`` (whose stored report is ``stored`` at ``stored_at``),
    unless the same count was kept less than :data:`FRESH` ago. True if it was written."""
    now = timezone.now()
    if count == stored and stored_at is not None and now - stored_at < FRESH:
        return False
    Match.objects.filter(pk=pk).update(queue_waiting=count, queue_reported_at=now)
    return True


def note(request, match: Match) -> None:
    """Keep what ``request`` says of its phone's queue for ``match``; the caller asked already
    that the request may send entries to it."""
    count = reported(request)
    if count is not None:
        keep(match.pk, count, match.queue_waiting, match.queue_reported_at)


def minutes_ago(match: Match, now: datetime.datetime) -> int | None:
    """Whole minutes since the phone last said how many entries wait (None: it never did)."""
    if match.queue_reported_at is None:
        return None
    return max(0, int((now - match.queue_reported_at).total_seconds() // 60))
