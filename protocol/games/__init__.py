"""The site's game registry: the one place that lists the games' site plug-ins.

Each game's site code sits in its own folder (``protocol/games/<game>/``: forms,
presentation, the printed sheet, templates) and is found here by the key of its ruleset
(``protocol.rules.RULESETS``). The views, the templates, the commands, the league and the
exports ask :func:`plugin` (see :class:`protocol.games.base.Game`) and never name a game.

Adding a game: its rules folder with a line in protocol/rules/__init__.py, its site folder
here with a line in :data:`PLUGINS`.
"""

from __future__ import annotations

from protocol import rules

from .base import Game
from .chaotentrumpf import PLUGIN as CHAOTENTRUMPF
from .doppelkopf import PLUGIN as DOPPELKOPF
from .tarot import PLUGIN as TAROT

PLUGINS: dict[str, Game] = {game.key: game for game in (CHAOTENTRUMPF, DOPPELKOPF, TAROT)}
DEFAULT = rules.DEFAULT  # a new Partie's game unless another is chosen; the demo's game


def plugin(key: str) -> Game:
    """The site plug-in of the game ``key`` (a ruleset key, e.g. ``match.ruleset``)."""
    return PLUGINS[key]


def plugin_of(match) -> Game:
    """The site plug-in of a stored match's game."""
    return PLUGINS[match.ruleset]


__all__ = ["DEFAULT", "PLUGINS", "Game", "plugin", "plugin_of"]
