"""The Losentscheid (LE) on the site: the features a player may name, the drawn cards' names.

The draw and every check are the rules' (protocol/games/chaotentrumpf/rules/lottery.py).
"""

from __future__ import annotations

from protocol.games.chaotentrumpf.rules.cards import RANK_NAMES, parse_card
from protocol.games.chaotentrumpf.rules.lottery import draw_lot, feature_kind
from protocol.games.chaotentrumpf.rules.trump import LEVEL_NAMES, LEVEL_VALUES

FEATURE_CHOICES = [("", "–")] + [
    (LEVEL_NAMES[level], [(v, RANK_NAMES[v] if level == "rank" else v) for v in values])
    for level, values in LEVEL_VALUES.items()
]


def features_problem(features: dict[str, str]) -> str | None:
    """Why these features can't be drawn for (German, naming the LE rule), or None."""
    _kind, problem = feature_kind(features)
    return problem


def draw(features: dict[str, str]):
    """The lot drawn from a fair shuffled Blatt (SystemRandom: a shuffle nobody can predict)."""
    return draw_lot(features)


def card_name(code: str) -> str:
    """"XK" -> "Kreuz König", as people at the table say it (a code that is no card stays as it is)."""
    card = parse_card(code)
    return card.name if card is not None else code
