"""The match settings of a Doppelkopf match: which rule set the table plays.

- ``rules``: ``"tcg"``, the seed's house rules (40 cards without the nines, announcements
  double the value, the TCG special points; ``shared/rules/doppelkopf-tcg-turnierregeln.txt``)
  or ``"ddv"``, the Turnierspielregeln of the Deutscher Doppelkopf-Verband (48 cards).

The rule set decides the deck, hence the number of tricks (``tricks``), and the scoring.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from protocol.rules.base import Problems
from protocol.rules.words import N_, Text

RULES = {"tcg": N_("TCG-Turnierregeln"), "ddv": N_("DDV-Turnierspielregeln")}
DEFAULT_RULES = "tcg"
CARDS = {"tcg": 40, "ddv": 48}  # TCG Allgemeines: "Gespielt wird mit 40 Karten"; DDV 2.2
PLAYERS_AT_TABLE = 4  # TCG Allgemeines, DDV 2.1.1: four play, a fifth (the dealer) sits out
MIN_PLAYERS, MAX_PLAYERS = 4, 5


@dataclass(frozen=True)
class Settings:
    rules: str

    @property
    def tricks(self) -> int:
        """Tricks per game: every card dealt to the four at the table, four to a trick."""
        return CARDS[self.rules] // PLAYERS_AT_TABLE

    @property
    def label(self) -> str:
        return RULES[self.rules]

    def as_json(self) -> dict[str, Any]:
        return {"rules": self.rules}


def default_settings() -> dict[str, Any]:
    return {"rules": DEFAULT_RULES}


def read_settings(data: Any, players: list[str], problems: Problems) -> Settings | None:
    """Fill in the default and check the value; None if anything is wrong."""
    if data is None:
        data = {}
    if not isinstance(data, dict):
        problems.add(None, None, "settings", N_("Die Einstellungen müssen ein Objekt sein."))
        return None
    before = len(problems)
    values = default_settings()
    for key in data:
        if key not in values:
            problems.add(None, None, f"settings.{key}", Text(N_("Unbekannte Einstellung %(key)r; Doppelkopf kennt nur „rules“."), key=key))
    values.update({k: v for k, v in data.items() if k in values})
    if not isinstance(values["rules"], str) or values["rules"] not in RULES:
        problems.add(None, None, "settings.rules", Text(N_(
            'Die Regeln sind "tcg" (TCG-Turnierregeln) oder "ddv" (DDV-Turnierspielregeln), nicht %(rules)r.'),
            rules=values["rules"]))
    if len(problems) > before:
        return None
    return Settings(**values)
