"""The member page's rating (league.ratings.member), drawn where the page says: the member
page's view stays the standings' and the ratings read their own tables."""

from django import template

from league.ratings.member import member_rating as rating_of

register = template.Library()


@register.inclusion_tag("league/includes/member_rating.html")
def member_rating(club, member, game, game_name=""):
    return {"club": club, "member": member, "game": game, "game_name": game_name,
            "rating": rating_of(club, member, game)}


@register.inclusion_tag("league/includes/head_to_head_choice.html")
def head_to_head_choice(club, member):
    """The member page's way to his head-to-head with another member of the club."""
    from league.ratings.record_pages import opponents_of

    return {"club": club, "member": member, "others": opponents_of(member)}
