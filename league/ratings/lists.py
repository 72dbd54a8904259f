"""The club's rating list of one game, as its page and the workbook show it."""

from __future__ import annotations

from league.ratings import figures
from league.ratings.models import Rating


def rating_rows(club, game: str) -> list[dict]:
    """The rated of ``game``, the highest figure first (then by name), each with its place;
    guests only where the club shows their ratings. One query."""
    ratings = Rating.objects.filter(club=club, game=game).select_related("member")
    if not club.ratings_show_guests:
        ratings = ratings.filter(member__is_guest=False)
    rows = sorted(({"member_pk": r.member_id, "name": r.member.name, "figure": figures.shown(r.mu, r.sigma),
                    "games": r.games, "provisional": figures.provisional(game, r.games)} for r in ratings),
                  key=lambda row: (-row["figure"], row["name"]))
    for place, row in enumerate(rows, 1):
        row["rank"] = place
    return rows
