"""The season table (and a member's place in it over time), computed once per state of
the data and kept in Django's cache.

A table changes only when a finished Partie of the club is written (every write saves the
Match with a new ``updated_at``), a Partie finishes, reopens or is deleted, a member is
renamed or the season's ranking rule or mode changes. The *stamp* covers exactly these, in two small queries, so a
cached table is never stale: a new stamp is a new cache key. What the viewer adds (his own
row, the member links, sorting and page) is part of the key of the rendered table.

A member's own Partien (running ones too) and his sanctions have a stamp of their own,
:func:`member_stamp`: one query over his seats, so that his page is kept between writes to
his Partien and never waits for a write to anybody else's.

The cache is Django's (``CACHES``: per process by default, Redis where configured).
"""

from __future__ import annotations

import hashlib

from django.core.cache import cache
from django.db.models import Count, Max, Sum

from league.models import Club, Member, Season
from league.standings.history import PartieResult, member_partien, rank_history
from league.standings.ranking import COUNTED, standings
from league.standings.sanctions import Sanction, sanction_history
from league.standings.statements import Statements
from protocol.models import Match

TIMEOUT = 60 * 60  # an unused table leaves the cache after an hour


def data_stamp(club: Club, season: Season | None, game: str | None = None) -> str:
    """Changes whenever anything the club's table shows may have changed."""
    # Only finished Partien count (league.standings.ranking.COUNTED): a Spiel saved into a running
    # one leaves the table as it is, so the tables being played tonight don't empty the
    # cache; finishing, reopening, annulling or deleting one changes the count or the time.
    finished, members = _DATA_STAMP.run(club=club.pk)
    written = finished[0] if finished else {"last": None, "count": 0}
    names = hashlib.blake2b(digest_size=8)
    for row in members:
        names.update(repr(tuple(row.values())).encode())
    rule = f"{season.ranking_rule}.{season.mode}.{season.ruleset}" if season else "-"
    # as the driver reads it (SQLite's text, PostgreSQL's datetime), without a space in the key
    last = str(written["last"] or "-").replace(" ", "T")
    scope = season.pk if season else f"all.{game or '-'}"
    return f"{club.pk}.{scope}.{rule}.{written['count']}.{last}.{names.hexdigest()}"


# The stamp's two reads, written as SQL once (league.standings.statements): a third of the
# cold table's Python work beside its aggregates was Django building these two.
_DATA_STAMP = Statements(
    lambda club: (Match.objects.filter(COUNTED, club=club).values("club").order_by()
                  .annotate(last=Max("updated_at"), count=Count("pk")),
                  Member.objects.filter(club=club).order_by("pk").values("pk", "name", "is_guest", "active")),
    club=int)


def cached_standings(club: Club, season: Season | None, stamp: str, game: str | None = None):
    """league.standings.ranking.standings(club, season, game=game), computed once per stamp."""
    return cache.get_or_set(f"standings:{stamp}", lambda: standings(club, season, game=game), TIMEOUT)


def cached_rank_history(club: Club, season: Season | None, member: Member, stamp: str, game: str | None = None):
    """league.standings.history.rank_history(club, season, member, game), computed once per
    stamp: the places after each evening read the same finished Partien as the table."""
    return cache.get_or_set(f"rank-history:{stamp}:{member.pk}", lambda: rank_history(club, season, member, game),
                            TIMEOUT)


def member_stamp(member: Member, seasons: list[Season]) -> str:
    """Changes whenever anything of ``member``'s own Partien may have changed, in any season
    and running ones too: every write claims the next version of its Match (and saves its
    ``updated_at``), a Partie added or deleted changes the count and the newest pk. The names
    of ``seasons`` (the club's, read by the page anyway) name the Partien's seasons in his
    sanction list."""
    # His club's Partien only: PostgreSQL joins his seats to the Partien by a hash over the
    # filtered ones, and without the club that was every Partie of every club.
    row = Match.objects.filter(club_id=member.club_id, seats__member=member).aggregate(
        count=Count("pk"), versions=Sum("version"), newest=Max("pk"), last=Max("updated_at"))
    names = hashlib.blake2b(repr([(s.pk, s.name) for s in seasons]).encode(), digest_size=8).hexdigest()
    last = row["last"].isoformat() if row["last"] else "-"
    return f"{member.pk}.{row['count']}.{row['versions'] or 0}.{row['newest'] or 0}.{last}.{names}"


def cached_member_partien(member: Member, season: Season | None, game: str | None, stamp: str) -> list[PartieResult]:
    """league.standings.history.member_partien(member, season, game), computed once per
    :func:`member_stamp`."""
    return cache.get_or_set(f"member-partien:{stamp}:{season.pk if season else 'all'}:{game or '-'}",
                            lambda: member_partien(member, season, game), TIMEOUT)


def cached_sanctions(member: Member, stamp: str) -> list[Sanction]:
    """league.standings.sanctions.sanction_history(member), computed once per :func:`member_stamp`."""
    return cache.get_or_set(f"sanctions:{stamp}", lambda: sanction_history(member), TIMEOUT)
