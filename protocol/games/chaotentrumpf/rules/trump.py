"""Trumpf and the Trumpfwahl (Art. 9, 11b, 16b).

Vocabulary:

- *Trumpfebene* (level): ``colour`` (Farbe: rot / schwarz), ``suit`` (Spielfarbe: Kreuz,
  Pik, Herz, Karo), ``rank`` (Wert: A, 10, K, D, B, 9, 8, 7) and, only after a
  Totalultrainversion, ``card`` (a single card such as Karo Dame, Art. 11b).
- *Trumpfwahl* (selection): cards are revealed one by one until the players agree on the
  feature of the last one (Art. 9b) or a card lower in rank than the one before ends it
  (Art. 9d, with the exceptions 9e and 9f).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from protocol.rules.words import N_, Text

from .cards import (
    COLOURS,
    RANK_NAMES,
    RANK_STRENGTH,
    RANKS,
    SUIT_BY_NAME,
    SUIT_NAMES,
    SUIT_STRENGTH,
    Card,
    parse_card,
)

LEVELS = ("colour", "suit", "rank", "card")
LEVEL_NAMES = {"colour": N_("Farbe"), "suit": N_("Spielfarbe"), "rank": N_("Wert"), "card": N_("Karte")}
LEVEL_VALUES = {
    "colour": COLOURS,
    "suit": tuple(SUIT_NAMES[s] for s in ("X", "P", "H", "K")),
    "rank": tuple(reversed(RANKS)),
}
VALUE_WORDS = {*COLOURS, *SUIT_NAMES.values()}  # the values that are words (translated for the site)
# Trump cards of one Blatt on each level (what the sum of Trümpfe is checked against).
TRUMPS_PER_DECK = {"colour": 16, "suit": 8, "rank": 4, "card": 1}
# Art. 16b: the additive Trumpfwertung on the levels Farbe and Spielfarbe.
TRUMP_BONUS = {
    ("colour", "rot"): 5, ("colour", "schwarz"): 10,
    ("suit", "Karo"): 5, ("suit", "Herz"): 10, ("suit", "Pik"): 15, ("suit", "Kreuz"): 20,
}
RANK_FACTOR = 4  # Art. 16b: "Wert: *4"
CARD_FACTOR = 5  # a single card is trump only after a Totalultrainversion: "*5"


@dataclass(frozen=True)
class Trump:
    level: str
    value: str

    def contains(self, card: Card) -> bool:
        if self.level == "colour":
            return card.colour == self.value
        if self.level == "suit":
            return card.suit == SUIT_BY_NAME[self.value]
        if self.level == "rank":
            return card.rank == self.value
        return card.code == self.value

    @property
    def label(self) -> str:
        """German, as the sheet prints it: "Pik", "schwarz", "Wert Zehn", "Karo Dame"."""
        if self.level == "rank":
            return Text(N_("Wert %(rank)s"), rank=RANK_NAMES[self.value])
        if self.level == "card":
            card = parse_card(self.value)
            return card.name if card else self.value
        return Text(self.value) if self.value in VALUE_WORDS else self.value

    def as_json(self) -> dict[str, str]:
        return {"level": self.level, "value": self.value}


def parse_trump(data: object) -> tuple[Trump | None, str | None]:
    """Read ``{"level": ..., "value": ...}``; answers (trump, None) or (None, German error)."""
    if not isinstance(data, dict) or set(data) != {"level", "value"}:
        return None, 'Der Trumpf braucht genau "level" und "value" (Art. 9a).'
    level, value = data["level"], data["value"]
    if level not in LEVELS:
        return None, (
            f"Unbekannte Trumpfebene {level!r}: es gibt Farbe (colour), Spielfarbe (suit), "
            "Wert (rank) und nach einer Totalultrainversion eine Karte (card) (Art. 9a, 11b)."
        )
    if level == "card":
        card = parse_card(value)
        if card is None or card.code != value:
            return None, f"{value!r} ist keine Karte (z. B. KD für Karo Dame, X10 für Kreuz Zehn)."
        return Trump(level, value), None
    if value not in LEVEL_VALUES[level]:
        allowed = ", ".join(LEVEL_VALUES[level])
        return None, f"{value!r} ist kein Trumpf der Ebene {LEVEL_NAMES[level]} (möglich: {allowed})."
    return Trump(level, value), None


def feature(card: Card, level: str) -> Trump:
    """The trump a card stands for on a level."""
    if level == "colour":
        return Trump("colour", card.colour)
    if level == "suit":
        return Trump("suit", SUIT_NAMES[card.suit])
    if level == "rank":
        return Trump("rank", card.rank)
    return Trump("card", card.code)


def level_after(cards_revealed: int) -> str:
    """Art. 9: one card decides the Farbe, two the Spielfarbe, three or more the Wert."""
    return ("colour", "suit")[cards_revealed - 1] if cards_revealed < 3 else "rank"


def ends_selection(previous: Card, new: Card) -> bool:
    """Art. 9d-f: does the newly revealed card end the Trumpfwahl?"""
    if RANK_STRENGTH[new.rank] >= RANK_STRENGTH[previous.rank]:
        return False  # Hinweise 3a/3c: equal or higher rank goes on
    if previous.code == "XA" and new.suit != "X":
        return False  # Art. 9f
    if previous.rank == "A" and SUIT_STRENGTH[new.suit] > SUIT_STRENGTH[previous.suit]:
        return False  # Art. 9e
    return True  # Art. 9d


def trump_from_selection(codes: object, agreed: bool, decks: int) -> tuple[Trump | None, str | None]:
    """The trump a Trumpfwahl ends with, or a German error.

    Without agreement the last card must end the Trumpfwahl (Art. 9d-f); with agreement the
    players took the last card's feature (Art. 9b). No earlier card may have ended it.
    """
    if not isinstance(codes, list) or not codes:
        return None, "Die Trumpfwahl braucht mindestens eine aufgedeckte Karte (Art. 8, 9b)."
    cards = []
    for code in codes:
        card = parse_card(code)
        if card is None or card.code != code:
            return None, f"{code!r} ist keine Karte (z. B. KD für Karo Dame, X10 für Kreuz Zehn)."
        cards.append(card)
    counts = Counter(cards)
    for card, count in counts.items():
        if count > decks:
            return None, (
                f"{card.code} ist {count}-mal aufgedeckt, es gibt aber nur {decks} "
                f"Blätter (Art. 3)."
            )
    for i in range(1, len(cards)):
        if not ends_selection(cards[i - 1], cards[i]):
            continue
        if i < len(cards) - 1:
            return None, (
                f"Die Trumpfwahl endet schon mit der {i + 1}. Karte ({cards[i].code} ist niedriger "
                f"als {cards[i - 1].code}, Art. 9d); danach wird keine Karte mehr aufgedeckt."
            )
        if agreed:
            return None, (
                f"{cards[i].code} beendet die Trumpfwahl nach Art. 9d; eine Einigung auf diese "
                "Karte ist dann nicht mehr möglich."
            )
        return feature(cards[i - 1], level_after(i)), None
    if agreed:
        return feature(cards[-1], level_after(len(cards))), None
    return None, (
        f"Die Trumpfwahl ist mit {cards[-1].code} nicht beendet: die Karte ist nicht niedriger "
        "als die vorherige (Art. 9d-f), und eine Einigung ist nicht vermerkt (Art. 9b)."
    )
