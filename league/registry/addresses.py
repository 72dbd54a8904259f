"""A page's address reversed once for many rows: ``{}`` where each row's id goes.

A table of 25 Partien links each of them; reversing the URL once per row was a measurable part
of the pages that list them. :func:`pattern` reverses it once with a number no row has in the
slot and leaves ``{}`` there, for ``str.format`` with each row's id.
"""

from __future__ import annotations

from django.urls import NoReverseMatch, reverse

_MARK = 987654321  # no Partie, member, season or entry position reaches it


def pattern(name: str, slot: str, *, optional: bool = False, **kwargs) -> str:
    """The address of the page ``name`` with ``kwargs``, ``{}`` in place of the argument ``slot``;
    "" for a page that does not exist (yet) if ``optional``, else NoReverseMatch as reverse."""
    try:
        return reverse(name, kwargs={**kwargs, slot: _MARK}).replace(str(_MARK), "{}")
    except NoReverseMatch:
        if optional:
            return ""
        raise
