"""Würfelbecher's site plug-in: only its own column of the season workbook."""

from protocol.plugin import INTEGER, Column, Plugin


class DiceCup(Plugin):
    key = "wuerfelbecher"

    def workbook_columns(self):
        return [Column("Würfelaugen", 12, INTEGER, "pips")], []

    def workbook_rows(self, computed, game):
        for player in computed.players:
            yield player, [game.data.get("pips", {}).get(player)], []


PLUGIN = DiceCup()
