"""Chaotentrumpf's columns of the season workbook's Spiele sheet (league/spreadsheets/exports.py).

Before the scores, each player's line (Stiche, Augen, Trümpfe: Art. 12-16), the Spiel's trump
(Art. 11) and whether the score took the Trumpfwertung (Art. 15/16b); after "Annulliert", the
Trumpfwahl (Art. 9) and the inversions (Art. 10), written in the notation's words
(:mod:`.notation`) that league.spreadsheets.imports reads back. A Spiel recorded as points only
(Art. 4a, rules/points_only.py) has "nur Punkte" (``protocol.plugin.POINTS_ONLY``) in the
columns of its line and of the Trumpfwertung, the trump and the Trumpfwahl where they were noted.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache

from django.utils.translation import get_language
from django.utils.translation import gettext as _

from protocol.plugin import INTEGER, POINTS_ONLY, Column

from . import notation


def columns() -> tuple[list[Column], list[Column]]:
    return ([Column(_("Tricks"), 7, INTEGER, "tricks"),
             Column(_("Card points"), 8, INTEGER, "points"),
             Column(_("Trumps"), 8, INTEGER, "trumps"),
             Column(_("Trump"), 14, key="trump"),
             Column(_("Trump bonus"), 13, key="trump_bonus")],
            [Column(_("Revealed cards"), 18, key="selection"),
             Column(_("Inversions"), 40, key="inversions")])


def rows(computed, game) -> Iterator[tuple[str, list, list]]:
    """A row for each player of the Spiel's stage (one disqualified before it has none, SV 3)."""
    yes, no = yes_no()
    trump = trump_label(game.trump) if game.trump else None
    facts = [selection_text(game.selection), inversions_text(game)]  # once a Spiel
    if game.points_only:  # the score stands in its column; Stiche, Augen, Trümpfe and the Trumpfwertung unknown
        unknown = str(POINTS_ONLY)
        for player in game.players:
            yield player, [unknown, unknown, unknown, trump, unknown], facts
        return
    for player in game.players:
        line = game.lines.get(player) if game.lines else None
        score = game.scores.get(player) if game.scores else None
        yield player, [line.tricks if line else None, line.points if line else None,
                       line.trumps if line else None, trump,
                       (yes if score.trump_bonus else no) if score else None], facts


# A workbook asks for the words of every Spiel, a season's thousands: each is worked out once
# (translated once a language; a trump's label is the engine's German, translated when written).
_YES_NO: dict[str | None, tuple[str, str]] = {}


def yes_no() -> tuple[str, str]:
    """"ja" and "nein" in the active language."""
    language = get_language()
    words = _YES_NO.get(language)
    if words is None:
        words = _YES_NO[language] = (_("yes"), _("no"))
    return words


@cache
def trump_label(trump) -> str | None:
    """The trump as the sheet names it (``notation.write_trump_label``), None for none."""
    return notation.write_trump_label(trump.as_json()) or None


def selection_text(selection: dict | None) -> str | None:
    """The Trumpfwahl in the notation's words (``notation.write_selection``)."""
    return notation.write_selection(selection) if selection else None


def inversions_text(game) -> str | None:
    """The trump before the inversions, then each as announced, in the notation's words
    (``notation.write_inversion_chain``)."""
    if not game.inversions:
        return None
    return notation.write_inversion_chain(game.selected_trump.as_json(), [
        {"player": inv.player, "declared": inv.declared, "target": inv.target.as_json()} for inv in game.inversions])
