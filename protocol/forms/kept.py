"""The inputs of a new Spiel's form, kept per state of the Partie.

Before each Spiel the Protokollant opens the form, and at a tournament every table's phone
does so 40-60 times an evening: its inputs (some 25 for four players, a hundred radio buttons
of the trump, the points-only switch, the annulment) follow from the Partie's state alone (the
players of the next Spiel, the mode the last one was entered in), so they are written once per
state and language and read from the shared cache after that. What is the request's own stays
outside: the version and the one-time id of the save, the CSRF token, the messages.

The key is the engine state's (:func:`protocol.engine_state.key`: match, version, ``updated_at``,
header); the cache's prefix carries the fingerprint of the code and translations
(config.caches): a kept form is never stale.
"""

from __future__ import annotations

from django.core.cache import cache
from django.template.loader import render_to_string
from django.utils.safestring import mark_safe
from django.utils.translation import get_language

from protocol import engine_state

TEMPLATE = "protocol/includes/game_fields.html"
KEPT = 10 * 60  # as the match page's parts: a state nobody opened in ten minutes leaves the cache


def new_entry_fields(match, form, plugin) -> str:
    """The inputs of the next Spiel of ``match`` as stored; ``form()`` makes its unbound form,
    called only when they are to be written."""
    key = f"entry-fields:{engine_state.key(match)}:{get_language()}"
    html = cache.get(key)
    if not isinstance(html, str):
        # No request: nothing of this viewer or this moment can be written into what others read.
        html = render_to_string(TEMPLATE, {"form": form(), "plugin": plugin})
        cache.set(key, html, KEPT)
    return mark_safe(html)  # noqa: S308 - the form's own widgets and the game's template, escaped there
