"""Which Augen can a number of cards hold? (Art. 3, 13a)

A player's Augen are the points of the cards in his Stiche. With ``decks`` Blätter there are
4 x decks cards of each rank, so the Augen must be a sum of exactly that many card values
drawn from that stock: 1 is never possible, 9 not with two cards, and 3 Blätter hold only
12 Asse. The answer is exact: a line a real deal can produce is never rejected.
"""

from __future__ import annotations

from functools import lru_cache

from .cards import POINTS, RANKS

# A stock of cards: ((value, count) for each non-zero value, count of cards worth 0).
Stock = tuple[tuple[tuple[int, int], ...], int]


@lru_cache(maxsize=64)
def stock(decks: int, without_rank: str | None = None, without_card_of_rank: str | None = None) -> Stock:
    """The cards of ``decks`` Blätter, without all cards of one rank or without one card."""
    counts: dict[int, int] = {}
    for rank in RANKS:
        count = 4 * decks
        if rank == without_rank:
            count = 0
        elif rank == without_card_of_rank:
            count -= decks
        counts[POINTS[rank]] = counts.get(POINTS[rank], 0) + count
    zeros = counts.pop(0)
    return tuple(sorted(counts.items(), reverse=True)), zeros


@lru_cache(maxsize=64)
def _reachable(nonzero: tuple[tuple[int, int], ...]) -> tuple[int, ...]:
    """For every sum s, a bit mask of how many non-zero cards can make exactly s."""
    total = sum(value * count for value, count in nonzero)
    reach = [0] * (total + 1)
    reach[0] = 1
    for value, count in nonzero:
        for _ in range(count):
            for s in range(total, value - 1, -1):
                if reach[s - value]:
                    reach[s] |= reach[s - value] << 1
    return tuple(reach)


def possible(points: int, cards: int, cards_stock: Stock) -> bool:
    """Can exactly ``cards`` cards of the stock be worth exactly ``points``?"""
    nonzero, zeros = cards_stock
    if points < 0 or cards < 0:
        return False
    reach = _reachable(nonzero)
    if points >= len(reach):
        return False
    mask = reach[points]
    fewest = max(0, cards - zeros)  # the other cards must be worth nothing
    return (mask >> fewest) & ((1 << (cards - fewest + 1)) - 1) != 0


def most_points(cards: int, cards_stock: Stock) -> int:
    """The points of the ``cards`` most valuable cards of the stock."""
    nonzero, _ = cards_stock
    best, left = 0, cards
    for value, count in nonzero:  # sorted, most valuable first
        take = min(left, count)
        best, left = best + take * value, left - take
    return best

