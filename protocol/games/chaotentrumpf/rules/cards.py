"""Cards and Blätter of Chaotentrumpf (Art. 3, 7, 13; Hinweise).

Vocabulary:

- *Blatt* (deck): the 32-card French deck. Several Blätter are played together (Art. 3).
- *Spielfarbe* (suit): Kreuz (X) > Pik (P) > Herz (H) > Karo (K) (Art. 13b).
- *Farbe* (colour): Kreuz and Pik are schwarz, Herz and Karo rot.
- *Wert* (rank), low to high: 7, 8, 9, Bube (B), Dame (D), König (K), 10, As (A). This is
  the order of "vom Wert her niedriger" in Art. 9d (Hinweise 3a: a 7 after an 8 ends the
  Trumpfwahl, although both count nothing).
- *Augen* (card points, Art. 13a): A 11, 10 10, K 4, D 3, B 2, 9/8/7 0; a Blatt holds 120.

A card is written as in the Hinweise: suit letter then rank, so ``"KD"`` is Karo Dame and
``"X10"`` Kreuz Zehn.
"""

from __future__ import annotations

from dataclasses import dataclass

from protocol.rules.words import N_, Text

SUITS = ("X", "P", "H", "K")  # high to low, Art. 13b
SUIT_NAMES = {"X": N_("Kreuz"), "P": N_("Pik"), "H": N_("Herz"), "K": N_("Karo")}
SUIT_BY_NAME = {name: letter for letter, name in SUIT_NAMES.items()}
SUIT_STRENGTH = {"K": 0, "H": 1, "P": 2, "X": 3}

RANKS = ("7", "8", "9", "B", "D", "K", "10", "A")  # low to high, Art. 9d
RANK_STRENGTH = {rank: i for i, rank in enumerate(RANKS)}
RANK_NAMES = {
    "7": N_("Sieben"), "8": N_("Acht"), "9": N_("Neun"), "B": N_("Bube"),
    "D": N_("Dame"), "K": N_("König"), "10": N_("Zehn"), "A": N_("As"),
}
POINTS = {"A": 11, "10": 10, "K": 4, "D": 3, "B": 2, "9": 0, "8": 0, "7": 0}  # Art. 13a

COLOURS = (N_("schwarz"), N_("rot"))
COLOUR_OF_SUIT = {"X": "schwarz", "P": "schwarz", "H": "rot", "K": "rot"}

CARDS_PER_DECK = 32
POINTS_PER_DECK = 120
TRICK_CARDS_PER_DEAL = 5  # Art. 7: five cards, dealt twice (Art. 10)


@dataclass(frozen=True, order=False)
class Card:
    suit: str
    rank: str

    @property
    def points(self) -> int:
        return POINTS[self.rank]

    @property
    def colour(self) -> str:
        return COLOUR_OF_SUIT[self.suit]

    @property
    def code(self) -> str:
        return self.suit + self.rank

    @property
    def name(self) -> str:
        return Text(N_("%(suit)s %(rank)s"), suit=SUIT_NAMES[self.suit], rank=RANK_NAMES[self.rank])

    def __str__(self) -> str:
        return self.code


def parse_card(code: object) -> Card | None:
    """``"KD"`` -> Karo Dame; None for anything that is not a card."""
    if not isinstance(code, str) or len(code) < 2:
        return None
    suit, rank = code[0].upper(), code[1:].upper()
    if suit not in SUITS or rank not in RANK_STRENGTH:
        return None
    return Card(suit, rank)


def deck() -> list[Card]:
    """One Blatt, 32 cards."""
    return [Card(s, r) for s in SUITS for r in RANKS]


def decks_for_players(players: int) -> int:
    """Art. 3b: n Blätter for fewer than 4 players, one more for every second player beyond 3."""
    if players < 4:
        return players
    return 3 + (players - 3) // 2


def hand_size(cards_per_deal: int) -> int:
    """Art. 7 and 10: the cards are dealt twice, so a hand (and a Spiel's Stiche) is twice this."""
    return 2 * cards_per_deal
