"""A game recorded as points only, the same shape in every game (docs/protocol-format.md).

When a paper sheet holds only the points written per player, not the facts behind them, the
game body carries ``"scores": {player: points}`` instead of those facts (Chaotentrumpf's
``results``, Doppelkopf's parties and card points, Tarot's contract and card points), with
whichever facts were noted besides. Each game checks the scores as far as its rules can
(its own ``points_only`` module) and marks such a game in its output with ``"points_only":
true`` and an explanation that says what was not checked. The match (totals, Stechen,
sanctions, the end and the winner) runs on the scores as for any game.
"""

from __future__ import annotations

from typing import Any

from .base import is_int
from .words import N_, Text

SCORES = "scores"  # the key of a points-only game body
POINTS_ONLY = "points_only"  # the key of the output that marks such a game

Error = tuple[str | None, str | None, str]


def read_scores(data: Any, players: list[str], article: str, errors: list[Error],
                not_playing: dict[str, str] | None = None) -> dict[str, int]:
    """The whole-number score of every one of ``players`` (errors for the rest, citing
    ``article``). ``not_playing``: why a named player does not play this game (German)."""
    if not isinstance(data, dict):
        errors.append((None, SCORES, Text(N_("Nur Punkte: für jeden Spieler des Spiels seine Punkte (%(article)s)."),
                                          article=article)))
        return {}
    for name in data:
        if name not in players:
            why = (not_playing or {}).get(name)
            errors.append((name if isinstance(name, str) else None, SCORES, f"{name} {why}." if why else Text(N_(
                "%(name)r spielt in diesem Spiel nicht mit (%(article)s)."), name=name, article=article)))
    scores = {}
    for player in players:
        if player not in data:
            errors.append((player, SCORES, Text(N_(
                "Für %(player)s fehlen die Punkte: jeder Spieler des Spiels bekommt Punkte (%(article)s)."),
                player=player, article=article)))
        elif not is_int(data[player]):
            errors.append((player, SCORES, Text(N_("Punkte von %(player)s: eine ganze Zahl eintragen (%(article)s)."),
                                                player=player, article=article)))
        else:
            scores[player] = data[player]
    return scores


def facts_with_scores(data: dict, facts: set[str], allowed: set[str], article: str) -> list[Error]:
    """A points-only body names only the facts that may be noted beside the scores
    (``allowed``); a game's other facts (``facts``) mean a full game was meant."""
    both = sorted((set(data) & facts) - allowed)
    if not both:
        return []
    return [(None, SCORES, Text(N_(
        "Ein Spiel hat entweder seine Angaben (%(keys)s) oder nur Punkte, nicht beides (%(article)s)."),
        keys=", ".join(both), article=article))]
