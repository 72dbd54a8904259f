"""The three draws of a tournament round, and who sits out when the count fits no tables.

Pure Python, no Django: the players are any sortable, hashable values (the views pass
member ids); ``earlier`` is the list of the earlier rounds, each a list of tables.

- *random*: :func:`league.tournaments.seating.draw`, avoiding the pairs who met at any
  earlier table of the event.
- *standings* (Swiss-like): the players in the order of the standings fill the tables from
  the top; a player who met everyone at the table already waits for the next table, so
  equals meet equals without repeats where the field allows.
- *rotation* (FFT): players in groups of a table's size, group *s* moved *s* tables on each
  round; with a prime number of tables at least the table size, every two players of
  different groups meet exactly once in that many rounds (the tables of an affine plane).

Each draw says how many repeated pairs it could not avoid (:attr:`Draw.repeats`). When no
shape of the game's table sizes fits the count, the fewest players sit out, those who sat
out least first (:func:`sitting_out`).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field

from league.tournaments import seating

KINDS = ("random", "standings", "rotation")


@dataclass
class Draw:
    tables: list[list[Hashable]]
    repeats: int  # pairs at one table who met in an earlier round
    sitting_out: list[Hashable] = field(default_factory=list)
    kind: str = "random"  # the kind of draw done (a rotation that does not fit falls back to random)


def sitting_out(players: Sequence, sizes: Sequence[int], before: Mapping | None = None) -> list:
    """The fewest players who sit out so that the rest fit tables of ``sizes``: those who
    sat out least often before, then the last in ``players`` (the caller's order)."""
    before = before or {}
    order = sorted(range(len(players)), key=lambda i: (before.get(players[i], 0), -i))
    for out in range(len(players) + 1):
        try:
            seating.table_sizes(len(players) - out, sizes)
        except seating.NoSeating:
            continue
        return [players[i] for i in sorted(order[:out])]
    return list(players)


def draw(kind: str, players: Sequence, seed: int, earlier: list, *, sizes: Sequence[int] = seating.FOURS_AND_FIVES,
         ranking: Sequence | None = None, round_index: int | None = None,
         sat_out: Mapping | None = None) -> Draw:
    """The round's tables by ``kind`` (see :data:`KINDS`). ``ranking``: the players by
    standings, best first (*standings*); ``round_index``: the round counted from 0
    (*rotation*, default the number of earlier rounds); ``sat_out``: how often each player
    sat out before."""
    if kind not in KINDS:
        raise ValueError(f"Unknown draw {kind!r}.")
    out = sitting_out(list(players), sizes, sat_out)
    playing = [p for p in players if p not in out]
    if not playing:
        return Draw([], 0, out, kind)
    met = seating.meetings(earlier)
    if kind == "rotation":
        tables = rotation(sorted(playing), len(earlier) if round_index is None else round_index, sizes)
        if tables is None:
            kind = "random"
    if kind == "standings":
        ranked = [p for p in (ranking or []) if p in set(playing)]
        ranked += sorted(p for p in playing if p not in set(ranked))
        tables = by_standings(ranked, met, sizes)
    elif kind == "random":
        tables = seating.draw(playing, random.Random(seed), met=met,
                              off_size=seating.off_size_seats(earlier, sizes[0]), sizes=sizes)
    return Draw(tables, seating.repeats(tables, met), out, kind)


def by_standings(ranked: Sequence, met: Mapping, sizes: Sequence[int]) -> list[list]:
    """Tables filled from the top of the standings; a player who met someone at the table
    waits for the next table (the next player who met nobody there takes the seat)."""
    shape = seating.table_sizes(len(ranked), sizes)
    waiting = list(ranked)
    tables = []
    for size in shape:
        table = [waiting.pop(0)]
        while len(table) < size:
            fresh = next((p for p in waiting if not any(met.get(seating.pair(p, q)) for q in table)), waiting[0])
            waiting.remove(fresh)
            table.append(fresh)
        tables.append(table)
    return tables


def rotation(players: Sequence, round_index: int, sizes: Sequence[int]) -> list[list] | None:
    """The FFT rotation: ``players`` in groups of one table's size; table *t* of round *r*
    seats player ``t + s·r`` (mod the tables) of each group *s*. None when the count is no
    multiple of a table size (the tables are not all of one size)."""
    size = next((s for s in sizes if len(players) % s == 0 and len(players) // s >= 1), None)
    if size is None:
        return None
    count = len(players) // size
    groups = [players[s * count:(s + 1) * count] for s in range(size)]
    return [[groups[s][(t + s * round_index) % count] for s in range(size)] for t in range(count)]


def sat_out_counts(earlier_out: Sequence[Sequence]) -> Counter:
    """How often each player sat out, from the earlier rounds' lists of those who sat out."""
    return Counter(p for out in earlier_out for p in out)
