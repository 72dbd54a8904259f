"""The inputs of a new Spiel's form, kept by what they are made of.

Before each Spiel the Protokollant opens the form, and at a tournament every table's phone
does so 40-60 times an evening. Its inputs (some 25 for four players, a hundred radio buttons
of the trump, the points-only switch, the inversions, the annulment) are made of the game, the
players of the next Spiel, the table's seats, the game's options (Doppelkopf's rule set) and
the values it starts with (the dealer, the mode the last Spiel was entered in): the same for
every Spiel of a Partie while these stay, and for every phone. So they are written once per
such set and language and read from the shared cache after that. What is the request's own
stays outside: the version and the one-time id of the save, the CSRF token, the messages.

The key is a hash of all of these; the cache's prefix carries the fingerprint of the code and
translations (config.caches): kept inputs are never another form's or an older template's.
"""

from __future__ import annotations

import hashlib

from django.core.cache import cache
from django.template.loader import render_to_string
from django.utils.safestring import mark_safe
from django.utils.translation import get_language

from protocol.forms.game import EntryTokens

TEMPLATE = "protocol/includes/game_fields.html"
KEPT = 6 * 60 * 60  # an evening


def new_entry_fields(plugin, computed, initial: dict, form) -> str:
    """The inputs of the next Spiel's form as ``plugin.form(computed, initial=initial)`` makes
    it; ``form()`` makes that form, called only when they are to be written."""
    made_of = (plugin.key, sorted(plugin.form_arguments(computed).items()),
               sorted((name, value) for name, value in initial.items() if name not in EntryTokens.base_fields))
    digest = hashlib.blake2b(repr(made_of).encode(), digest_size=12).hexdigest()
    key = f"entry-fields:{digest}:{get_language()}"
    html = cache.get(key)
    if not isinstance(html, str):
        # No request: nothing of this viewer or this moment can be written into what others read.
        html = render_to_string(TEMPLATE, {"form": form(), "plugin": plugin})
        cache.set(key, html, KEPT)
    return mark_safe(html)  # noqa: S308 - the form's own widgets and the game's template, escaped there
