"""The floors of the honest bench: the least each page's work can cost, as views of their own.

Each floor goes through the same middleware, session and signed-in user as the page it is
the floor of, and does only what the page cannot avoid: a bare GET for a signed-in user;
plus the cache stamp for a cached page; plus the season's aggregate (driven from the
season's Partien) for a table computed anew, the club's aggregate over all its Partien of the
game for the all-time table; plus the two stamps of a member's kept page, or what it lists
(his Partien with their totals, his sanction lines) where it is computed anew; plus the access-checked fetch and the kept
engine state for a match page; plus feeding the one entry for the live preview; a one-row
POST and its redirect in one transaction for the save. ``bench.floor_urls`` adds them to
the site's URLs for the bench process only.
"""

from __future__ import annotations

from django.db import connection, transaction
from django.http import HttpResponse, HttpResponseForbidden
from django.shortcuts import redirect

from bench.measure import SQL_MEMBER_PARTIEN, SQL_MEMBER_SANCTIONS, table_floor


def _signed_in(request) -> bool:
    return request.user.is_authenticated


def bare(request):
    """A signed-in bare GET: session, user, middleware, a response."""
    if not _signed_in(request):
        return HttpResponseForbidden()
    return HttpResponse("ok")


def stamp(request, club_pk: int, season_pk: int):
    """Bare GET + the cache stamp a cached table is looked up by (league.table_cache): the
    club's row with its version and the season's, no aggregate over the Partien."""
    from league.models import Club
    from league.standings.table_cache import data_stamp

    if not _signed_in(request):
        return HttpResponseForbidden()
    club = Club.objects.get(pk=club_pk)
    return HttpResponse(data_stamp(club, club.seasons.get(pk=season_pk)))


def _table(request, club_pk: int, season_pk: int | None, game: str | None = None):
    """A signed-in bare GET + the table of a season (or all time in ``game``) as the database
    computes it fastest (bench.measure.table_floor)."""
    if not _signed_in(request):
        return HttpResponseForbidden()
    return HttpResponse(str(table_floor(club_pk, season_pk, game)()))


def aggregate(request, club_pk: int, season_pk: int):
    """Bare GET + the season's table as SQL aggregates over the season's Partien."""
    return _table(request, club_pk, season_pk)


def aggregate_all_time(request, club_pk: int, game: str):
    """Bare GET + the club's all-time table of one game as SQL aggregates over every finished
    Partie of that game."""
    return _table(request, club_pk, None, game)


def member(request, club_pk: int, season_pk: int, member_pk: int, cold: bool = False):
    """A member's season page. Kept (as members open it between club evenings): bare GET + the
    two stamps the page's kept table, places, Partien and sanctions are looked up by (the
    club's and his own version, read with their rows, league.registry.versions). Computed anew (``cold``): bare GET + the season's table
    as one aggregate, and what his page lists, each read once in one statement: his Partien
    of the season with every seat's total, and his sanction lines."""
    from league.models import Club, Member
    from league.standings.table_cache import data_stamp, member_stamp

    if not _signed_in(request):
        return HttpResponseForbidden()
    if not cold:
        club = Club.objects.get(pk=club_pk)
        seasons = list(club.seasons.all())
        season = next(s for s in seasons if s.pk == season_pk)
        return HttpResponse(data_stamp(club, season) + member_stamp(Member.objects.get(pk=member_pk), seasons))
    with connection.cursor() as cursor:
        table_floor(club_pk, season_pk, None)()
        cursor.execute(SQL_MEMBER_PARTIEN, [club_pk, season_pk, member_pk])
        partien = cursor.fetchall()
        cursor.execute(SQL_MEMBER_SANCTIONS, [member_pk])
        sanctions = cursor.fetchall()
    return HttpResponse(f"{len(partien)} {len(sanctions)}")


def _match(request, pk: int):
    from protocol.models import Match

    return Match.objects.select_related("club", "season", "winner").get(pk=pk)


def engine(request, pk: int):
    """Bare GET + the access-checked fetch of the Partie and its kept engine state."""
    from league.registry import access
    from protocol import reading

    if not _signed_in(request):
        return HttpResponseForbidden()
    match = _match(request, pk)
    if not access.can_view_match(request.user, match):
        return HttpResponseForbidden()
    return HttpResponse(str(len(reading.page(match).computed.games)))  # as the page reads it


def feed(request, pk: int):
    """Bare POST + the fetch + the kept state fed the one entry being typed (``body`` is the
    bench's prepared Spiel)."""
    import json

    from protocol import recording

    if not _signed_in(request):
        return HttpResponseForbidden()
    match = _match(request, pk)
    evaluation, _ = recording.preview(match, "game", json.loads(request.POST["body"]))
    return HttpResponse(str(len(evaluation.errors)))


def one_row(request):
    """A one-row POST in one transaction, and its redirect (to the bare GET)."""
    from django.contrib.sessions.models import Session

    if not _signed_in(request) or request.method != "POST":
        return HttpResponseForbidden()
    with transaction.atomic():
        Session.objects.filter(session_key=request.session.session_key).update(expire_date=request.session.get_expiry_date())
    return redirect("bench_bare")


def archive(request, club_pk: int):
    """Bare GET + the access-checked club + the first page of its archive (25 Partien with
    their seats)."""
    from league.models import Club
    from league.registry import access
    from protocol.models import Match

    if not _signed_in(request) or not access.can_view_club_data(request.user, Club.objects.get(pk=club_pk)):
        return HttpResponseForbidden()
    page = list(Match.objects.filter(club_id=club_pk).select_related("season", "winner")
                .prefetch_related("seats").order_by("-date", "-pk")[:25])
    return HttpResponse(str(len(page)))
