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
  Trumpfwertung (Art. 16);
- ``points_only_games``: those of his ``games`` recorded as points only (protocol/rules/scores.py):
  their scores count in every figure above, but what took them (Augen, Stiche, Trümpfe, the
  Trumpfwertung) is unknown, so a figure of those facts counts the other Spiele only
  (:attr:`Standing.games_with_facts`);
- ``tournament_score``: what a tournament ranks by. TCG (the shared docs, "Tournament
  ranking"): the sum over his rounds of points in the round / games in the round x 100,
  rounded to one decimal at the end; a round is his Partie at a table of that round (one a
  round), so the sum runs over his Partien; its points are his Partie total, Strafen
  deducted, its games the Spiele of the table (a dealer sitting out at a table of five
  scores 0 in his, TCG Allgemeines, and they count). FFT (the shared docs, "Tournaments"):
  the sum of his scores over all positions, i.e. ``points``.

Every metric is a grouped aggregate over the season's rows, so a table costs the same
number of queries for ten Partien or ten thousand.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

from django.db.models import Count, F, Q, Sum
from django.utils.translation import gettext_lazy as _

from league.models import Club, Member, Season
from league.registry.statements import Statements
from league.standings import games
from protocol import confirmations
from protocol.models import Match, SanctionLine, ScoreLine, Seat

COUNTED = Q(status=Match.Status.FINISHED)

RULE_TEXT = {
    Season.RankingRule.WINS_THEN_PPG: _("Ranked by matches won, then by points per game × 100. Equal values share a rank."),
    Season.RankingRule.PPG: _("Ranked by points per game × 100. Equal values share a rank."),
    Season.RankingRule.TOTAL: _("Ranked by total points. Equal values share a rank."),
    Season.RankingRule.TCG: _("Ranked by the TCG tournament score: in each round the points divided by the "
                              "games of the round × 100, added up over the rounds (8 points in 20 games and "
                              "−5 in 20 give 40 − 25 = 15). Equal values share a rank."),
    Season.RankingRule.FFT: _("Ranked by the FFT tournament score: the sum of the points over all positions. "
                              "Equal values share a rank."),
}
TOURNAMENT_RULES = (Season.RankingRule.TCG, Season.RankingRule.FFT)


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
    tournament_score: Decimal | int = 0  # TCG: Decimal with one decimal place; FFT: the points
    points_only_games: int = 0

    @property
    def games_with_facts(self) -> int:
        """His Spiele of the Partie itself recorded with their facts (not as points only)."""
        return self.games - self.points_only_games

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


def tcg_score(rounds: Iterable[tuple[int, int]]) -> Decimal:
    """The TCG tournament score of (points, games) per round: the sum of points / games x 100,
    exact until the end and then rounded half away from zero to one decimal; a round without
    games adds nothing.

    >>> tcg_score([(8, 20), (-5, 20)])  # the seed's example (Brigitte 2014)
    Decimal('15.0')
    >>> tcg_score([(7, 19), (1, 21)]), tcg_score([(-1, 16)]), tcg_score([])
    (Decimal('41.6'), Decimal('-6.3'), Decimal('0.0'))
    """
    exact = sum((Fraction(100 * points, games) for points, games in rounds if games), Fraction(0))
    return (Decimal(exact.numerator) / Decimal(exact.denominator)).quantize(Decimal("0.1"), rounding=ROUND_HALF_UP)


def _tcg_scores(counted: dict) -> dict[int, Decimal]:
    """Member id -> TCG score: two aggregates grouped by member and Partie (the Spiele and
    the scores, the Strafen), summed up per member."""
    rounds = {(row["member"], row["match"]): [row["scored"], row["games"]] for row in
              ScoreLine.objects.filter(annulled=False, stage=0, **counted).values("member", "match")
              .annotate(scored=Sum("score"), games=Count("id"))}
    for row in (SanctionLine.objects.filter(stage=0, **counted).values("member", "match")
                .annotate(deducted=Sum("points"))):
        rounds.setdefault((row["member"], row["match"]), [0, 0])[0] -= row["deducted"]
    per_member = defaultdict(list)
    for (member, _match), (points, spiele) in rounds.items():
        per_member[member].append((points, spiele))
    return {member: tcg_score(rows) for member, rows in per_member.items()}


def standings(club: Club, season: Season | None = None, rule: str | None = None,
              game: str | None = None) -> list[Standing]:
    """The table of a season (or, with ``season=None``, of all time in ``game``), best first.

    Only Partien of one game count: the season's own game, or ``game`` for the all-time
    table, so points of different games are never added up (``league.standings.games``).

    Five grouped aggregates (seats, Spiel lines, Stechen lines, SV lines, the members), each
    one pass over the season's rows by index: the same five queries for ten Partien or ten
    thousand.
    """
    counted = counted_filter(club, season, game)
    rule = rule or (season.ranking_rule if season else Season.RankingRule.WINS_THEN_PPG)
    agreed = confirmations.counted_in(season)
    if agreed is None:
        scope = {"club": club.pk, "season": counted.get("match__season"), "game": counted.get("match__ruleset")}
        rows_of = _AGGREGATES.run(**scope)
        members = _MEMBERS.objects(**scope)
    else:  # "two at the table agree": a table counts once a second player accepted it
        counted["match__in"] = agreed
        rows_of = [list(queryset) for queryset in aggregates(counted)]
        members = None
    seats, lines, tiebreaks, sanctions = ({row["member"]: row for row in rows} for rows in rows_of)
    if members is None:
        members = Member.objects.filter(pk__in=list(seats))
    tcg = _tcg_scores(counted) if rule == Season.RankingRule.TCG else {}
    rows = []
    for member in members:
        seat, line, sv = seats[member.pk], lines.get(member.pk, {}), sanctions.get(member.pk, {})
        points = line.get("scored", 0) - sv.get("deducted", 0)
        games = line.get("games", 0)
        rows.append(Standing(0, member, seat["played"], seat["won"], games, points, points_per_game(points, games),
                             tiebreaks.get(member.pk, {}).get("tiebreaks", 0), seat["tiebreaks_won"], sv.get("penalties", 0),
                             sv.get("penalty_points", 0), sv.get("warnings", 0), sv.get("disqualifications", 0),
                             line.get("trump_bonuses", 0), tournament_score(rule, points, tcg.get(member.pk)),
                             line.get("points_only_games", 0)))
    return rank(rows, rule)


def aggregates(counted: dict) -> tuple:
    """The table's four grouped aggregates per member of the Partien ``counted``
    (:func:`counted_filter`): seats (played, won, Stechen won), Spiel lines (Spiele, points,
    trump bonuses, Spiele as points only), his Partien with a Stechen, and SV lines (deducted, Strafen,
    Verwarnungen, Disqualifikationen)."""
    # Seats counted by member, not id: PostgreSQL then reads them from the (match, member)
    # index alone, not by scanning every club's seats beside a federation.
    seats = Seat.objects.filter(**counted).values("member").annotate(
        played=Count("member"),
        won=Count("member", filter=Q(match__winner=F("member"))),
        tiebreaks_won=Count("member", filter=Q(match__winner=F("member"), match__ended_by="tiebreak")),
    )
    lines = ScoreLine.objects.filter(annulled=False, **counted).values("member").annotate(
        games=Count("id", filter=Q(stage=0)),
        scored=Sum("score", filter=Q(stage=0), default=0),
        trump_bonuses=Count("id", filter=Q(stage=0, took_trump_bonus=True)),
        points_only_games=Count("id", filter=Q(stage=0, points_only=True)),
    )
    # Counted apart from the other lines, from the Stechen lines' own index: a distinct count
    # among all lines made PostgreSQL sort them all (on disk for an all-time table).
    tiebreaks = ScoreLine.objects.filter(annulled=False, stage__gte=1, **counted).values("member").annotate(
        tiebreaks=Count("match", distinct=True),
    )
    sanctions = SanctionLine.objects.filter(**counted).values("member").annotate(
        deducted=Sum("points", filter=Q(stage=0), default=0),
        penalties=Count("id", filter=Q(kind="penalty")),
        penalty_points=Sum("points", filter=Q(kind="penalty"), default=0),
        warnings=Count("id", filter=Q(kind="warning")),
        disqualifications=Count("id", filter=Q(kind="disqualification")),
    )
    return seats, lines, tiebreaks, sanctions


def counted_filter(club: Club, season: Season | None, game: str | None) -> dict:
    """The lookups (from a score, seat or sanction line) of the Partien a table counts:
    finished, of the club, of the season if any, and of one game (the season's, else ``game``)."""
    return counted_lookups(club.pk, season.pk if season is not None else None,
                           games.of_season(season) if season is not None else game)


def counted_lookups(club: int, season: int | None, game: str | None) -> dict:
    """:func:`counted_filter` by the club's and the season's ids."""
    counted = {"match__club": club, "match__status": Match.Status.FINISHED}
    if season is not None:
        counted["match__season"] = season
    if game:
        counted["match__ruleset"] = game
    return counted


# The four aggregates' SQL, written once per shape (league.registry.statements): Django's
# building of them cost more than two of them take to run.
_AGGREGATES = Statements(lambda club, season, game: aggregates(counted_lookups(club, season, game)),
                         club=int, season=int, game=str)
# The members of those seats, the same way. Their ids distinct in the subquery: PostgreSQL
# then reads the season's seats once, not every seat of each member of the club; unsorted, as
# rank() sorts the rows.
_MEMBERS = Statements(lambda club, season, game: (Member.objects.filter(
    pk__in=Seat.objects.filter(**counted_lookups(club, season, game)).values("member").distinct()).order_by(),),
    club=int, season=int, game=str)


def tournament_score(rule: str, points: int, tcg: Decimal | None) -> Decimal | int:
    """The score a tournament rule ranks by (0 under the league's rules)."""
    if rule == Season.RankingRule.TCG:
        return tcg if tcg is not None else Decimal("0.0")
    if rule == Season.RankingRule.FFT:
        return points
    return 0


def sort_key(rule: str):
    if rule == Season.RankingRule.PPG:
        return lambda s: (-s.ppg,)
    if rule in (Season.RankingRule.TOTAL, Season.RankingRule.FFT):
        return lambda s: (-s.points,)
    if rule == Season.RankingRule.TCG:
        return lambda s: (-s.tournament_score,)
    return lambda s: (-s.won, -s.ppg)


def rank(rows: list[Standing], rule: str) -> list[Standing]:
    """Sort by the rule; equal values share a rank (1, 2, 2, 4)."""
    key = sort_key(rule)
    rows.sort(key=lambda s: (key(s), s.member.name))
    for i, row in enumerate(rows):
        row.rank = rows[i - 1].rank if i and key(row) == key(rows[i - 1]) else i + 1
    return rows
