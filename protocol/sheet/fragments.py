"""The sheet and "Games in detail" of a match page, kept per match version in the shared cache.

Every device at the table polls the match's state every few seconds (``protocol:sheet``), and
all of them see the same version until the scorekeeper saves: the HTML of the sheet and of
"Games in detail" (:mod:`protocol.sheet.markup`) is written once per version, language and
right to correct, and read from the cache after that.

The key is the engine state's key (:func:`protocol.engine_state.key`: match, version,
``updated_at``, the header the page shows) plus the club's address (the buttons' links), the
language and whether the buttons are shown; the cache's prefix adds the fingerprint of the code
and translations that write the HTML (config.caches): a kept fragment can never be stale.
"""

from __future__ import annotations

from functools import cached_property

from django.core.cache import cache
from django.utils.safestring import mark_safe
from django.utils.translation import get_language

from protocol import engine_state
from protocol.sheet.markup import EntryLinks, in_active_language, sheet_table

TIMEOUT = engine_state.TIMEOUT


class Fragments:
    """The sheet (``.sheet``) and "Games in detail" (``.details``) of ``match`` as ``computed``
    shows it, each written when a page first asks and kept if ``keep`` (the caller read
    ``computed`` for the match as stored); ``rows`` the sheet's rows."""

    def __init__(self, match, computed, plugin, *, can_correct: bool, keep: bool):
        self.match, self.computed, self.plugin = match, computed, plugin
        self.can_correct, self.keep = can_correct, keep

    @cached_property
    def rows(self):
        return self.plugin.rows(self.computed)

    def _key(self, part: str) -> str:
        return (f"fragment:{part}:{engine_state.key(self.match)}:{self.match.club.slug}:"
                f"{get_language()}:{int(self.can_correct)}")

    def _kept(self, part: str, write) -> str:
        if not self.keep:
            with in_active_language():
                return write()
        key = self._key(part)
        html = cache.get(key)
        if not isinstance(html, str):
            with in_active_language():
                html = str(write())
            cache.set(key, html, TIMEOUT)
        return mark_safe(html)  # noqa: S308 - written by protocol.sheet.markup, every text escaped

    @cached_property
    def sheet(self) -> str:
        return self._kept("sheet", lambda: sheet_table(self.computed, self.rows, self.plugin))

    @cached_property
    def details(self) -> str:
        links = EntryLinks(self.match.club.slug, self.match.pk) if self.can_correct else None
        return self._kept("details", lambda: self.plugin.details_html(self.computed, self.rows, links))
