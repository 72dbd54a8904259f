"""The match page's parts that every viewer with the same rights sees alike, kept in the cache.

The phones at a table open the match page after each save, and the members following it open it
between the polls: all of them see the same heading, state, buttons and "Games in detail" until
the next write. These are rendered once per state and rights (the key of the state poll's
fragment, protocol.views.state_tag.shared_key: the match's version and the facts its ETag is
made of, the viewer's rights, language and time zone) and kept along with the state fragment the
poll sends: the first viewer of a new state renders it, the page and the poll of the others
read it. What belongs to one viewer or one moment (the offline evening's data with its login
link, a round's clock, the signatures with their forms) is rendered per request around them.

The parts are Jinja2 templates (protocol/jinja2/protocol/parts/, config.jinja): written at every
save of a Spiel, they took 1.4 ms of it in the template language, a sixth of the save.
"""

from __future__ import annotations

from django.core.cache import cache
from django.template import engines
from django.utils.safestring import mark_safe
from django.utils.translation import trans_real

from protocol.sheet.markup import in_active_language

KEPT = 10 * 60  # a state nobody asked for in ten minutes leaves the cache (as the poll's fragment)

STATE_TEMPLATE = "protocol/parts/state.html"
HEAD_TEMPLATE = "protocol/parts/header.html"
TAIL_TEMPLATE = "protocol/parts/tail.html"


def render(name: str, values: dict) -> str:
    """The part ``name`` written by the site's Jinja2 engine (settings.TEMPLATES), which keeps
    each template once read; its words looked up in the active language's catalogue itself
    (Django's ``gettext`` finds the catalogue again for each of the twenty)."""
    return engines["jinja2"].get_template(name).render(values | {"gettext": trans_real.catalog().gettext})


def parts(request, key: str | None, context) -> dict:
    """The page's kept parts: ``head`` (the heading), ``state`` (the state the table polls, the
    same bytes as the poll's), ``tail`` (the buttons and "Games in detail") and ``is_open``
    (the page polls for a new state). ``key``: the state poll's shared key, None to keep
    nothing (a viewer without rights of his own, or the state moved while the page read it);
    ``context()``: the match context, computed only when something is to be rendered.

    Kept in one entry with the state the poll sends (one write of the cache for a new state,
    not one per part: a file cache writes a file each)."""
    found = cache.get(key) if key is not None else None
    if not isinstance(found, dict) or "head" not in found:  # nothing kept, or a poll's state alone
        values = _values(request, context())
        with in_active_language():  # the engine's texts in the standings and banners
            found = {"head": render(HEAD_TEMPLATE, values),
                     "state": render(STATE_TEMPLATE, values),
                     "tail": render(TAIL_TEMPLATE, values),
                     "is_open": bool(values["is_open"])}
        if key is not None:
            # the poll of the table's other phones sends the very state this page shows
            cache.set(key, found, KEPT)
    return {name: mark_safe(value) if isinstance(value, str) else value for name, value in found.items()}


def kept_state(key: str) -> bytes | None:
    """The state fragment kept for ``key`` (by the page or the poll of a viewer with the same
    rights), None if nothing is."""
    found = cache.get(key)
    return found["state"].encode() if isinstance(found, dict) else None


def state(request, key: str | None, context) -> bytes:
    """The state fragment the poll sends: the bytes kept for ``key`` or rendered now (and kept,
    alone: the page that comes later renders its other parts)."""
    found = kept_state(key) if key is not None else None
    if found is None:
        with in_active_language():
            rendered = render(STATE_TEMPLATE, _values(request, context()))
        if key is not None:
            cache.set(key, {"state": rendered}, KEPT)
        found = rendered.encode()
    return found


def _values(request, values: dict) -> dict:
    """The parts' context: the match context and the viewer (the spreadsheet's button is for
    an account). Not the request's: the parts show nothing else of it (no form, no token), and
    the context processors' values, made for each of the three, cost more than the head."""
    return values | {"user": request.user}
