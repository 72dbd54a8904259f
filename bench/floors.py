"""The floors of the honest bench: the least work that gives the user the same result, as
views of their own behind the same middleware and session as the page they are the floor of.

None of them runs the application's own code path: a floor that calls the page's own reading,
stamps or query is the page measured against itself, and says nothing about what the page
could cost. Where the user gets bytes a page keeps, the floor serves those very bytes from the
cache (:func:`keep_bytes` stores them before timing); where the user waits for the engine,
the floor is the engine alone; where the user gets rows, the floor is raw SQL for the same
rows. ``bench.floor_urls`` adds these views to the site's URLs for the bench process only
(and for the load test's gunicorn).
"""

from __future__ import annotations

from django.core.cache import cache
from django.db import connection, transaction
from django.http import HttpResponse, HttpResponseForbidden, HttpResponseNotModified
from django.shortcuts import redirect

from bench.measure import SQL_MEMBER_PARTIEN, SQL_MEMBER_SANCTIONS, table_floor

PREFIX = "bench-bytes:"
# The pages whose engines the live preview's floor forks, by match pk, fed up to the Partie's last Spiel:
# the process keeps them as the site's workers keep theirs (protocol.engine_state's shared
# copies); the bench fills it.
KEPT: dict[int, object] = {}


def keep_bytes(name: str, content: bytes, etag: str | None = None) -> None:
    """Store a page's bytes (and the ETag it was sent with) for the cached floors."""
    cache.set(PREFIX + name, (bytes(content), etag), None)


def _signed_in(request) -> bool:
    return request.user.is_authenticated


def bare(request):
    """A signed-in bare GET: session, user, middleware, a response. The least any signed-in
    page costs; the save's floor redirects to it."""
    if not _signed_in(request):
        return HttpResponseForbidden()
    return HttpResponse("ok")


def _served(request, kept) -> HttpResponse:
    if kept is None:
        return HttpResponse(status=404)
    content, etag = kept
    if etag and request.headers.get("If-None-Match") == etag:
        response = HttpResponseNotModified()
    else:
        response = HttpResponse(content)
    if etag:
        response["ETag"] = etag
    return response


def cached(request, name: str):
    """The page's own bytes from the shared cache, for a signed-in user (a name starting with
    ``public``: anybody; ``card``: a session holding a table card): one cache read, answered 304 when the browser has them (its If-None-Match).

    The floor of every page that is kept: the standings and the member page as members open
    them between club evenings, an unchanged state poll (a bare cached GET). Nothing less
    gives the user the same page: the request must be read, the user known, the bytes fetched
    and sent."""
    if name.startswith("card"):  # a table card's phone: its session holds the card
        if request.session.get("table_card") is None:
            return HttpResponseForbidden()
    elif not name.startswith("public") and not _signed_in(request):
        return HttpResponseForbidden()
    return _served(request, cache.get(PREFIX + name))


def cached_checked(request, pk: int, name: str):
    """The same bytes from the cache after one indexed check of the Partie's version (its
    primary key): a page of a running Partie can change at every save, so the least it can do
    is ask the one row that says whether it did, then send what was kept for that version.

    The floor of the match page, of the Spiel form and of the state poll when the state changed."""
    if not _signed_in(request):
        return HttpResponseForbidden()
    with connection.cursor() as cursor:
        cursor.execute("SELECT version FROM protocol_match WHERE id = %s", [pk])
        row = cursor.fetchone()
    if row is None:
        return HttpResponse(status=404)
    return _served(request, cache.get(f"{PREFIX}{name}:{row[0]}"))


def feed(request, pk: int):
    """The live preview's floor: the engine alone. A fork of the kept engine state of the
    Partie (as a worker holds it, ``KEPT``), fed the one Spiel being typed (``body``, the
    bench's prepared Spiel), and the engine's answer: no fetch, no form, no template.
    Nothing less answers "what if this Spiel were saved"."""
    import json

    from protocol import reading

    if not _signed_in(request):
        return HttpResponseForbidden()
    engine = reading.fork(KEPT[pk]).replay  # Engine.fork: the kept state stays as it is
    engine.feed({"game": json.loads(request.POST["body"])})
    return HttpResponse(str(len(engine.problems.errors) + len(engine.finish().games)))


def _table(request, club_pk: int, season_pk: int | None, game: str | None = None):
    """A signed-in bare GET + the table of a season (or all time in ``game``) as the database
    computes it fastest (bench.measure.table_floor)."""
    if not _signed_in(request):
        return HttpResponseForbidden()
    return HttpResponse(str(table_floor(club_pk, season_pk, game)()))


def aggregate(request, club_pk: int, season_pk: int):
    """Bare GET + the season's table as SQL aggregates over the season's Partien: a table
    computed anew can do no less than add up the season's lines once."""
    return _table(request, club_pk, season_pk)


def aggregate_all_time(request, club_pk: int, game: str):
    """Bare GET + the club's all-time table of one game as SQL aggregates over every finished
    Partie of that game."""
    return _table(request, club_pk, None, game)


def member_cold(request, club_pk: int, season_pk: int, member_pk: int):
    """A member's season page computed anew (the first opening after a Partie finished): bare
    GET + the season's table as one aggregate, and what his page lists, each read once in one
    statement: his Partien of the season with every seat's total, and his sanction lines."""
    if not _signed_in(request):
        return HttpResponseForbidden()
    with connection.cursor() as cursor:
        table_floor(club_pk, season_pk, None)()
        cursor.execute(SQL_MEMBER_PARTIEN, [club_pk, season_pk, member_pk])
        partien = cursor.fetchall()
        cursor.execute(SQL_MEMBER_SANCTIONS, [member_pk])
        sanctions = cursor.fetchall()
    return HttpResponse(f"{len(partien)} {len(sanctions)}")


def one_row(request):
    """A one-row POST in one transaction, and its redirect (to the bare GET): a save writes at
    least one row and sends the phone somewhere."""
    from django.contrib.sessions.models import Session

    if not _signed_in(request) or request.method != "POST":
        return HttpResponseForbidden()
    with transaction.atomic():
        Session.objects.filter(session_key=request.session.session_key).update(expire_date=request.session.get_expiry_date())
    return redirect("bench_bare")


# The archive's first page as rows: each Partie with its season's and its winner's name, from
# the (club, date, id) index; then the seats of those 25 in one statement.
SQL_ARCHIVE = """
SELECT m.id, m.date, m.ruleset, s.name, m.place, w.name, m.status, m.ended_by, m.game_count
FROM protocol_match m LEFT JOIN league_season s ON s.id = m.season_id LEFT JOIN league_member w ON w.id = m.winner_id
WHERE m.club_id = %s ORDER BY m.date DESC, m.id DESC LIMIT 25
"""
SQL_ARCHIVE_SEATS = "SELECT match_id, name FROM protocol_seat WHERE match_id IN ({}) ORDER BY match_id, position"


def archive(request, club_pk: int):
    """Bare GET + raw SQL for the same 25 rows the archive's first page shows (date, game,
    season, place, winner, end, number of Spiele) and their seats: the rows cannot come
    cheaper than one indexed read of them and one of their seats."""
    if not _signed_in(request):
        return HttpResponseForbidden()
    with connection.cursor() as cursor:
        cursor.execute(SQL_ARCHIVE, [club_pk])
        rows = cursor.fetchall()
        ids = [row[0] for row in rows]
        cursor.execute(SQL_ARCHIVE_SEATS.format(",".join(["%s"] * len(ids))), ids)
        seats = cursor.fetchall()
    return HttpResponse(f"{len(rows)} {len(seats)}")
