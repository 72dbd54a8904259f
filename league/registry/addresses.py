"""A page's address reversed once for many rows: ``{}`` where each row's id goes.

A table of 25 Partien links each of them; reversing the URL once per row was a measurable part
of the pages that list them. :func:`pattern` reverses it once with a number no row has in the
slot and leaves ``{}`` there, for ``str.format`` with each row's id. The pages of one Partie
(its buttons, its poll, its entry forms: :class:`MatchAddresses`) are reversed once per
process so, with the club's short name and the Partie's id put in their places: the match
page and the save that answers with it reversed some twenty addresses each time.
"""

from __future__ import annotations

from functools import cache

from django.urls import NoReverseMatch, get_script_prefix, reverse

_MARK = 987654321  # no Partie, member, season or entry position reaches it
_SLUG = "club-slug-mark"  # a club's short name as a URL takes it, in no address of the site


def pattern(name: str, slot: str, *, optional: bool = False, **kwargs) -> str:
    """The address of the page ``name`` with ``kwargs``, ``{}`` in place of the argument ``slot``;
    "" for a page that does not exist (yet) if ``optional``, else NoReverseMatch as reverse."""
    try:
        return reverse(name, kwargs={**kwargs, slot: _MARK}).replace(str(_MARK), "{}")
    except NoReverseMatch:
        if optional:
            return ""
        raise


_POSITION = 987654322  # nor an entry's position this one


@cache
def _of_match(name: str, prefix: str, position: bool) -> tuple[str, str, str]:
    """The address of the Partie's page ``name`` cut where the club's short name and the
    Partie's id go, an entry's position left as ``{}`` (``prefix``: the script's, which
    ``reverse`` puts first)."""
    kwargs = {"slug": _SLUG, "pk": _MARK} | ({"position": _POSITION} if position else {})
    address = reverse(name, kwargs=kwargs)
    assert "{" not in address and "}" not in address, address
    before, rest = address.replace(str(_POSITION), "{}").split(_SLUG)
    between, after = rest.split(str(_MARK))
    return before, between, after


def of_match(name: str, slug: str, pk: int, *, position: bool = False) -> str:
    """``reverse(name, kwargs={"slug": slug, "pk": pk})`` of a page of a Partie: the same
    address (a club's short name and an id need no quoting), from the pattern kept; with
    ``position``, of an entry's page, ``{}`` where its position goes."""
    before, between, after = _of_match(name, get_script_prefix(), position)
    return f"{before}{slug}{between}{pk}{after}"


class MatchAddresses:
    """The addresses of a Partie's pages by their short names, for its templates
    (``{{ addresses.pdf }}``): :func:`of_match` of each, asked for only when written."""

    NAMES = {"sheet": "protocol:sheet", "game_new": "protocol:game_new", "sanction_new": "protocol:sanction_new",
             "end": "protocol:end", "lot_new": "protocol:lot_new", "history": "protocol:history",
             "export": "protocol:export", "pdf": "protocol:pdf", "settings": "protocol:settings",
             "annul": "protocol:annul", "export_match": "export_match"}

    def __init__(self, slug: str, pk: int):
        self.slug, self.pk = slug, pk

    def __getitem__(self, name: str) -> str:
        return of_match(self.NAMES[name], self.slug, self.pk)
