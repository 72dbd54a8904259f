"""The Partien of a table that are still provisional: finished, within the club's correction
window and not confirmed by every player (``league.registry.correction_window``).

A window closes without any write, so nothing a stamp sees changes then. A page that keeps
what it shows has :attr:`Provisional.key` in the key of what it keeps: when a window closes (or
the last player confirms) the key changes and the page is written anew, without the mark.
:func:`kept_provisional` asks the database again only when that can have happened: the club's
or member's version moved (a Partie finished or was corrected, a player confirmed:
protocol.confirmations moves both) or the first of the windows closed.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.core.cache import cache
from django.utils import timezone

from league.models import Club, Member, Season
from league.registry.statements import Statements
from league.standings.ranking import COUNTED
from protocol.confirmations import not_confirmed_by_all
from protocol.models import Match


@dataclass(frozen=True)
class Provisional:
    """The provisional Partien (their ids) and when the last of their windows closes."""

    matches: frozenset[int]
    until: datetime.datetime | None
    first_final: datetime.datetime | None = None  # when the first of their windows closes

    def __bool__(self) -> bool:
        return bool(self.matches)

    def __len__(self) -> int:
        return len(self.matches)

    @property
    def key(self) -> str:
        """For the key of a kept page: changes as soon as one of them is final."""
        return ".".join(map(str, sorted(self.matches))) or "-"


def _provisional_statement(club, since, season, game, member):
    matches = Match.objects.filter(COUNTED, club=club, finished_at__gt=since)
    if season is not None:
        matches = matches.filter(season=season)
    if game is not None:
        matches = matches.filter(ruleset=game)
    if member is not None:
        matches = matches.filter(seats__member=member)
    return (not_confirmed_by_all(matches).order_by().values_list("pk", "finished_at"),)


# Written as SQL once per shape (league.registry.statements): building it, with its test of
# every seat's confirmation, cost more than running it on every cold table and member page.
_PROVISIONAL = Statements(_provisional_statement, club=int, since=datetime.datetime, season=int, game=str,
                          member=int)


def provisional_partien(club: Club, season: Season | None = None, game: str | None = None,
                        member: Member | None = None, now: datetime.datetime | None = None) -> Provisional:
    """The club's Partien still provisional now (of ``season``, of ``game``, with ``member``
    at the table, where given): one statement over the Partien finished within the window."""
    now = now or timezone.now()
    rows = _PROVISIONAL.rows(club=club.pk, since=now - club.correction_window,
                             season=season.pk if season is not None else None, game=game or None,
                             member=member.pk if member is not None else None)
    until = max((finished for _pk, finished in rows), default=None)
    first = min((finished for _pk, finished in rows), default=None)
    return Provisional(frozenset(pk for pk, _finished in rows), until + club.correction_window if until else None,
                       first + club.correction_window if first else None)


def kept_provisional(club: Club, season: Season | None = None, game: str | None = None,
                     member: Member | None = None, stamp: str = "") -> Provisional:
    """:func:`provisional_partien`, kept in the cache per the club's version and window and
    ``stamp`` (the member's, league.standings.table_cache.member_stamp, with ``member``) until
    the first of their windows closes."""
    scope = f"{season.pk if season else '-'}.{game or '-'}.{member.pk if member else '-'}.{stamp}"
    name = f"provisional:{club.pk}.{club.data_version}.{club.correction_window.total_seconds()}.{scope}"
    now = timezone.now()
    kept = cache.get(name)
    if kept is not None and (kept.first_final is None or now < kept.first_final):
        return kept
    fresh = provisional_partien(club, season, game, member, now)
    cache.set(name, fresh, 60 * 60)
    return fresh
