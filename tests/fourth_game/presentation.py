"""A Zählspiel Spiel on the match page: the points as the engine read them."""

from __future__ import annotations

from protocol.sheet.rows import Row, dealt_row


def game_row(match, game) -> Row:
    return dealt_row(match, game, game.explanation)
