"""The Zählspiel's site plug-in: its entry form, its rows, its printed list."""

from __future__ import annotations

from protocol.plugin import Plugin

from . import forms


class Zaehlspiel(Plugin):
    key = "zaehlspiel"
    form_class = forms.GameForm
    fields_template = "zaehlspiel/fields.html"


PLUGIN = Zaehlspiel()
