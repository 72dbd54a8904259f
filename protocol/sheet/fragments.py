"""The sheet and "Games in detail" of a match page, written from what this process kept of
the Partie's entries (protocol.sheet.kept_rows): a new version writes its new entries' rows
only, then the head and the totals around them.

The pages that show them keep the result per version in the shared cache
(protocol.sheet.page_parts: the match page's parts and the state the table polls), so every
device at the table is sent the same bytes until the next write.
"""

from __future__ import annotations

from functools import cached_property

from django.utils.safestring import mark_safe

from protocol.sheet import kept_rows
from protocol.sheet.markup import EntryLinks, in_active_language, sheet_table


class Fragments:
    """The sheet (``.sheet``) and "Games in detail" (``.details``) of ``match`` as ``computed``
    shows it, each written when a page first asks; what is written of its entries is kept
    for the next version if ``keep`` (the caller read ``computed`` for the match as stored)."""

    def __init__(self, match, computed, plugin, *, can_correct: bool, keep: bool):
        self.match, self.computed, self.plugin = match, computed, plugin
        self.can_correct, self.keep = can_correct, keep

    @cached_property
    def links(self) -> EntryLinks | None:
        return EntryLinks(self.match.club.slug, self.match.pk) if self.can_correct else None

    @cached_property
    def written(self) -> kept_rows.Written:
        """Each entry's rows and HTML: what this process wrote of the same entries before, the
        rest written now (protocol.sheet.kept_rows)."""
        with in_active_language():
            return kept_rows.written(self.match.pk, self.computed, self.plugin, self.links, keep=self.keep)

    @property
    def row_count(self) -> int:
        """The rows on the sheet: each entry's own and the headings after it."""
        return sum(self.written.rows)

    @cached_property
    def sheet(self) -> str:
        with in_active_language():
            html = sheet_table(self.computed, self.plugin, "".join(self.written.sheet))
        return mark_safe(html)  # noqa: S308 - written by protocol.sheet.markup, every text escaped

    @cached_property
    def details(self) -> str:
        """"Games in detail": each game's ``<details>``, then the sanctions and the end with
        their buttons."""
        return mark_safe("".join(self.written.games) + "".join(self.written.lines))  # noqa: S308 - as above
