"""A reading page's body, rendered once per state of what it shows and kept in Django's cache.

Members open their pages far more often than anything on them changes. A kept page is asked
for its *key*: a handful of versions read with the rows the page fetches anyway (the club's and
the member's ``data_version``, league.registry.versions, which the ratings' pass moves too; the
Partien still provisional, league.standings.provisional), the view of it (the URL's query, the
viewer's own row, the language) and what the body shows of the club's own row (its name and
address: a save of the club moves no version). While the key is the same the body is the same
bytes: it is sent from the cache without computing the table, the charts or the ratings again.
Only the frame around it (the navigation with the viewer's name, a form's CSRF token) is
rendered per request: a kept body holds no form.

The cache's key prefix carries the fingerprint of the code, templates and translations
(config.caches): a deploy never sends a body of the release before it. A key that raises (a
season or game that does not exist, rows per page out of range) keeps nothing: the same URL is
refused again.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable

from django.core.cache import cache
from django.template.loader import render_to_string
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language

TIMEOUT = 60 * 60  # an unread page leaves the cache after an hour


def body(request, template: str, key: list, context: Callable[[], dict]) -> SafeString:
    """``template`` rendered with ``context()``, or the bytes kept for ``key`` (with the
    template's name and the language) when it was rendered before."""
    return kept(request, template, key, context)[0]


def kept(request, template: str, key: list, context: Callable[[], dict]) -> tuple[SafeString, dict]:
    """As :func:`body`, with what the context gives as ``"notes"`` (a small dict of what the
    frame needs to know of the body, e.g. the season a filter chose), kept along with it."""
    digest = hashlib.blake2b(repr([template, get_language(), *key]).encode(), digest_size=16).hexdigest()
    name = f"page:{digest}"
    found = cache.get(name)
    if found is None:
        values = context()
        found = (render_to_string(template, values, request), values.get("notes", {}))
        cache.set(name, found, TIMEOUT)
    html, notes = found
    return mark_safe(html), notes  # the template's own output, escaped when it was rendered
