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

Every metric is one correlated subquery of the same member query, so a table costs the
same number of queries for ten Partien or ten thousand.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal

from django.db.models import Count, IntegerField, OuterRef, Q, Subquery, Sum, Value
from django.db.models.functions import Coalesce
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


def _scalar(queryset, field: str, aggregate):
    """A correlated subquery giving one number per member (0 when there is nothing)."""
    value = queryset.values(field).annotate(v=aggregate).values("v")
    return Coalesce(Subquery(value, output_field=IntegerField()), Value(0))


def standings(club: Club, season: Season | None = None, rule: str | None = None) -> list[Standing]:
    """The table of a season (or, with ``season=None``, of all time), best first."""
    matches = Match.objects.filter(COUNTED, club=club)
    if season is not None:
        matches = matches.filter(season=season)
    rule = rule or (season.ranking_rule if season else Season.RankingRule.WINS_THEN_PPG)

    seats = Seat.objects.filter(member=OuterRef("pk"), match__in=matches)
    lines = ScoreLine.objects.filter(member=OuterRef("pk"), match__in=matches, annulled=False)
    sanctions = SanctionLine.objects.filter(member=OuterRef("pk"), match__in=matches)
    members = (
        Member.objects.filter(club=club, seats__match__in=matches).distinct()
        .annotate(
            played=_scalar(seats, "member", Count("id")),
            won=_scalar(matches.filter(winner=OuterRef("pk")).values("winner"), "winner", Count("id")),
            games=_scalar(lines.filter(stage=0), "member", Count("id")),
            scored=_scalar(lines.filter(stage=0), "member", Sum("score")),
            deducted=_scalar(sanctions.filter(stage=0), "member", Sum("points")),
            tiebreaks=_scalar(lines.filter(stage__gte=1), "member", Count("match", distinct=True)),
            tiebreaks_won=_scalar(matches.filter(winner=OuterRef("pk"), ended_by="tiebreak").values("winner"),
                                  "winner", Count("id")),
            penalties=_scalar(sanctions.filter(kind="penalty"), "member", Count("id")),
            penalty_points=_scalar(sanctions.filter(kind="penalty"), "member", Sum("points")),
            warnings=_scalar(sanctions.filter(kind="warning"), "member", Count("id")),
            disqualifications=_scalar(sanctions.filter(kind="disqualification"), "member", Count("id")),
            trump_bonuses=_scalar(lines.filter(stage=0, took_trump_bonus=True), "member", Count("id")),
        )
    )
    rows = []
    for m in members:
        points = m.scored - m.deducted
        rows.append(Standing(0, m, m.played, m.won, m.games, points, points_per_game(points, m.games),
                             m.tiebreaks, m.tiebreaks_won, m.penalties, m.penalty_points, m.warnings,
                             m.disqualifications, m.trump_bonuses))
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
