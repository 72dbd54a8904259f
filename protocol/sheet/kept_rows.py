"""The sheet's rows and their HTML, kept in this process per Partie with the entries they were
made of: a save appends one entry, and the page it lands on writes that entry's rows only.

The engine feeds a Partie's entries in order, and an entry's rows (its own and a Stechen's
heading after it, protocol.sheet.rows.entry_rows) are made of the entries up to it and the
Partie's header, never of those after it: a correction or an annulment changes an entry in its
place, so that entry and every one after it is written again. So the rows of each entry, its
rows on the sheet and its games in "Games in detail" are kept with the header and the entries
they were made of; a later state compares its entries with those (one list comparison, in C),
takes what the longest common start wrote and writes the rest. What is shown of the whole
Partie (the head's winner and disqualified marks, the totals) is written per page.

Kept per Partie, language and buttons (the club's address where they are shown), for as many
Partien as a tournament has tables in two languages (SIZE); per process, like the engine's states
(protocol.engine_state), emptied when runserver sees a file change (a template or a
translation). The match page's parts written from them are kept per version in the shared
cache (protocol.sheet.page_parts).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any

from django.utils.translation import get_language

from league.registry.recent import Recent
from protocol.sheet.markup import EntryLinks, entry_lines, sheet_body

SIZE = 128  # Partien times languages and buttons: 30 tables in two languages, with and without
# the buttons; some 70,000 characters for 60 Spiele of 7 players each, under 20 MB in all

_KEPT = Recent(SIZE, forget_on_file_change=True)  # (Partie, language, buttons) -> Written


@dataclass(frozen=True)
class Written:
    """What the entries of a Partie were written as, one item per entry: HTML only, not the
    engine's texts behind it (SIZE)."""

    header: tuple  # what every row is written with besides the entries (:func:`_header`)
    events: list[Any]
    sheet: list[str]  # its rows of the sheet's body (markup.sheet_body)
    games: list[str]  # its games in "Games in detail" (plugin.game_details)
    lines: list[str]  # its line under "Games in detail", a sanction's or the end's (markup.entry_lines)
    rows: list[int]  # how many rows it has


def _header(envelope) -> tuple:
    """The Partie's header as the engine reads it: players, settings, date and the rest."""
    return (envelope.ruleset, tuple(envelope.players), envelope.scorekeeper, copy.deepcopy(envelope.settings),
            envelope.club, envelope.season, envelope.date, envelope.place, copy.deepcopy(envelope.extra))


def _common(before: Written, header: tuple, events: list[Any]) -> int:
    """How many entries from the first on ``events`` shares with what was written before."""
    if before.header != header:
        return 0
    old = before.events
    if events[:len(old)] == old:  # the usual: entries appended
        return len(old)
    return next((n for n, (a, b) in enumerate(zip(old, events, strict=False)) if a != b), min(len(old), len(events)))


def written(match_pk: int, computed, plugin, links: EntryLinks | None, *, keep: bool = True) -> Written:
    """The rows and HTML of every entry of ``computed`` (the engine's answer for the Partie
    ``match_pk``), in the active language, with ``links``' buttons: kept from before up to the
    first entry that differs, written from there on (and kept, if ``keep``)."""
    envelope = computed.envelope
    header, events = _header(envelope), list(envelope.events)
    key = (match_pk, get_language(), links.patterns["entry_correct"] if links is not None else None)
    before = _KEPT.get(key)
    start = _common(before, header, events) if before is not None else 0
    rows = plugin.entry_rows(computed, start)
    span = len(computed.players) + 1
    sheet = [sheet_body(entry, span) for entry in rows]
    games = ["".join(plugin.game_details(computed, entry, links)) for entry in rows]
    lines = [entry_lines(entry, links) for entry in rows]
    counts = [len(entry) for entry in rows]
    if start:
        sheet, games = before.sheet[:start] + sheet, before.games[:start] + games
        lines, counts = before.lines[:start] + lines, before.rows[:start] + counts
    now = Written(header, events, sheet, games, lines, counts)
    if keep:
        _KEPT.keep(key, now)
    return now
