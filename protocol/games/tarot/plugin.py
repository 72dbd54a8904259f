"""French Tarot's site plug-in: the deal form, the match page's rows, the FFT Kontrollblatt.

The rules are protocol/games/tarot/rules/; this folder only lays out and asks them. Tarot has no
settings: the FFT rules are the same at every table.
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from protocol.plugin import Plugin, Wording

from . import forms


class Tarot(Plugin):
    key = "tarot"
    form_class = forms.GameForm
    fields_template = "tarot/fields.html"
    pdf_name = "kontrollblatt"
    wording = Wording(preview_hint=_("Enter the dealer, taker, contract, oudlers and points (or a deal declared "
                                     "null) to see the scores."))

    def pdf_options(self, match) -> dict:
        """A table of a tournament round prints its number and position on the Kontrollblatt,
        besides the confirmations given in the app."""
        return super().pdf_options(match) | {"table": match.table_number, "position": match.round.number if match.round_id else None}


PLUGIN = Tarot()
