"""The Partien of a table that are still provisional: finished, within the club's correction
window and not confirmed by every player (``league.registry.correction_window``).

Asked whenever a page shows them, never kept: a window closes without any write, so nothing
a stamp sees changes then. A page that keeps what it shows has :attr:`Provisional.key` in the
key of what it keeps: when a window closes (or the last player confirms) the key changes and
the page is written anew, without the mark.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.utils import timezone

from league.models import Club, Member, Season
from league.standings.ranking import COUNTED
from protocol.confirmations import not_confirmed_by_all
from protocol.models import Match


@dataclass(frozen=True)
class Provisional:
    """The provisional Partien (their ids) and when the last of their windows closes."""

    matches: frozenset[int]
    until: datetime.datetime | None

    def __bool__(self) -> bool:
        return bool(self.matches)

    def __len__(self) -> int:
        return len(self.matches)

    @property
    def key(self) -> str:
        """For the key of a kept page: changes as soon as one of them is final."""
        return ".".join(map(str, sorted(self.matches))) or "-"


def provisional_partien(club: Club, season: Season | None = None, game: str | None = None,
                        member: Member | None = None, now: datetime.datetime | None = None) -> Provisional:
    """The club's Partien still provisional now (of ``season``, of ``game``, with ``member``
    at the table, where given): one statement over the Partien finished within the window."""
    now = now or timezone.now()
    matches = Match.objects.filter(COUNTED, club=club, finished_at__gt=now - club.correction_window)
    if season is not None:
        matches = matches.filter(season=season)
    if game:
        matches = matches.filter(ruleset=game)
    if member is not None:
        matches = matches.filter(seats__member=member)
    rows = list(not_confirmed_by_all(matches).order_by().values_list("pk", "finished_at"))
    until = max((finished for _pk, finished in rows), default=None)
    return Provisional(frozenset(pk for pk, _finished in rows), until + club.correction_window if until else None)
