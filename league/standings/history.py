"""A member's history: his Partien with their results, and his place in the table over time.

Both read the same per-seat aggregation (:func:`partie_totals`: two grouped queries over
the Partien asked for, whatever their number, and nothing of any other Partie, so a season's
page costs the same however much the club has played besides) and count as the table does
(``league.standings.ranking``): a Partie total is
the player's stage-0 scores of Spiele not annulled minus the Strafen deducted from them
(SV 3); only finished Partien count for the table, and the places over time are ranked by
the season's own rule with :func:`league.standings.ranking.rank`, so the last place in the history
is the place in the table.
"""

from __future__ import annotations

import datetime
from collections import defaultdict
from dataclasses import dataclass, field

from django.db.models import Count, Sum

from league.models import Club, Member, Season
from league.standings import games
from league.standings.ranking import COUNTED, Standing, points_per_game, rank, tcg_score, tournament_score
from protocol.models import Match, SanctionLine, ScoreLine, Seat


def partie_totals(matches) -> dict[tuple[int, int], tuple[int, int]]:
    """(match id, member id) -> (``games``: his Spiele of the Partie itself, not annulled;
    ``total``: their scores minus his Strafen, SV 3) for every player of ``matches``.

    Two aggregates grouped by Partie and player, each reading only the lines of ``matches``
    (a correlated subquery per seat reads by player, through all his Partien ever: the cost
    grew with the whole club)."""
    totals = {(row["match_id"], row["member_id"]): (row["games"], row["scored"]) for row in
              ScoreLine.objects.filter(match__in=matches, stage=0, annulled=False).order_by()
              .values("match_id", "member_id").annotate(games=Count("id"), scored=Sum("score"))}
    for row in (SanctionLine.objects.filter(match__in=matches, stage=0).order_by()
                .values("match_id", "member_id").annotate(points=Sum("points"))):
        key = (row["match_id"], row["member_id"])
        games, scored = totals.get(key, (0, 0))
        totals[key] = (games, scored - (row["points"] or 0))
    return totals


@dataclass
class PartieResult:
    """One member's Partie as the member page lists it."""

    match: PartieHead
    member_id: int
    total: int
    games: int
    place: int | None  # 1 = the winner; by Partie total for the others; None if annulled
    players: int
    others: list[str] = field(default_factory=list)  # the other players, clockwise

    @property
    def won(self) -> bool:
        return self.match.winner_id == self.member_id

    @property
    def counted(self) -> bool:
        """Whether the Partie counts for the table (finished, not annulled)."""
        return self.match.status == Match.Status.FINISHED

    @property
    def ppg(self) -> int:
        return points_per_game(self.total, self.games)


def places(totals: dict[int, int], winner_id: int | None) -> dict[int, int]:
    """Places in one Partie: the winner first, the others by Partie total; equal totals
    share a place. A Stechen winner may have no more points than the others, and after a
    Disqualifikation the last player left may have fewer: the win decides, not the total.

    >>> places({1: 900, 2: 1010, 3: 900, 4: 500}, winner_id=2)
    {1: 2, 2: 1, 3: 2, 4: 4}
    >>> places({1: 1001, 2: 1001, 3: 20}, winner_id=2)  # Bernd won the Stechen
    {1: 2, 2: 1, 3: 3}
    """
    others = [total for pk, total in totals.items() if pk != winner_id]
    ahead = 1 if winner_id in totals else 0
    return {pk: 1 if pk == winner_id else ahead + 1 + sum(1 for t in others if t > total)
            for pk, total in totals.items()}


@dataclass(frozen=True)
class PartieHead:
    """What the member page shows of a Partie (not its settings: reading a Match with its
    JSON per seat was a fifth of the page)."""

    pk: int
    date: datetime.date
    status: str
    winner_id: int | None
    round_id: int | None
    round_number: int | None  # the tournament round, if any
    table_number: int | None


def member_partien(member: Member, season: Season | None = None, game: str | None = None) -> list[PartieResult]:
    """Every Partie the member sat at (in ``season``, or ever; of ``game`` if given), newest
    first, with his Partie total and place; running and annulled ones too (``counted`` tells)."""
    matches = Match.objects.filter(club_id=member.club_id, seats__member=member)
    if season is not None:
        matches = matches.filter(season=season)
    if game:
        matches = matches.filter(ruleset=game)
    totals = partie_totals(matches)
    by_match: dict[int, list[tuple[int, str]]] = defaultdict(list)  # match -> (member, name) clockwise
    heads: dict[int, PartieHead] = {}
    for match_id, member_id, name, *head in (
            Seat.objects.filter(match__in=matches).order_by("-match__date", "-match_id", "position")
            .values_list("match_id", "member_id", "name", "match__date", "match__status", "match__winner_id",
                         "match__round_id", "match__round__number", "match__table_number")):
        by_match[match_id].append((member_id, name))
        if match_id not in heads:
            heads[match_id] = PartieHead(match_id, *head)
    results = []
    for match_id, table in by_match.items():
        match = heads[match_id]
        scores = {pk: totals.get((match_id, pk), (0, 0)) for pk, _name in table}
        placed = (places({pk: total for pk, (_games, total) in scores.items()}, match.winner_id)
                  if match.status != Match.Status.ANNULLED else {})
        games_played, total = scores[member.pk]
        results.append(PartieResult(
            match=match, member_id=member.pk, total=total, games=games_played,
            place=placed.get(member.pk), players=len(table),
            others=[name for pk, name in table if pk != member.pk]))
    return results


@dataclass
class Placement:
    date: datetime.date
    rank: int
    of: int  # members in the table on that day


def rank_history(club: Club, season: Season | None, member: Member, game: str | None = None) -> list[Placement]:
    """The member's place in the table after each day with a counted Partie, from his first
    Partie on (the season's ranking rule; of all time in ``game`` with ``season=None``)."""
    matches = Match.objects.filter(COUNTED, club=club)
    if season is not None:
        matches = matches.filter(season=season)
    game = games.of_season(season) if season is not None else game
    if game:
        matches = matches.filter(ruleset=game)
    rule = season.ranking_rule if season else Season.RankingRule.WINS_THEN_PPG
    totals = partie_totals(matches)
    days: dict[datetime.date, list[tuple]] = defaultdict(list)
    for match_id, member_id, date, winner_id in (Seat.objects.filter(match__in=matches).order_by()
                                                 .values_list("match_id", "member_id", "match__date",
                                                              "match__winner_id")):
        days[date].append((member_id, winner_id == member_id, *totals.get((match_id, member_id), (0, 0))))
    members = {m.pk: m for m in club.members.all()}
    sums: dict[int, list[int]] = {}  # member -> [played, won, games, points]
    rounds: dict[int, list[tuple[int, int]]] = defaultdict(list)  # member -> (points, games) per Partie
    tcg = rule == Season.RankingRule.TCG
    players: dict[int, Member] = {}
    history = []
    for date in sorted(days):
        for member_id, won, games_played, points in days[date]:
            total = sums.setdefault(member_id, [0, 0, 0, 0])
            total[0] += 1
            total[1] += won
            total[2] += games_played
            total[3] += points
            rounds[member_id].append((points, games_played))
            players[member_id] = members[member_id]
        if member.pk not in sums:
            continue
        rows = [Standing(0, players[pk], played, won, games, points, points_per_game(points, games),
                         0, 0, 0, 0, 0, 0,
                         tournament_score=tournament_score(rule, points, tcg_score(rounds[pk]) if tcg else None))
                for pk, (played, won, games, points) in sums.items()]
        ranked = rank(rows, rule)
        mine = next(row for row in ranked if row.member.pk == member.pk)
        history.append(Placement(date, mine.rank, len(ranked)))
    return history
