"""The season table (and a member's place in it over time), computed once per state of
the data and kept in Django's cache.

A table changes only when a finished Partie of the club is written, a Partie finishes, reopens
or is deleted, a member is renamed, made a guest or inactive, or a season's name, ranking rule,
mode or game changes. Each of these moves the club's ``data_version`` in the write's own transaction
(league.registry.versions), so the *stamp* is read from the club's row the page fetched anyway:
no query of its own, whatever the club has played, and a cached table is never stale (a new
stamp is a new cache key). What the viewer adds (his own row, the member links, sorting and
page) is part of the key of the rendered table.

A member's own Partien (running ones too) and his sanctions have a stamp of their own,
:func:`member_stamp`, his ``data_version``, moved by every write to one of his Partien: his page
is kept between writes to his Partien and never waits for a write to anybody else's.

The cache is Django's (``CACHES``: per process by default, Redis where configured).
"""

from __future__ import annotations

import hashlib

from django.core.cache import cache

from league.models import Club, Member, Season
from league.registry.statements import Statements
from league.standings.history import PartieResult, member_partien, rank_history
from league.standings.ranking import standings
from league.standings.sanctions import Sanction, sanction_history

TIMEOUT = 60 * 60  # an unused table leaves the cache after an hour


def kept(name: str, compute):
    """``compute()``, kept in the cache under ``name`` (a key naming the stamp it was computed
    for). Django's get_or_set reads an entry it wrote back from the cache, in case another
    worker wrote one meanwhile: here both are the same value, so the computed one is given and
    a cold page reads each entry once."""
    value = cache.get(name)
    if value is None:
        value = compute()
        cache.set(name, value, TIMEOUT)
    return value


def data_stamp(club: Club, season: Season | None, game: str | None = None) -> str:
    """Changes whenever anything the club's table shows may have changed: the club's version
    (league.registry.versions) and the season's rule as the page read them."""
    rule = f"{season.ranking_rule}.{season.mode}.{season.ruleset}" if season else "-"
    scope = season.pk if season else f"all.{game or '-'}"
    return f"{club.pk}.{club.data_version}.{scope}.{rule}"


def club_seasons(club: Club) -> list[Season]:
    """The club's seasons (every save or deletion of one moves the club's version)."""
    return kept(f"seasons:{club.pk}.{club.data_version}", lambda: _SEASONS.objects(club=club.pk))


# Written as SQL once (league.registry.statements): Django's building of it cost more than its run.
_SEASONS = Statements(lambda club: (Season.objects.filter(club=club),), club=int)


def cached_standings(club: Club, season: Season | None, stamp: str, game: str | None = None):
    """league.standings.ranking.standings(club, season, game=game), computed once per stamp."""
    return kept(f"standings:{stamp}", lambda: standings(club, season, game=game))


def cached_rank_history(club: Club, season: Season | None, member: Member, stamp: str, game: str | None = None):
    """league.standings.history.rank_history(club, season, member, game), computed once per
    stamp: the places after each evening read the same finished Partien as the table."""
    return kept(f"rank-history:{stamp}:{member.pk}", lambda: rank_history(club, season, member, game))


def member_stamp(member: Member, seasons: list[Season]) -> str:
    """Changes whenever anything of ``member``'s own Partien may have changed, in any season
    and running ones too: every write to one of them moves his version
    (league.registry.versions). The names of ``seasons`` (the club's, read by the page anyway)
    name the Partien's seasons in his sanction list."""
    names = hashlib.blake2b(repr([(s.pk, s.name) for s in seasons]).encode(), digest_size=8).hexdigest()
    return f"{member.pk}.{member.data_version}.{names}"


def cached_member_partien(member: Member, season: Season | None, game: str | None, stamp: str) -> list[PartieResult]:
    """league.standings.history.member_partien(member, season, game), computed once per
    :func:`member_stamp`."""
    return kept(f"member-partien:{stamp}:{season.pk if season else 'all'}:{game or '-'}",
                lambda: member_partien(member, season, game))


def cached_sanctions(member: Member, stamp: str) -> list[Sanction]:
    """league.standings.sanctions.sanction_history(member), computed once per :func:`member_stamp`."""
    return kept(f"sanctions:{stamp}", lambda: sanction_history(member))
