"""The engine's words, translatable by the site (pure Python, no Django import).

The engine speaks German: its messages name the articles of the German rule texts, and the
protocol files, exports and history keep its German words. For the site's other languages
each text the engine hands out carries its *message id* (the German template, a Python
``%(name)s`` format string) and its *parameters*:

- ``N_("Stechen entschieden (Art. 17b)")`` marks a text for ``makemessages`` (the site's
  ``makemessages`` passes ``--keyword=N_`` to xgettext) and returns it as a :class:`Text`;
- ``Text(N_("%(player)s hat keinen Stich …"), player="Anna")`` is a message with parameters.

A :class:`Text` *is* the German string (a ``str``: compared, joined, stored and written to
JSON as German, and f-strings inside the engine keep it German). Only ``str(text)`` (what a
Django template does to every value it prints) and ``text.translated()`` ask the translator
the site installed at start-up (``use_translator``, Django's ``gettext``) for the message id
in the active language and fill in the parameters, translated in turn. Without a translator
(the engine alone) a Text reads German.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any


def _untranslated(message_id: str) -> str:
    return message_id


_translate: Callable[[str], str] = _untranslated


def use_translator(translate: Callable[[str], str]) -> None:
    """The site's translator (message id -> text in the active language), e.g. ``gettext``."""
    global _translate
    _translate = translate


# A translator bound for a while (:func:`translating`): a page part with hundreds of the
# engine's texts finds the active language once instead of once for each text.
_bound: ContextVar[Callable[[str], str] | None] = ContextVar("translator", default=None)


@contextmanager
def translating(translate: Callable[[str], str]) -> Iterator[None]:
    """Within the block, texts are translated by ``translate`` (the active language's
    catalogue, which the site looks up once), in this thread or task only."""
    token = _bound.set(translate)
    try:
        yield
    finally:
        _bound.reset(token)


class Text(str):
    """A German text of the engine with its message id and parameters (see the module)."""

    def __new__(cls, template: str, **params: Any) -> Text:
        template = str.__str__(template)
        german = template % {k: _german(v) for k, v in params.items()} if params else template
        self = super().__new__(cls, german)
        self.template = template
        self.params = params
        return self

    def translated(self) -> str:
        """The text in the language the translator answers in (German without one)."""
        translate = _bound.get() or _translate
        text = translate(self.template) if self.template else ""  # gettext("") is the catalogue's header
        if not self.params:
            return text
        return text % {k: v.translated() if isinstance(v, Text) else v for k, v in self.params.items()}

    def __str__(self) -> str:
        return self.translated()

    def __format__(self, spec: str) -> str:  # f-strings inside the engine stay German
        return format(str.__str__(self), spec)

    def __reduce__(self):  # pickled (the cache) with its id, parameters and German words
        return (_restore, (self.template, self.params, str.__str__(self)))


def _restore(template: str, params: dict[str, Any], german: str) -> Text:
    """A pickled Text read back: its German words as they were written, not formatted again
    (a kept state of 60 Spiele holds some 4,500 Texts). States pickled before this
    form are never read: the cache's prefix carries the code's fingerprint (config.caches)."""
    self = str.__new__(Text, german)
    self.template, self.params = template, params
    return self


def _german(value: Any) -> Any:
    return str.__str__(value) if isinstance(value, Text) else value


def N_(message_id: str) -> Text:  # noqa: N802 (the gettext convention makemessages is told about)
    """Mark a German text for translation; it stays German here (see the module)."""
    return Text(message_id)


def translated(value: Any) -> Any:
    """``value`` in the active language if it is a :class:`Text`, else unchanged."""
    return value.translated() if isinstance(value, Text) else value


def joined(separator: Any, parts: Any) -> Text:
    """``separator.join(parts)`` as one :class:`Text`: German as ``str.join`` writes it, and
    each part (and the separator) translated on its own when the site asks."""
    parts = list(parts)
    template = "%(sep)s".join(f"%(p{i})s" for i in range(len(parts)))
    return Text(template, sep=separator, **{f"p{i}": part for i, part in enumerate(parts)})


def concat(*parts: Any) -> Text:
    """The parts one after the other, as one :class:`Text` (see :func:`joined`)."""
    return joined("", parts)
