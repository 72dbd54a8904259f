"""The league table: standings computed by database aggregation (no per-row queries).

Vocabulary, per member and over the Partien counted (finished, not annulled; running
Partien count once they are decided):

- ``played`` / ``won``: Partien played and won;
- ``games``: Spiele of the Partie itself (stage 0) that were not annulled;
- ``points``: the member's Partie totals added up: his stage-0 scores minus the Strafen
  deducted from them (SV 3). Stechen points decide a Stechen only and are not added;
- ``ppg``: points per Spiel x 100, the clubs' normalisation, so that members with
  different numbers of Spiele compare fairly;
- ``tiebreaks`` / ``tiebreaks_won``: Partien in which he played a Stechen, and won by one;
- ``penalties`` / ``penalty_points`` / ``warnings`` / ``disqualifications``: the SV record;
- ``trump_bonuses``: Spiele of the Partie itself in which he took (a share of) the
  Trumpfwertung (Art. 16).

Every metric is a grouped aggregate over the season's rows, so a table costs the same
number of queries for ten Partien or ten thousand.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal

from django.db.models import Count, F, Q, Sum
from django.utils.translation import gettext_lazy as _

from league.models import Club, Member, Season
from protocol.models import Match, SanctionLine, ScoreLine, Seat

COUNTED = Q(status=Match.Status.FINISHED)

RULE_TEXT = {
    Season.RankingRule.WINS_THEN_PPG: _("Ranked by Partien won, then by points per Spiel × 100. Equal values share a rank."),
    Season.RankingRule.PPG: _("Ranked by points per Spiel × 100. Equal values share a rank."),
    Season.RankingRule.TOTAL: _("Ranked by total points. Equal values share a rank."),
}


@dataclass
class Standing:
    rank: int
    member: Member
    played: int
    won: int
    games: int
    points: int
    ppg: int  # points per Spiel x 100, rounded
    tiebreaks: int
    tiebreaks_won: int
    penalties: int
    penalty_points: int
    warnings: int
    disqualifications: int
    trump_bonuses: int = 0

    @property
    def name(self) -> str:
        return self.member.name


def points_per_game(points: int, games: int) -> int:
    """Points per Spiel x 100, rounded half away from zero as on paper and in Excel's ROUND
    (1 point in 8 Spiele is 12.5, shown as 13; Python's round() would give 12).

    >>> points_per_game(1, 8), points_per_game(-1, 8), points_per_game(5, 0)
    (13, -13, 0)
    """
    if not games:
        return 0
    return int((Decimal(points * 100) / games).quantize(Decimal(1), rounding=ROUND_HALF_UP))


def standings(club: Club, season: Season | None = None, rule: str | None = None) -> list[Standing]:
    """The table of a season (or, with ``season=None``, of all time), best first.

    Four grouped aggregates (seats, Spiel lines, SV lines, the members), each one pass over
    the season's rows by index: the same four queries for ten Partien or ten thousand.
    """
    counted = {"match__club": club, "match__status": Match.Status.FINISHED}
    if season is not None:
        counted["match__season"] = season
    rule = rule or (season.ranking_rule if season else Season.RankingRule.WINS_THEN_PPG)

    seats = {row["member"]: row for row in Seat.objects.filter(**counted).values("member").annotate(
        played=Count("id"),
        won=Count("id", filter=Q(match__winner=F("member"))),
        tiebreaks_won=Count("id", filter=Q(match__winner=F("member"), match__ended_by="tiebreak")),
    )}
    lines = {row["member"]: row for row in ScoreLine.objects.filter(annulled=False, **counted).values("member").annotate(
        games=Count("id", filter=Q(stage=0)),
        scored=Sum("score", filter=Q(stage=0), default=0),
        tiebreaks=Count("match", filter=Q(stage__gte=1), distinct=True),
        trump_bonuses=Count("id", filter=Q(stage=0, took_trump_bonus=True)),
    )}
    sanctions = {row["member"]: row for row in SanctionLine.objects.filter(**counted).values("member").annotate(
        deducted=Sum("points", filter=Q(stage=0), default=0),
        penalties=Count("id", filter=Q(kind="penalty")),
        penalty_points=Sum("points", filter=Q(kind="penalty"), default=0),
        warnings=Count("id", filter=Q(kind="warning")),
        disqualifications=Count("id", filter=Q(kind="disqualification")),
    )}
    rows = []
    for member in Member.objects.filter(pk__in=list(seats)):
        seat, line, sv = seats[member.pk], lines.get(member.pk, {}), sanctions.get(member.pk, {})
        points = line.get("scored", 0) - sv.get("deducted", 0)
        games = line.get("games", 0)
        rows.append(Standing(0, member, seat["played"], seat["won"], games, points, points_per_game(points, games),
                             line.get("tiebreaks", 0), seat["tiebreaks_won"], sv.get("penalties", 0),
                             sv.get("penalty_points", 0), sv.get("warnings", 0), sv.get("disqualifications", 0),
                             line.get("trump_bonuses", 0)))
    return rank(rows, rule)


def sort_key(rule: str):
    if rule == Season.RankingRule.PPG:
        return lambda s: (-s.ppg,)
    if rule == Season.RankingRule.TOTAL:
        return lambda s: (-s.points,)
    return lambda s: (-s.won, -s.ppg)


def rank(rows: list[Standing], rule: str) -> list[Standing]:
    """Sort by the rule; equal values share a rank (1, 2, 2, 4)."""
    key = sort_key(rule)
    rows.sort(key=lambda s: (key(s), s.member.name))
    for i, row in enumerate(rows):
        row.rank = rows[i - 1].rank if i and key(row) == key(rows[i - 1]) else i + 1
    return rows
