"""The published table of a season: its rows, as the public page, CSV and JSON show them.

One function, :func:`public_table`, decides what is published; the page, the CSV and the
JSON only lay it out, so the three always agree and nothing private slips into one of them.
Published per member: the rank and the display name, and the numbers the table ranks by
(Partien played and won, Spiele, points with the Strafen deducted, points per Spiel x 100,
the tournament score), and whether the table is final or how many of its Partien are still
provisional and until when (the club's correction window). Never: the member's account, guest
or active flags, Strafen and their reasons, warnings, match pages.

>>> csv_cell("=1+1"), csv_cell("Anna"), csv_cell(-5)
("'=1+1", 'Anna', -5)
"""

from __future__ import annotations

import csv
import io
import json
from dataclasses import dataclass, field
from decimal import Decimal

from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from league.models import Club, Season
from league.standings import games
from league.standings.provisional import Provisional, provisional_partien
from league.standings.ranking import RULE_TEXT, TOURNAMENT_RULES
from league.standings.table_cache import cached_standings, data_stamp
from league.standings.tables import TOURNAMENT_SCORE_NAMES

FORMAT = "trumpfbuch-tabelle/1"


@dataclass
class Column:
    key: str  # the JSON key and the CSV header: stable, English, never translated
    label: str  # what the page shows
    short: str = ""  # the page's heading where the label is long (a phone's narrow column); the label its title


@dataclass
class PublicTable:
    club: Club
    season: Season
    columns: list[Column]
    rows: list[dict]
    rounds: list[dict] = field(default_factory=list)  # a tournament's rounds: number and date
    # its Partien still provisional (the club's correction window): the table is final without them
    provisional: Provisional = field(default_factory=lambda: Provisional(frozenset(), None))

    @property
    def is_tournament(self) -> bool:
        return self.season.mode == Season.Mode.TOURNAMENT

    @property
    def game_name(self) -> str:
        return games.name(games.of_season(self.season))

    @property
    def rule_text(self) -> str:
        return str(RULE_TEXT.get(self.season.ranking_rule, ""))


def public_table(club: Club, season: Season) -> PublicTable:
    """The season's table as it is published (computed once per state of the data,
    ``league.table_cache``)."""
    rows = cached_standings(club, season, data_stamp(club, season, games.of_season(season)))
    tournament = season.ranking_rule in TOURNAMENT_RULES
    # The labels of the club's own table (league.tables.StandingsTable).
    columns = [Column("rank", _("Rank")), Column("name", _("Member")), Column("played", _("Matches")),
               Column("won", pgettext("matches", "Won")), Column("games", _("Games")),
               Column("points", pgettext("score", "Points")), Column("points_per_game", _("Points per game × 100"), _("Pts./game ×100"))]
    if tournament:
        columns.append(Column("tournament_score", str(TOURNAMENT_SCORE_NAMES[season.ranking_rule])))
    published = []
    for row in rows:
        values = {"rank": row.rank, "name": row.member.name, "played": row.played, "won": row.won,
                  "games": row.games, "points": row.points, "points_per_game": row.ppg}
        if tournament:
            values["tournament_score"] = row.tournament_score
        published.append(values)
    rounds = []
    if season.mode == Season.Mode.TOURNAMENT:
        rounds = [{"number": r.number, "date": r.date} for r in season.rounds.order_by("number")]
    # asked now, never kept: a correction window closes without a write
    provisional = provisional_partien(club, season, games.of_season(season))
    return PublicTable(club, season, columns, published, rounds, provisional)


def as_json(table: PublicTable, *, url: str = "") -> bytes:
    """The table as JSON (``format`` names this layout; keys are stable and English)."""
    season = table.season
    document = {
        "format": FORMAT,
        "club": {"name": table.club.name, "place": table.club.place},
        "season": {"name": season.name, "start": season.start.isoformat(), "end": season.end.isoformat(),
                   "game": games.of_season(season), "game_name": str(table.game_name), "mode": season.mode,
                   "ranking_rule": season.ranking_rule, "ranking": table.rule_text},
        "url": url,
        "generated": timezone.now().isoformat(timespec="seconds"),
        "columns": [{"key": c.key, "label": str(c.label)} for c in table.columns],
        "rows": [{key: _json_value(value) for key, value in row.items()} for row in table.rows],
        # provisional while a Partie of it may still be corrected (the club's correction window)
        "final": not table.provisional,
        "provisional": {"matches": len(table.provisional),
                        "until": table.provisional.until.isoformat(timespec="seconds")
                        if table.provisional.until else None},
    }
    if table.is_tournament:
        document["rounds"] = [{"number": r["number"], "date": r["date"].isoformat()} for r in table.rounds]
    return json.dumps(document, ensure_ascii=False, indent=1).encode()


def as_csv(table: PublicTable) -> bytes:
    """The table as CSV: comma-separated, a header of the JSON keys, UTF-8 with a byte order
    mark (so that a spreadsheet opened by double-click reads the umlauts)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow([c.key for c in table.columns])
    for row in table.rows:
        writer.writerow([csv_cell(_json_value(row[c.key])) for c in table.columns])
    return out.getvalue().encode("utf-8-sig")


def csv_cell(value):
    """A text a spreadsheet would take for a formula (``=``, ``+``, ``-``, ``@`` first) gets a
    leading apostrophe: a member called ``=1+1`` stays a name (numbers are left as they are)."""
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return "'" + value
    return value


def _json_value(value):
    """A TCG score is a Decimal with one place: as text ("15.0"), exact as printed."""
    return str(value) if isinstance(value, Decimal) else value
