"""Losentscheid (LE): who wins a lot, drawn from a fairly shuffled Blatt.

Every player taking part names a card feature; the features are distinct and of equal
probability, so all of one kind: a colour (rot, schwarz), a suit (Kreuz, Pik, Herz, Karo) or
a rank (A, 10, K, D, B, 9, 8, 7). Cards are turned from the top of the stack until one shows
a named feature (LE a-c). The draw is recorded: who named what and which cards came.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from .cards import Card, deck
from .trump import LEVEL_VALUES, feature

KIND_NAMES = {"colour": "Farbe", "suit": "Spielfarbe", "rank": "Wert"}


@dataclass(frozen=True)
class Lot:
    features: dict[str, str]  # player -> named feature
    kind: str
    cards: list[str]  # the cards turned, in order
    winner: str

    def as_json(self) -> dict:
        return {"features": dict(self.features), "kind": self.kind, "cards": list(self.cards),
                "winner": self.winner}


def feature_kind(features: dict[str, str]) -> tuple[str | None, str | None]:
    """The common kind of the named features, or a German error (LE a)."""
    if len(features) < 2:
        return None, "Am Losentscheid nehmen mindestens zwei Spieler teil (LE a)."
    values = list(features.values())
    if len(set(values)) != len(values):
        return None, "Jeder Spieler muss ein anderes Merkmal tippen (LE a)."
    for kind, allowed in LEVEL_VALUES.items():
        if all(v in allowed for v in values):
            return kind, None
    return None, ("Die getippten Merkmale müssen gleich wahrscheinlich sein, also alle Farben "
                  "(rot/schwarz), alle Spielfarben (Kreuz/Pik/Herz/Karo) oder alle Werte (LE a).")


def draw_lot(features: dict[str, str], rng: random.Random | None = None) -> Lot:
    """Shuffle one Blatt fairly and turn cards until a named feature shows (LE b, c)."""
    kind, problem = feature_kind(features)
    if problem:
        raise ValueError(problem)
    rng = rng or random.SystemRandom()
    stack: list[Card] = deck()
    rng.shuffle(stack)
    by_feature = {value: player for player, value in features.items()}
    turned = []
    for card in stack:
        turned.append(card.code)
        named = feature(card, kind).value
        if named in by_feature:
            return Lot(dict(features), kind, turned, by_feature[named])
    raise AssertionError("a full Blatt holds every feature")  # pragma: no cover


__all__ = ["Lot", "draw_lot", "feature_kind"]
