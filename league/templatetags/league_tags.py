from django import template
from django.urls import reverse

from league.registry import addresses
from league.standings.tables import number, score

register = template.Library()

register.filter("number", number)
register.filter("score", score)  # a tournament score: TCG's with one decimal


@register.simple_tag(takes_context=True)
def one_pass_head(context, table):
    """A one-pass table's head (league.standings.tables.OnePassTable.head_html) for the page's
    request: its sort links keep the URL's query, as django-tables2's own head does."""
    return table.head_html(context["request"])


@register.simple_tag
def season_links(club, seasons, for_member=None):
    """(season, address) of each pill of league/includes/season_nav.html: the season's table,
    or ``for_member``'s page of it; one address reversed for all of them."""
    if for_member:
        page = reverse("member_page", kwargs={"slug": club.slug, "member_pk": for_member.pk})
        return [(s, f"{page}?saison={s.pk}") for s in seasons]
    table = addresses.pattern("standings_season", "season_pk", slug=club.slug)
    return [(s, table.format(s.pk)) for s in seasons]
