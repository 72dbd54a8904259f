"""Chaotentrumpf's words for the keys and values of its protocol entries (Art. numbers as in the rules)."""

from protocol.rules.words import N_

from .game import FIELD_NAMES
from .partie import END_REASONS
from .trump import LEVEL_NAMES

FIELDS = {
    **FIELD_NAMES,  # tricks, points, trumps: Stiche, Augen, Trümpfe
    "selection": N_("Trumpfwahl"),
    "cards": N_("Karten"),
    "agreed": N_("vereinbart"),
    "trump": N_("Trumpf"),
    "level": None,  # left out: the value says it ("Trumpf Herz")
    "value": "",
    "inversions": N_("Umkehrungen"),
    "declared": N_("angesagt"),
    "target": N_("Ziel"),
    "results": "",  # the players' lines read "Anna Augen 40"
    # settings
    "limit": N_("Obergrenze"),
    "cards_per_deal": N_("Karten je Spiel"),
    "decks": N_("Kartenspiele"),
    "no_trump_points": N_("Punkte ohne Trumpf"),
    "no_trick_points": N_("Punkte ohne Stich"),
    "scorekeeper_skips_shuffling": N_("Protokollant mischt nicht"),
    "max_games": N_("höchstens Spiele"),
}

VALUES = {**LEVEL_NAMES, **END_REASONS, "normal": N_("normal")}
