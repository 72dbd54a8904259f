"""The seating draw of a tournament round: random, fair, and avoiding repeat pairings.

Pure Python, no Django: the players are any sortable, hashable values (the views pass
member ids).

Vocabulary:

- *Shape*: the sizes of a round's tables. Tables of four (TCG, FFT-Regeln "Tische" of
  North, South, East and West); when the count of players is no multiple of four, as few
  tables of another allowed size as possible, larger ones first (each game's rules say
  which: ``Ruleset.table_sizes``).
- *Meetings*: how often two players sat at one table in the earlier rounds; a *repeat* is
  a pair at one table of the new round that met before.
- *Off-size seats*: how often a player sat at a table of another size than four before.

The draw (:func:`draw`) minimises a cost: each pair at a table costs 100 x (meetings)²
(so a third meeting weighs more than two second ones), and each player at an off-size
table the number of off-size seats he had before (so the fifth chair goes round). It starts
from several random seatings and improves each by swapping two players of different
tables while a swap lowers the cost; the cheapest plan wins, a plan without any cost at
once. Every random choice comes from the ``random.Random`` passed in, and the players are
sorted first, so the same players (in any order), history and seed give the same plan.

>>> draw(range(1, 9), random.Random(1))
[[4, 7, 2, 6], [5, 3, 8, 1]]
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Hashable, Iterable, Mapping, Sequence
from typing import TypeVar

from protocol.rules import RULESETS

P = TypeVar("P", bound=Hashable)

PREFERRED = 4
# The table sizes each game allows, the preferred size first.
TABLE_SIZES = {key: ruleset.table_sizes for key, ruleset in RULESETS.items()}  # the rulesets' own
FOURS_AND_FIVES = (4, 5)  # tables of four, and of five where the count needs it
REPEAT_WEIGHT = 100  # one repeat outweighs any share of the off-size tables
STARTS = 24  # random starting seatings improved per draw (fewer for large fields, see draw)


class NoSeating(ValueError):
    """The players cannot be seated at tables of the allowed sizes."""


def table_sizes(count: int, sizes: Sequence[int] = FOURS_AND_FIVES) -> list[int]:
    """The shape of a round: tables of ``sizes[0]``, and as few of the other sizes as
    possible (larger tables first when it is a tie), the preferred size first.

    >>> table_sizes(12), table_sizes(13), table_sizes(15)
    ([4, 4, 4], [4, 4, 5], [5, 5, 5])
    >>> table_sizes(11, (4, 5, 3)), table_sizes(6, (4, 5, 3)), table_sizes(10, (4, 5, 3))
    ([4, 4, 3], [3, 3], [5, 5])
    """
    preferred, others = sizes[0], sorted(sizes[1:], reverse=True)
    best: tuple | None = None
    for counts in itertools.product(*(range(count // size + 1) for size in others)):
        rest = count - sum(n * size for n, size in zip(counts, others))
        if rest < 0 or rest % preferred:
            continue
        off = sum(counts)
        key = (off, off + rest // preferred, [-n for n in counts])  # fewest odd, then fewest tables
        if best is None or key < best[0]:
            best = (key, [preferred] * (rest // preferred)
                    + [size for n, size in zip(counts, others) for _ in range(n)])
    if best is None or not best[1]:
        allowed = ", ".join(str(s) for s in sizes)
        raise NoSeating(f"{count} players cannot sit at tables of {allowed}.")
    return best[1]


def pair(a: P, b: P) -> frozenset:
    return frozenset((a, b))


def meetings(rounds: Iterable[Iterable[Iterable[P]]]) -> Counter:
    """How often each pair sat at one table in ``rounds`` (each a list of tables).

    >>> sorted(meetings([[[1, 2, 3]], [[1, 2], [3]]]).items(), key=lambda i: sorted(i[0]))
    [(frozenset({1, 2}), 2), (frozenset({1, 3}), 1), (frozenset({2, 3}), 1)]
    """
    met: Counter = Counter()
    for tables in rounds:
        for table in tables:
            met.update(pair(a, b) for a, b in itertools.combinations(list(table), 2))
    return met


def off_size_seats(rounds: Iterable[Iterable[Iterable[P]]], preferred: int = PREFERRED) -> Counter:
    """How often each player sat at a table of another size than ``preferred``."""
    seats: Counter = Counter()
    for tables in rounds:
        for table in tables:
            table = list(table)
            if len(table) != preferred:
                seats.update(table)
    return seats


def repeats(tables: Iterable[Iterable[P]], met: Mapping[frozenset, int]) -> int:
    """The pairs at these tables who sat together before."""
    return sum(1 for table in tables for a, b in itertools.combinations(list(table), 2)
               if met.get(pair(a, b), 0))


def draw(players: Iterable[P], rng: random.Random, *, met: Mapping[frozenset, int] | None = None,
         off_size: Mapping[P, int] | None = None, sizes: Sequence[int] = FOURS_AND_FIVES,
         starts: int | None = None) -> list[list[P]]:
    """The tables of a round, each in seating order (the first seat is North, who keeps
    the sheet). ``met``: :func:`meetings` of the earlier rounds; ``off_size``:
    :func:`off_size_seats` of them. Raises :class:`NoSeating` when no shape fits."""
    players = sorted(players)
    if len(set(players)) != len(players):
        raise ValueError("A player is named twice.")
    shape = table_sizes(len(players), sizes)
    met, off_size = met or {}, off_size or {}
    preferred = sizes[0]
    if starts is None:  # the work of a start grows with the square of the field
        starts = max(4, min(STARTS, 24_000 // len(players) ** 2))

    def weight(a: P, b: P) -> int:
        times = met.get(pair(a, b), 0)
        return REPEAT_WEIGHT * times * times

    def cost(tables: list[list[P]]) -> int:
        total = sum(weight(a, b) for table in tables for a, b in itertools.combinations(table, 2))
        return total + sum(off_size.get(p, 0) for table in tables if len(table) != preferred for p in table)

    best: tuple[int, list[list[P]]] | None = None
    for _ in range(starts):
        order = list(players)
        rng.shuffle(order)
        tables, start = [], 0
        for size in shape:
            tables.append(order[start:start + size])
            start += size
        _improve(tables, weight, off_size, preferred)
        value = cost(tables)
        if best is None or value < best[0]:
            best = (value, tables)
        if value == 0:
            break
    tables = best[1]
    for table in tables:
        rng.shuffle(table)  # who sits North, and the order round the table
    return tables


def _improve(tables: list[list[P]], weight, off_size: Mapping[P, int], preferred: int) -> None:
    """Swap two players of different tables while that lowers the cost (first improvement,
    in a fixed order), in place."""
    where = {p: t for t, table in enumerate(tables) for p in table}
    players = [p for table in tables for p in table]

    def delta(a: P, b: P) -> int:
        ta, tb = tables[where[a]], tables[where[b]]
        change = sum(weight(b, x) - weight(a, x) for x in ta if x != a)
        change += sum(weight(a, y) - weight(b, y) for y in tb if y != b)
        if len(ta) != preferred:
            change += off_size.get(b, 0) - off_size.get(a, 0)
        if len(tb) != preferred:
            change += off_size.get(a, 0) - off_size.get(b, 0)
        return change

    improved = True
    while improved:
        improved = False
        for i, a in enumerate(players):
            for b in players[i + 1:]:
                if where[a] != where[b] and delta(a, b) < 0:
                    ta, tb = where[a], where[b]
                    tables[ta][tables[ta].index(a)] = b
                    tables[tb][tables[tb].index(b)] = a
                    where[a], where[b] = tb, ta
                    improved = True
