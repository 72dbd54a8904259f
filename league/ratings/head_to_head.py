"""Two members against each other, per game: their finished Partien together, who finished
ahead how often (places as the member page counts them, league.standings.history.places), and
in a game of sides (parties, or a taker and his called partner against the defenders, as
the game's rules say its results) the Spiele they played as partners and as opponents, from each Partie's results
as rated (``RatedMatch.sides``, protocol/rules/contests.py). A constant number of queries,
whatever the club has played."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field

from league.ratings.models import RatedMatch
from league.standings import games
from league.standings.history import partie_totals, places
from protocol.models import Match


@dataclass
class Sides:
    """The Spiele two members played in one party (``together``, ``won_together``) and against
    each other (``against``, won by the first: ``first_won``, by the second: ``second_won``).
    ``seen``: the game has sides at all (a Partie ranked as a whole has none)."""

    together: int = 0
    won_together: int = 0
    against: int = 0
    first_won: int = 0
    second_won: int = 0
    seen: bool = False


def count_sides(results: Iterable[list], first: int, second: int, into: Sides | None = None) -> Sides:
    """Add up ``results`` (each [teams, ranks], teams of member pks) for ``first`` and ``second``:
    only results of two sides count; a tie is won by nobody."""
    sides = into or Sides()
    for teams, ranks in results:
        if len(teams) != 2:
            continue
        sides.seen = True
        where = {member: i for i, team in enumerate(teams) for member in team}
        if first not in where or second not in where:
            continue
        winner = None if ranks[0] == ranks[1] else (0 if ranks[0] < ranks[1] else 1)
        if where[first] == where[second]:
            sides.together += 1
            sides.won_together += winner == where[first]
        else:
            sides.against += 1
            sides.first_won += winner == where[first]
            sides.second_won += winner == where[second]
    return sides


@dataclass
class GameTogether:
    """One game's head-to-head: the Partien (newest first, each with both places), how often
    each finished ahead, and the sides where the game has them."""

    game: str
    name: str
    partien: list[dict] = field(default_factory=list)
    first_ahead: int = 0
    second_ahead: int = 0
    level: int = 0
    sides: Sides = field(default_factory=Sides)


def head_to_head(club, first, second) -> list[GameTogether]:
    """``first`` and ``second`` (members of ``club``) per game they played together, in the
    registry's order. Four queries."""
    matches = list(Match.objects.filter(club=club, status=Match.Status.FINISHED, seats__member=first)
                   .filter(seats__member=second).order_by("-date", "-pk")
                   .values("pk", "date", "ruleset", "winner_id", "place"))
    totals: dict[int, dict[int, int]] = defaultdict(dict)
    for (pk, member), (_, total) in partie_totals([m["pk"] for m in matches]).items():
        totals[pk][member] = total
    sides = dict(RatedMatch.objects.filter(match_id__in=[m["pk"] for m in matches]).values_list("match_id", "sides"))
    by_game: dict[str, GameTogether] = {}
    for match in matches:
        together = by_game.setdefault(match["ruleset"], GameTogether(match["ruleset"], games.name(match["ruleset"])))
        placed = places(totals[match["pk"]], match["winner_id"])
        a, b = placed.get(first.pk), placed.get(second.pk)
        together.partien.append(match | {"first_place": a, "second_place": b})
        if a is not None and b is not None:
            together.first_ahead += a < b
            together.second_ahead += b < a
            together.level += a == b
        count_sides(sides.get(match["pk"], ()), first.pk, second.pk, into=together.sides)
    return [by_game[game] for game in games.ordered(by_game)]
