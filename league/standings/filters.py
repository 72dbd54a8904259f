"""The archive's filters (django-filter): game, season, date range, member, status.

The query parameters are German like the addresses: ``?saison=3&von=2026-01-01&bis=2026-06-30
&mitglied=7&status=finished``.
"""

import django_filters
from django import forms
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from protocol.models import RULESET_CHOICES, Match


class DateInput(forms.DateInput):
    input_type = "date"

    def __init__(self, **kwargs):
        super().__init__(format="%Y-%m-%d", **kwargs)


class ArchiveFilter(django_filters.FilterSet):
    """The Partien of one club (``club``): the choices offer only its seasons and members."""

    spiel = django_filters.ChoiceFilter(field_name="ruleset", choices=RULESET_CHOICES, label=pgettext_lazy("card game", "Game"),
                                        empty_label=pgettext_lazy("card game", "All games"))
    saison = django_filters.ModelChoiceFilter(field_name="season", queryset=None, label=_("Season"),
                                              empty_label=_("All seasons"))
    von = django_filters.DateFilter(field_name="date", lookup_expr="gte", label=_("From"), widget=DateInput())
    bis = django_filters.DateFilter(field_name="date", lookup_expr="lte", label=_("To"), widget=DateInput())
    mitglied = django_filters.ModelChoiceFilter(field_name="seats__member", queryset=None, label=_("Member"),
                                                empty_label=_("All members"))
    status = django_filters.ChoiceFilter(choices=Match.Status.choices, label=_("Status"),
                                         empty_label=_("Any status"))

    class Meta:
        model = Match
        fields = []

    def __init__(self, data=None, queryset=None, *, club, **kwargs):
        super().__init__(data, queryset, **kwargs)
        self.filters["saison"].queryset = club.seasons.all()
        self.filters["mitglied"].queryset = club.members.all()
