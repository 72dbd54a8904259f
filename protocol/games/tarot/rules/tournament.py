"""What a Tarot tournament needs of the rules (FFT-Regeln: Ablauf des Wettbewerbs).

Vocabulary: a *position* (Spielplatz) is one seating of the tables of four, played for a
fixed number of *deals* (Spiele); a tournament is 5 positions of 4 deals, 6 of 4 or 7 of 3.
At each table the North player keeps the *Kontrollblatt* (score sheet) of the position.
A player's tournament result is the sum of his scores over all positions.
"""

from __future__ import annotations

from .scoring import POIGNEE_TRUMPS

TABLE_PLAYERS = 4  # "Tische" of North, South, East and West
# FFT-Regeln "Anzahl der Partien": positions x deals per position.
POSITIONS = {"5x4": (5, 4), "6x4": (6, 4), "7x3": (7, 3)}
# FFT-Regeln "Spielrhythmus": 35 minutes for 3 deals, 45 for 4.
MINUTES_FOR_DEALS = {3: 35, 4: 45}

__all__ = ["MINUTES_FOR_DEALS", "POIGNEE_TRUMPS", "POSITIONS", "TABLE_PLAYERS",
           "minutes_per_position", "total_deals"]


def minutes_per_position(format_key: str) -> int:
    """The time a position of this tournament format may take: "7x3" -> 35."""
    _, deals = POSITIONS[format_key]
    return MINUTES_FOR_DEALS[deals]


def total_deals(format_key: str) -> int:
    """The deals a player plays in the whole tournament: "5x4" -> 20."""
    positions, deals = POSITIONS[format_key]
    return positions * deals
