"""The archive's filters (django-filter): game, season, date range, member, status.

The query parameters are German like the addresses: ``?saison=3&von=2026-01-01&bis=2026-06-30
&mitglied=7&status=finished``.
"""

import django_filters
from django import forms
from django.forms.utils import flatatt
from django.utils.html import format_html
from django.utils.safestring import mark_safe
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from protocol import rules
from protocol.models import Match


class DateInput(forms.DateInput):
    input_type = "date"

    def __init__(self, **kwargs):
        super().__init__(format="%Y-%m-%d", **kwargs)


class QuickSelect(forms.Select):
    """Django's ``<select>``, its options written in Python: the template per option made the
    archive's filter form (its seasons and members) a third of the page's time."""

    def render(self, name, value, attrs=None, renderer=None):
        widget = self.get_context(name, value, attrs)["widget"]
        options = "".join(
            format_html('<option value="{}"{}>{}</option>', option["value"],
                        " selected" if option["selected"] else "", option["label"])
            for _group, choices, _index in widget["optgroups"] for option in choices)
        return format_html("<select{}>{}</select>", flatatt(widget["attrs"] | {"name": widget["name"]}),
                           mark_safe(options))  # noqa: S308 - every option went through format_html


class ArchiveFilter(django_filters.FilterSet):
    """The Partien of one club (``club``): the choices offer only its seasons and members."""

    spiel = django_filters.ChoiceFilter(field_name="ruleset", choices=rules.choices, label=pgettext_lazy("card game", "Game"),
                                        empty_label=pgettext_lazy("card game", "All games"), widget=QuickSelect)
    saison = django_filters.ModelChoiceFilter(field_name="season", queryset=None, label=_("Season"),
                                              empty_label=_("All seasons"), widget=QuickSelect)
    von = django_filters.DateFilter(field_name="date", lookup_expr="gte", label=_("From"), widget=DateInput())
    bis = django_filters.DateFilter(field_name="date", lookup_expr="lte", label=_("To"), widget=DateInput())
    mitglied = django_filters.ModelChoiceFilter(field_name="seats__member", queryset=None, label=_("Member"),
                                                empty_label=_("All members"), widget=QuickSelect)
    status = django_filters.ChoiceFilter(choices=Match.Status.choices, label=_("Status"),
                                         empty_label=_("Any status"), widget=QuickSelect)

    class Meta:
        model = Match
        fields = []

    def __init__(self, data=None, queryset=None, *, club, **kwargs):
        super().__init__(data, queryset, **kwargs)
        self.filters["saison"].queryset = club.seasons.all()
        self.filters["mitglied"].queryset = club.members.all()
