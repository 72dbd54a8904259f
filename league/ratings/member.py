"""A member's rating on his page (league.standings.pages.member_page)."""

from __future__ import annotations

from league.models import Member
from league.ratings import figures
from league.ratings.models import Rating, RatingStep
from protocol.sheet import chart


def member_rating(club, member: Member, game: str | None) -> dict | None:
    """The member's rating in ``game`` for his page: the figure, provisional or not, its
    chart and (in a game of sides) his best and worst partners. Three queries whatever the
    history's length; None where there is nothing to show."""
    if game is None or (member.is_guest and not club.ratings_show_guests):
        return None
    rating = Rating.objects.filter(member=member, game=game).first()
    if rating is None:
        return None
    steps = list(RatingStep.objects.filter(member=member, game=game).order_by("date", "match_id")
                 .values_list("date", "mu", "sigma", "partners"))
    partners = figures.partners(step[3] for step in steps)
    best, worst = (partners[0], partners[-1]) if len(partners) > 1 else (partners[0] if partners else None, None)
    names = dict(Member.objects.filter(pk__in=[p.member_pk for p in (best, worst) if p])
                 .values_list("pk", "name")) if best else {}
    return {
        "figure": figures.shown(rating.mu, rating.sigma),
        "games": rating.games,
        "provisional": figures.provisional(game, rating.games),
        "settles_after": figures.settles_after(game),
        "chart": chart.rating_chart([(date, figures.shown(mu, sigma)) for date, mu, sigma, _ in steps]),
        "best": best and {"name": names.get(best.member_pk, ""), "pk": best.member_pk, "partner": best},
        "worst": worst and {"name": names.get(worst.member_pk, ""), "pk": worst.member_pk, "partner": worst},
    }
