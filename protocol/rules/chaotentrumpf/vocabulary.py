"""Chaotentrumpf's words for the keys and values of its protocol entries (Art. numbers as in the rules)."""

from .game import FIELD_NAMES
from .partie import END_REASONS
from .trump import LEVEL_NAMES

FIELDS = {
    **FIELD_NAMES,  # tricks, points, trumps: Stiche, Augen, Trümpfe
    "selection": "Trumpfwahl",
    "cards": "Karten",
    "agreed": "vereinbart",
    "trump": "Trumpf",
    "level": None,  # left out: the value says it ("Trumpf Herz")
    "value": "",
    "inversions": "Umkehrungen",
    "declared": "angesagt",
    "target": "Ziel",
    "results": "",  # the players' lines read "Anna Augen 40"
    # settings
    "limit": "Obergrenze",
    "cards_per_deal": "Karten je Spiel",
    "decks": "Kartenspiele",
    "no_trump_points": "Punkte ohne Trumpf",
    "no_trick_points": "Punkte ohne Stich",
    "scorekeeper_skips_shuffling": "Protokollant mischt nicht",
    "max_games": "höchstens Spiele",
}

VALUES = {**LEVEL_NAMES, **END_REASONS, "normal": "normal"}
