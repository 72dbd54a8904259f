from django import template

from league.standings.tables import number, score

register = template.Library()

register.filter("number", number)
register.filter("score", score)  # a tournament score: TCG's with one decimal


@register.simple_tag(takes_context=True)
def one_pass_head(context, table):
    """A one-pass table's head (league.standings.tables.OnePassTable.head_html) for the page's
    request: its sort links keep the URL's query, as django-tables2's own head does."""
    return table.head_html(context["request"])
