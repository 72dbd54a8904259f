"""The games the league keeps apart, as the rules registry (``protocol.rules.RULESETS``) names them.

A *game* is a ruleset key (the keys of ``protocol.rules.RULESETS``). Every season is of
one game, and no table, average or total ever adds up Partien of different games: a point
of one game is not a point of another. Pages ask this module, never name a game.
"""

from __future__ import annotations

from protocol.models import Match
from protocol.rules import RULESETS


def name(game: str) -> str:
    """What users read for a game key (the key itself for one the registry does not know)."""
    ruleset = RULESETS.get(game)
    return ruleset.name if ruleset is not None else game


def ordered(games) -> list[str]:
    """The games in the registry's order (unknown keys last)."""
    order = {key: i for i, key in enumerate(RULESETS)}
    return sorted(set(games), key=lambda g: (order.get(g, len(order)), g))


def in_play(club, *, finished_only: bool = True) -> list[str]:
    """The games the club has Partien of (finished ones, for the tables), in registry order:
    one query."""
    matches = Match.objects.filter(club=club)
    if finished_only:
        matches = matches.filter(status=Match.Status.FINISHED)
    return ordered(matches.order_by().values_list("ruleset", flat=True).distinct())


# The game of a Partie that names none: a season from before seasons named their game held it.
DEFAULT = Match._meta.get_field("ruleset").default


def of_season(season) -> str:
    """The game a season belongs to."""
    return season.ruleset or DEFAULT
