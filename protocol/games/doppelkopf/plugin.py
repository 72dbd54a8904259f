"""Doppelkopf's site plug-in: the game form, the match page's rows, the printed list.

The rules are protocol/games/doppelkopf/rules/; this folder only lays out and asks them.
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from protocol.plugin import Plugin, Wording

from . import forms


class Doppelkopf(Plugin):
    key = "doppelkopf"
    form_class = forms.GameForm
    settings_form = forms.SettingsFields
    fields_template = "doppelkopf/fields.html"
    wording = Wording(preview_hint=_("Enter the game type, dealer, Re party and Re's card points to see the scores."))

    def header_facts(self, computed) -> list[str]:
        return [computed.settings.label]  # the rule set the table plays

    def form_options(self, computed) -> dict:
        return {"rules": computed.settings.rules}  # the rule set the table plays (TCG or DDV)


PLUGIN = Doppelkopf()
