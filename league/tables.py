"""django-tables2 tables: they render rows computed elsewhere, never compute."""

import django_tables2 as tables
from django.utils.translation import gettext_lazy as _

from .models import Member


class MemberTable(tables.Table):
    name = tables.Column(verbose_name=_("Name"))
    is_guest = tables.BooleanColumn(verbose_name=_("Guest"), yesno=(_("yes"), "–"))
    joined = tables.DateColumn(verbose_name=_("Member since"), format="SHORT_DATE_FORMAT")

    class Meta:
        model = Member
        fields = ("name", "is_guest", "joined")
        empty_text = _("No members yet.")
