"""The club's rating list of one game (django-tables2: it renders rows computed elsewhere)."""

import django_tables2 as tables
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from league.standings.tables import NUM, member_url, number


class RatingTable(tables.Table):
    rank = tables.Column(verbose_name=pgettext_lazy("in a match", "Place"), attrs=NUM, orderable=False)
    name = tables.Column(verbose_name=_("Name"), orderable=False)
    figure = tables.Column(verbose_name=_("Rating"), attrs=NUM, orderable=False)
    games = tables.Column(verbose_name=_("Results"), attrs=NUM, orderable=False)

    class Meta:
        attrs = {"class": "table table--ratings"}
        empty_text = _("No rated match yet.")

    def __init__(self, rows, *, club_slug: str, **kwargs):
        super().__init__(rows, **kwargs)
        self.club_slug = club_slug

    def render_rank(self, value):
        return f"{value}."

    def render_name(self, value, record):
        link = format_html('<a href="{}">{}</a>', member_url(self.club_slug, record["member_pk"]), value)
        if record["provisional"]:
            return format_html('{} <span class="badge">{}</span>', link, _("provisional"))
        return link

    def render_figure(self, value):
        return number(value)
