"""Publishing's pages: the secretary's settings, and the public page, embed, CSV and JSON.

Thin: fetch the published club and its season (404 otherwise), let
:mod:`league.publishing.serializers` compute the published table, lay it out.
"""

from __future__ import annotations

from django.contrib import messages
from django.core.cache import cache
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.utils.cache import get_conditional_response, patch_cache_control
from django.utils.translation import gettext as _
from django.views.decorators.clickjacking import xframe_options_exempt
from django.views.decorators.http import require_http_methods, require_safe

from league.models import Club
from league.ratings.lists import rating_rows
from league.registry import access
from league.registry.access import require_club
from league.standings import games

from . import live
from .forms import PublishingForm
from .origins import parse_origins
from .serializers import as_csv, as_json, public_table

PUBLIC_CACHE = "public, max-age=60"  # embed, CSV, JSON: the same for everyone, a minute old at most
BOARD_KEPT = 10 * 60  # a board is asked for within seconds of its change, then never again


@require_http_methods(["GET", "HEAD", "POST"])
def publishing_settings(request, slug):
    """The secretary publishes the club's results and lists the websites that may embed them."""
    club = require_club(request, slug, access.can_manage_club)
    # A copy to bind: a refused form must not change the club the page shows.
    form = PublishingForm(request.POST if request.method == "POST" else None, instance=Club.objects.get(pk=club.pk))
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(request, _("The publishing settings were saved."))
        return redirect("publishing_settings", slug=club.slug)
    seasons = list(club.seasons.order_by("-start"))
    return render(request, "league/publishing/settings.html", {"club": club, "form": form, "seasons": seasons},
                  status=400 if form.errors else 200)


def _published(slug, season_pk=None):
    club = get_object_or_404(Club, slug=slug, published=True)
    if season_pk is None:
        return club, None
    return club, get_object_or_404(club.seasons, pk=season_pk)


@require_safe
def public_index(request, slug):
    """The published club's seasons, newest first."""
    club, _season = _published(slug)
    return render(request, "league/publishing/index.html", {"club": club, "seasons": club.seasons.order_by("-start")})


@require_safe
def public_season(request, slug, season_pk):
    """A season's table and tournament results for everyone, with the addresses to embed it."""
    club, season = _published(slug, season_pk)
    # No public caching: the page around the table (base.html) is the visitor's own (login, CSRF).
    # The rating list of the season's game where the club publishes it (league.ratings: all its
    # Partien of that game, not the season's alone).
    ratings = rating_rows(club, games.of_season(season)) if club.published_ratings else None
    return render(request, "league/publishing/season.html", {"club": club, "season": season,
                                                            "table": public_table(club, season),
                                                            "ratings": ratings})


@require_safe
def public_live(request, slug, season_pk):
    """The live board of a tournament day, for the hall's projector and a phone at home: the
    board itself (``public_live_board``) and the script that follows it (static/js/live.js)."""
    club, season = _published(slug, season_pk)
    response = render(request, "league/publishing/live.html", {"club": club, "season": season,
                                                              "board": live.board(club, season),
                                                              "etag": live.board_tag(slug, season_pk)})
    response._csp_replace = {"script-src": ["'self'"]}  # no engine here: no WebAssembly either
    return response


@require_safe
def public_live_board(request, slug, season_pk):
    """The board alone, polled by every screen that shows it: its ETag is asked before
    anything is computed (``live.board_tag``), so an unchanged board is a bodiless 304, and a
    changed one is written once for all the screens (kept under its ETag)."""
    etag = live.board_tag(slug, season_pk)
    if etag is None:
        raise Http404
    unchanged = get_conditional_response(request, etag=etag)
    if unchanged is not None:
        unchanged["ETag"] = etag
        patch_cache_control(unchanged, public=True, no_cache=True)
        return unchanged
    # Every screen following the tournament asks for the same new board after each save: it is
    # written once per ETag (which covers all the board shows) and the others get those bytes.
    key = f"live-board:{etag}"
    html = cache.get(key)
    if html is None:
        club, season = _published(slug, season_pk)
        html = render_to_string("league/publishing/live_board.html", {"club": club, "season": season,
                                                                      "board": live.board(club, season)}, request)
        cache.set(key, html, BOARD_KEPT)
    response = HttpResponse(html)
    response["ETag"] = etag
    patch_cache_control(response, public=True, no_cache=True)
    return response


@xframe_options_exempt  # the CSP's frame-ancestors below says who may frame this page
@require_safe
def public_embed(request, slug, season_pk):
    """The table alone, for an iframe on the club's website: framing is allowed to the site
    itself and to the origins the club lists, and refused to every other (CSP frame-ancestors;
    every other page of the site sends ``frame-ancestors 'none'`` and X-Frame-Options DENY)."""
    club, season = _published(slug, season_pk)
    response = render(request, "league/publishing/embed.html", {"club": club, "season": season,
                                                                "table": public_table(club, season)})
    response._csp_replace = {"frame-ancestors": ["'self'", *embed_origins(club)],
                             "script-src": ["'self'"]}  # no engine here: no WebAssembly either
    response["Cache-Control"] = PUBLIC_CACHE
    return response


def embed_origins(club: Club) -> list[str]:
    """The club's embedding websites; stored ones were checked by the form, checked again here
    because they end up in a header (a bad row is dropped, not sent)."""
    try:
        return parse_origins(club.embed_origins)
    except ValueError:
        return []


@require_safe
def public_csv(request, slug, season_pk):
    club, season = _published(slug, season_pk)
    return _download(as_csv(public_table(club, season)), "text/csv; charset=utf-8", f"{club.slug}-{season.pk}.csv")


@require_safe
def public_json(request, slug, season_pk):
    club, season = _published(slug, season_pk)
    url = request.build_absolute_uri(request.path.removesuffix("tabelle.json"))
    return _download(as_json(public_table(club, season), url=url), "application/json", None)


def _download(body: bytes, content_type: str, filename: str | None) -> HttpResponse:
    response = HttpResponse(body, content_type=content_type)
    if filename:
        response["Content-Disposition"] = f'inline; filename="{filename}"'
    response["Cache-Control"] = PUBLIC_CACHE
    # Public data: a club's own website may read it with fetch() from its own pages.
    response["Access-Control-Allow-Origin"] = "*"
    return response

