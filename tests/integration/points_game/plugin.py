"""The minimal game's site plug-in: nothing but its key (its sheet is sheet.py beside it)."""

from protocol.plugin import Plugin


class Points(Plugin):
    key = "punkte"


PLUGIN = Points()
