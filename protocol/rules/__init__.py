"""The rules of the games the site keeps protocols of: pure Python, no Django.

Each ruleset is a module (or package) offering the :class:`~.base.Ruleset` interface;
``get_ruleset(key)`` finds it by the ``ruleset`` value of a protocol document.
"""

from __future__ import annotations

from .base import Evaluation, RuleError, Ruleset
from .chaotentrumpf import RULESET as CHAOTENTRUMPF
from .doppelkopf import RULESET as DOPPELKOPF
from .tarot import RULESET as TAROT

RULESETS: dict[str, Ruleset] = {CHAOTENTRUMPF.key: CHAOTENTRUMPF}
RULESETS[DOPPELKOPF.key] = DOPPELKOPF
RULESETS[TAROT.key] = TAROT
DEFAULT = CHAOTENTRUMPF.key  # the game of a Partie unless another is chosen (and of what was stored before)


def get_ruleset(key: str) -> Ruleset | None:
    return RULESETS.get(key)


def evaluate(document) -> Evaluation:
    """Evaluate a protocol document with the ruleset it names."""
    key = document.get("ruleset") if isinstance(document, dict) else None
    ruleset = RULESETS.get(key) if isinstance(key, str) else None
    if ruleset is None:
        known = ", ".join(sorted(RULESETS))
        return Evaluation([RuleError(None, None, "ruleset", f"Unbekanntes Regelwerk {key!r} (bekannt: {known}).")])
    return ruleset.evaluate(document)


__all__ = ["DEFAULT", "Evaluation", "RuleError", "Ruleset", "RULESETS", "get_ruleset", "evaluate"]
