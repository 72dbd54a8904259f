"""Form fields every form of the site shares that are no free text (those are in ``texts``):
a date in the plausible range."""

from django import forms
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext_lazy as _

from protocol.rules import dates

DATE_INPUT = forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")


class PlausibleDateField(forms.DateField):
    """A date in the site's plausible range (protocol/rules/dates.py): 1950 to the end of
    next year. 9999-12-31 typed into a date field is a typing error, said at the field."""

    widget = DATE_INPUT

    def validate(self, value):
        super().validate(value)
        if value and not dates.is_plausible(value, timezone.localdate()):
            raise forms.ValidationError(implausible_date(value), code="implausible")


def implausible_date(day) -> str:
    """The message for a date outside the plausible range, in the user's language."""
    return _("%(date)s can't be right: dates from %(earliest)s to %(latest)s only.") % {
        "date": date_format(day, "SHORT_DATE_FORMAT"),
        "earliest": date_format(dates.EARLIEST, "SHORT_DATE_FORMAT"),
        "latest": date_format(dates.latest(timezone.localdate()), "SHORT_DATE_FORMAT")}
