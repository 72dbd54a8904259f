"""What a finished match says about who played better than whom: its *contests*, the
results a rating is computed from (league.ratings), as the engine computed them.

A *contest* is one result: sides (``teams``, each a tuple of players) and their places
(``ranks``, 0 the best; equal ranks a tie). A game says what its contests are
(``GameRules.contests``); the default here, for a game without its own, is the finished
match as one contest ranked by its totals. A result the record cannot tell (a Spiel recorded
as points only whose sides the points leave open) is a contest without sides: *left out*,
counted so that pages can say how many.

Annulled games and annulled matches are no contests at all: they count for nothing.

Pure Python, no Django.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True)
class Contest:
    """One result: ``teams`` (each a tuple of players) and their ``ranks`` (0 the best, equal
    ranks a tie); ``number`` is the game's number in the match (0: the match as a whole).
    No teams: the record does not tell the sides, the result is left out."""

    number: int
    teams: tuple[tuple[str, ...], ...] = ()
    ranks: tuple[int, ...] = ()

    @property
    def left_out(self) -> bool:
        return not self.teams


def ranking(groups: Iterable[Iterable[str]]) -> Contest:
    """The match as one contest of single players, ``groups`` from the best down, the
    players of a group tied."""
    teams, ranks = [], []
    for place, group in enumerate(g for g in (list(group) for group in groups) if g):
        for player in group:
            teams.append((player,))
            ranks.append(place)
    return Contest(0, tuple(teams), tuple(ranks))


def by_total(players: Iterable[str], totals: dict[str, int]) -> list[list[str]]:
    """``players`` grouped by their totals, the highest first, equal totals together."""
    groups: dict[int, list[str]] = {}
    for player in players:
        groups.setdefault(totals[player], []).append(player)
    return [groups[total] for total in sorted(groups, reverse=True)]


def ranked_by_totals(match) -> list[Contest]:
    """A finished match as one contest: the winner first; then the players of each Stechen
    by its totals, the last Stechen's first (it decided the order at the top, Chaotentrumpf
    Art. 17b); then the rest by the totals of the match; the disqualified after everyone who
    finished (they left the table). A match without a Stechen is ranked by its totals."""
    if match.status != "finished":
        return []
    placed = set(match.disqualified)
    groups: list[list[str]] = []
    if match.winner is not None:
        groups.append([match.winner])
        placed.add(match.winner)
    for stage in reversed(match.stages):
        players = [p for p in stage.players if p not in placed]
        groups += by_total(players, stage.totals)
        placed.update(players)
    groups += by_total([p for p in match.players if p not in placed], match.totals)
    groups += by_total([p for p in match.players if p in match.disqualified], match.totals)
    return [ranking(groups)]


def two_sides(number: int, first: Iterable[str], second: Iterable[str], first_won: bool | None) -> Contest:
    """A game of one side against the other: ``first_won`` True, False, or None for a game
    nobody won (a tie)."""
    teams = (tuple(first), tuple(second))
    ranks = (0, 0) if first_won is None else ((0, 1) if first_won else (1, 0))
    return Contest(number, teams, ranks)
