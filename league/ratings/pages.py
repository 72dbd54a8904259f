"""The ratings where people look: the club's rating list of a game, a member's rating on his
page (league.ratings.member) and the page that says how it is computed. Thin: the numbers
come from league.ratings.ledger's tables; a guest is shown only where the club wants."""

from __future__ import annotations

from django.shortcuts import render
from django.utils.translation import gettext
from django.views.decorators.http import require_safe

from league.ratings import figures
from league.ratings.lists import rating_rows
from league.ratings.models import Rating
from league.ratings.tables import RatingTable
from league.registry import access
from league.registry.access import require_club
from league.standings import games
from league.standings.pages import game_of, game_pills
from protocol.rules import RULESETS


@require_safe
def rating_list(request, slug):
    """The club's members by their rating in one game (``?spiel=``), the best first."""
    club = require_club(request, slug, access.can_view_club_data)
    rated = games.ordered(Rating.objects.filter(club=club).values_list("game", flat=True).distinct())
    game = game_of(request, rated)
    rows = rating_rows(club, game) if game else []
    table = RatingTable(rows, club_slug=club.slug)
    return render(request, "league/ratings.html", {
        "club": club, "game": game, "game_name": games.name(game) if game else "",
        "game_pills": game_pills(rated, game), "table": table, "settles_after": figures.settles_after(game or ""),
    })


@require_safe
def how_rated(request):
    """"Wie wird gewertet?": the method in plain words."""
    rated = [{"name": ruleset.name, "results": gettext(ruleset.rating_results),
              "settles_after": ruleset.rating_settles_after} for ruleset in RULESETS.values()]
    return render(request, "league/ratings_how.html", {"base": figures.BASE, "scale": figures.SCALE, "games": rated,
                                                       "partner_min": figures.PARTNER_MIN_GAMES})
