"""The game registry: the one place that lists the games the site keeps protocols of.

Each game is one folder, a package found here by its key (the ``ruleset`` of a Partie):

- ``rules/`` (or ``rules.py``): its rules, a :class:`~protocol.rules.base.Ruleset` named
  ``RULESET``; pure Python, run by the server and, in the rules pack, by the browser;
- ``entry_form.py``: its entry form's fields read for the engine and the engine's errors placed
  at them (``body``, ``field_for``; protocol/entry_form/), pure as well; a game whose rules
  take a Spiel recorded as points only names the facts noted beside them (``noted``,
  ``NOTED_FIELDS``) and its form gets the switch "points only" (protocol/entry_form/points.py);
- ``plugin.py``: its site plug-in ``PLUGIN``, a :class:`protocol.plugin.Plugin` (forms,
  presentation, the printed sheet, ``templates/<key>/``).

This module is pure too (the browser reads the same list). Adding a game is its folder and
one line in :data:`INSTALLED`; a game kept elsewhere (a club's own, a test's) is added with
:func:`install`. Nothing else names a game: the rules ask :func:`ruleset`, the entry forms
:func:`entry_form`, the site :func:`plugin`.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from importlib import import_module
from importlib.util import find_spec
from pathlib import Path
from types import ModuleType
from typing import Any

INSTALLED: dict[str, str] = {  # key -> its folder as a package; the first is the default game
    "chaotentrumpf": "protocol.games.chaotentrumpf",
    "doppelkopf": "protocol.games.doppelkopf",
    "tarot": "protocol.games.tarot",
}
DEFAULT = next(iter(INSTALLED))  # a new Partie's game unless another is chosen; the demo's game


def install(key: str, package: str) -> None:
    """Add the game kept in ``package`` (e.g. a folder of the tests) under ``key``."""
    INSTALLED[key] = package


def uninstall(key: str) -> None:
    """Forget a game added by :func:`install` (the site's own stay)."""
    INSTALLED.pop(key, None)


def keys() -> list[str]:
    return list(INSTALLED)


def folder(key: str) -> Path:
    """The game's folder on disk (its ``templates/``, the files the rules pack ships)."""
    return Path(find_spec(INSTALLED[key]).submodule_search_locations[0])


def part(key: str, name: str) -> ModuleType:
    """The module ``name`` of the game's folder (``rules``, ``entry_form``, ``plugin``, ``sheet`` …)."""
    return import_module(f"{INSTALLED[key]}.{name}")


def ruleset(key: str):
    """The game's rules (its ``rules.RULESET``), or None for a key the registry does not list."""
    return part(key, "rules").RULESET if key in INSTALLED else None


def entry_form(key: str) -> ModuleType:
    """The game's entry mapping (``entry_form.py``: the entry form's fields <-> the engine)."""
    return part(key, "entry_form")


def plugin(key: str):
    """The site plug-in of the game ``key`` (a ruleset key, e.g. ``match.ruleset``)."""
    return part(key, "plugin").PLUGIN


def plugin_of(match):
    """The site plug-in of a stored match's game."""
    return plugin(match.ruleset)


class ByKey(Mapping):
    """The registry's games by key, read at each use, so an installed game is seen at once."""

    def __init__(self, read) -> None:
        self._read = read

    def __getitem__(self, key: str) -> Any:
        if key not in INSTALLED:
            raise KeyError(key)
        return self._read(key)

    def __iter__(self) -> Iterator[str]:
        return iter(list(INSTALLED))

    def __len__(self) -> int:
        return len(INSTALLED)


PLUGINS: Mapping[str, Any] = ByKey(plugin)  # key -> site plug-in

__all__ = ["DEFAULT", "INSTALLED", "PLUGINS", "ByKey", "entry_form", "folder", "install", "keys", "part",
           "plugin", "plugin_of", "ruleset", "uninstall"]
