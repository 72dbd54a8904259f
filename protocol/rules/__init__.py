"""The rules of the games the site keeps protocols of: pure Python, no Django.

Each game's ruleset sits in its own folder (``protocol/games/<game>/rules``) and offers the
:class:`~.base.Ruleset` interface; ``get_ruleset(key)`` finds it through the game registry
(``protocol.games``) by the ``ruleset`` value of a protocol document.
"""

from __future__ import annotations

from collections.abc import Mapping

from protocol import games

from .base import Evaluation, RuleError, Ruleset

RULESETS: Mapping[str, Ruleset] = games.ByKey(games.ruleset)  # key -> ruleset, as the registry lists them
DEFAULT = games.DEFAULT  # the game of a Partie unless another is chosen (and of what was stored before)


def choices() -> list[tuple[str, str]]:
    """(key, name) of every game the registry lists: the choices of a Partie's or a season's
    game, read at each use (a callable, so a new game needs no migration)."""
    return [(key, ruleset.name) for key, ruleset in RULESETS.items()]


def get_ruleset(key: str) -> Ruleset | None:
    return games.ruleset(key) if isinstance(key, str) else None


def evaluate(document) -> Evaluation:
    """Evaluate a protocol document with the ruleset it names."""
    key = document.get("ruleset") if isinstance(document, dict) else None
    ruleset = RULESETS.get(key) if isinstance(key, str) else None
    if ruleset is None:
        known = ", ".join(sorted(RULESETS))
        return Evaluation([RuleError(None, None, "ruleset", f"Unbekanntes Regelwerk {key!r} (bekannt: {known}).")])
    return ruleset.evaluate(document)


__all__ = ["DEFAULT", "Evaluation", "RuleError", "Ruleset", "RULESETS", "choices", "get_ruleset", "evaluate"]
