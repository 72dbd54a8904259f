"""The table's seating: who is next clockwise (the Mischer of Chaotentrumpf, Art. 5; the dealer
suggested for Doppelkopf and Tarot)."""

from __future__ import annotations


def next_clockwise(seats: list[str], last: str, eligible) -> str | None:
    """The first of ``eligible`` after ``last`` going round ``seats`` clockwise (None if nobody)."""
    start = seats.index(last)
    for step in range(1, len(seats) + 1):
        candidate = seats[(start + step) % len(seats)]
        if candidate in eligible:
            return candidate
    return None
