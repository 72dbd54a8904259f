"""The Zählspiel's site plug-in: its entry form, its rows, its printed list, its column of the
season workbook (who dealt)."""

from __future__ import annotations

from django.utils.translation import gettext as _

from protocol.plugin import Column, Plugin

from . import forms


class Zaehlspiel(Plugin):
    key = "zaehlspiel"
    form_class = forms.GameForm
    fields_template = "zaehlspiel/fields.html"

    def workbook_columns(self):
        return [], [Column(_("Dealer"), 14, key="dealer")]  # once per Spiel, after "Annulliert"

    def workbook_rows(self, computed, game):
        for player in computed.players:
            yield player, [], [game.data.get("dealer")]


PLUGIN = Zaehlspiel()
