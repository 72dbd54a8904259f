"""The check code a person types from a printed sheet (protocol/sheet/check.py)."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from protocol.sheet import check


class CheckCodeForm(forms.Form):
    """``/pruefen/?pruefcode=...``: the code as printed beside the QR code; read kindly
    (small letters, spaces, O for 0), and refused with what is wrong."""

    pruefcode = forms.CharField(
        label=_("Check code"), max_length=check.MAX_LENGTH,
        help_text=_("As printed beside the QR code at the top of the sheet, e.g. 4711-15-K7QX-M2PA."),
        widget=forms.TextInput(attrs={"autocomplete": "off", "autocapitalize": "characters", "spellcheck": "false"}))

    def clean_pruefcode(self) -> check.CheckCode:
        text = self.cleaned_data["pruefcode"]
        code = check.parse(text)
        if code is not None:
            return code
        if check.well_formed(text):
            raise forms.ValidationError(
                _("This check code was not printed by this site: a character may be mistyped. Compare it with "
                  "the sheet (the letters I, L, O and U do not occur)."), code="unknown")
        raise forms.ValidationError(
            _("A check code has three parts: the match's number, the version and eight letters or digits, "
              "e.g. 4711-15-K7QX-M2PA."), code="malformed")

    @property
    def refused_as_unknown(self) -> bool:
        """Well formed but not signed by this site (a 404), not a malformed entry (a 400)."""
        return self.has_error("pruefcode", "unknown")
