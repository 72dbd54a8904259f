"""The season as a spreadsheet (.xlsx, openpyxl) for the club's annual meeting.

One workbook, four sheets, German headers:

- ``Tabelle``: the standings as the site shows them, the ranking rule underneath;
- ``Partien``: one row per Partie (date, place, players, winner, how it ended, Spiele);
- ``Spiele``: one row per player per Spiel, as the rules engine computes it from the
  recorded facts (tricks, card points, trumps, trump, score, running total, annulled);
- ``Strafen``: every Strafe, Verwarnung and Disqualifikation.

Cells carry real types (dates are dates, numbers are numbers) with number formats; each
sheet has a bold, frozen header row, an autofilter and fixed column widths.

The workbook is written in openpyxl's write-only mode, Partie by Partie: the matches are
read in chunks (``.iterator``), each is evaluated by the engine once and its rows are
streamed to disk, so memory stays flat however large the season. ``write_*`` write to a
path or binary file; ``*_xlsx`` return the bytes.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from typing import BinaryIO

from django.utils import timezone, translation
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import pgettext
from openpyxl import Workbook
from openpyxl.cell import WriteOnlyCell
from openpyxl.styles import Alignment, Font, PatternFill
from openpyxl.utils import get_column_letter

from league.models import Club, Season
from league.standings import RULE_TEXT, standings
from protocol import services
from protocol.models import Event, Match
from protocol.rules import evaluate
from protocol.rules.chaotentrumpf.partie import ENDED_BY

LANGUAGE = "de"  # the club's document, like the engine's own texts (trump names, how it ended)
CHUNK = 200  # Partien fetched from the database at a time

DATE = "DD.MM.YYYY"
INTEGER = "#,##0"
SIGNED = "#,##0;[Red]-#,##0"  # negative scores in red
TEXT = None  # no number format

HEADER_FONT = Font(bold=True, color="FFFFFF")
HEADER_FILL = PatternFill("solid", fgColor="1A5C3C")  # the site's felt green
HEADER_ALIGNMENT = Alignment(vertical="top", wrap_text=True)


@dataclass(frozen=True)
class Column:
    header: str
    width: float
    number_format: str | None = TEXT


class Sheet:
    """A write-only worksheet: header first, then rows, then :meth:`close` sets the filter."""

    def __init__(self, workbook: Workbook, title: str, columns: list[Column]):
        self.ws = workbook.create_sheet(title)
        self.columns = columns
        for index, column in enumerate(columns, start=1):  # before the first row (write-only)
            self.ws.column_dimensions[get_column_letter(index)].width = column.width
        self.ws.freeze_panes = "A2"
        header = []
        for column in columns:
            cell = WriteOnlyCell(self.ws, column.header)
            cell.font, cell.fill, cell.alignment = HEADER_FONT, HEADER_FILL, HEADER_ALIGNMENT
            header.append(cell)
        self.ws.append(header)
        self.rows = 0

    def append(self, values) -> None:
        cells = []
        for column, value in zip(self.columns, values, strict=True):
            cell = WriteOnlyCell(self.ws, value)
            if column.number_format and value is not None:
                cell.number_format = column.number_format
            cells.append(cell)
        self.ws.append(cells)
        self.rows += 1

    def note(self, text: str) -> None:
        """A line of text below the data (after an empty row), outside the filter."""
        self.close()
        self.ws.append([])
        cell = WriteOnlyCell(self.ws, text)
        cell.font = Font(italic=True)
        self.ws.append([cell])

    def close(self) -> None:
        if self.ws.auto_filter.ref is None:
            last = get_column_letter(len(self.columns))
            self.ws.auto_filter.ref = f"A1:{last}{self.rows + 1}"


# -- the sheets ---------------------------------------------------------------------------

def _table_sheet(workbook: Workbook, club: Club, season: Season | None) -> None:
    sheet = Sheet(workbook, _("Table"), [
        Column(_("Rank"), 7, INTEGER),
        Column(_("Member"), 22),
        Column(_("Matches"), 9, INTEGER),
        Column(pgettext("matches", "Won"), 8, INTEGER),
        Column(_("Games"), 8, INTEGER),
        Column(pgettext("score", "Points"), 10, SIGNED),
        Column(_("Points per game × 100"), 13, SIGNED),
        Column(_("Tie-breaks"), 9, INTEGER),
        Column(_("Tie-breaks won"), 11, INTEGER),
        Column(_("Penalties"), 9, INTEGER),
        Column(_("Penalty points"), 11, INTEGER),
        Column(_("Warnings"), 13, INTEGER),
        Column(_("Disqualifications"), 18, INTEGER),
    ])
    rule = season.ranking_rule if season else Season.RankingRule.WINS_THEN_PPG
    for row in standings(club, season):
        sheet.append([row.rank, row.name, row.played, row.won, row.games, row.points, row.ppg,
                      row.tiebreaks, row.tiebreaks_won, row.penalties, row.penalty_points,
                      row.warnings, row.disqualifications])
    sheet.note(f"{_season_line(club, season)} {RULE_TEXT[rule]}")


def _season_line(club: Club, season: Season | None) -> str:
    today = date_format(timezone.localdate(), "SHORT_DATE_FORMAT")
    if season is None:
        return _("%(club)s, all seasons, as of %(today)s.") % {"club": club.name, "today": today}
    return _("%(club)s, season %(season)s (%(start)s – %(end)s), as of %(today)s.") % {
        "club": club.name, "season": season.name, "today": today,
        "start": date_format(season.start, "SHORT_DATE_FORMAT"),
        "end": date_format(season.end, "SHORT_DATE_FORMAT")}


class MatchSheets:
    """The sheets Partien, Spiele and Strafen, filled one Partie at a time."""

    def __init__(self, workbook: Workbook):
        self.matches = Sheet(workbook, _("Matches"), [
            Column(_("No."), 7, INTEGER),
            Column(_("Date"), 11, DATE),
            Column(_("Place"), 24),
            Column(_("Season"), 10),
            Column(_("Players"), 36),
            Column(_("Scorekeeper"), 14),
            Column(_("Winner"), 14),
            Column(_("Status"), 11),
            Column(_("How it ended"), 40),
            Column(_("Games"), 8, INTEGER),
        ])
        self.games = Sheet(workbook, _("Games"), [
            Column(_("Match"), 8, INTEGER),
            Column(_("Date"), 11, DATE),
            Column(_("Game"), 7, INTEGER),
            Column(_("Stage"), 10),
            Column(_("Player"), 14),
            Column(_("Tricks"), 7, INTEGER),
            Column(_("Card points"), 8, INTEGER),
            Column(_("Trumps"), 8, INTEGER),
            Column(_("Trump"), 14),
            Column(_("Trump bonus"), 13),
            Column(_("Score"), 9, SIGNED),
            Column(_("Total"), 9, SIGNED),
            Column(_("Annulled"), 10),
        ])
        self.sanctions = Sheet(workbook, _("Penalties"), [
            Column(_("Match"), 8, INTEGER),
            Column(_("Date"), 11, DATE),
            Column(_("Player"), 14),
            Column(_("Kind"), 16),
            Column(_("Deduction"), 9, INTEGER),
            Column(_("After game"), 9, INTEGER),
            Column(_("Stage"), 10),
            Column(_("Reason"), 40),
            Column(_("Decided by"), 30),
        ])

    def add(self, match: Match) -> None:
        document = services.document(match)  # the protocol as stored: seats and events
        computed = evaluate(document).match
        status = Match.Status(match.status).label if match.status in Match.Status.values else match.status
        self.matches.append([
            match.pk, match.date, match.place or None, match.season.name if match.season else None,
            ", ".join(document["players"]), document["scorekeeper"], match.winner.name if match.winner else None,
            str(status), ENDED_BY.get(match.ended_by), match.game_count,
        ])
        if computed is None:  # a stored Partie the engine refuses (never saved so): no Spiele
            return
        yes, no = _("yes"), _("no")
        for game in computed.games:
            trump = game.trump.label if game.trump else ""
            annulled = yes if game.annulled else no
            for player in game.players:
                line = game.lines.get(player) if game.lines else None
                score = game.scores.get(player) if game.scores else None
                self.games.append([
                    match.pk, match.date, game.number, _stage(game.stage), player,
                    line.tricks if line else None, line.points if line else None,
                    line.trumps if line else None, trump or None,
                    (yes if score.trump_bonus else no) if score else None,
                    score.points if score else None, game.totals.get(player), annulled,
                ])
        for sanction in computed.sanctions:
            self.sanctions.append([
                match.pk, match.date, sanction.player, str(Event.Kind(sanction.kind).label),
                sanction.points, sanction.after_game, _stage(sanction.stage), sanction.reason,
                ", ".join(sanction.decided_by) or None,
            ])

    def close(self) -> None:
        for sheet in (self.matches, self.games, self.sanctions):
            sheet.close()


def _stage(depth: int) -> str:
    return _("Match") if depth == 0 else _("Tie-break %(n)s") % {"n": depth}


# -- the workbooks --------------------------------------------------------------------------

def _matches(queryset):
    """The Partien in date order, streamed from the database in chunks.

    Seats and events are read per Partie by the engine's ``document`` rather than
    prefetched per chunk: prefetching ties each Partie and its rows in reference cycles
    that only the cyclic garbage collector frees, and memory rose with the season until it
    ran; read this way, each Partie is freed as soon as its rows are written."""
    return (queryset.select_related("club", "season", "winner").order_by("date", "pk")
            .iterator(chunk_size=CHUNK))


def _workbook(title: str) -> Workbook:
    workbook = Workbook(write_only=True)
    workbook.properties.title = title
    workbook.properties.creator = "Trumpfbuch"
    return workbook


def write_season(club: Club, season: Season | None, target: str | BinaryIO) -> None:
    """The season's workbook (with ``season=None``: all Partien and the all-time table)."""
    with translation.override(LANGUAGE):
        workbook = _workbook(f"{club.name} – {season.name if season else _('all seasons')}")
        _table_sheet(workbook, club, season)
        sheets = MatchSheets(workbook)
        matches = Match.objects.filter(club=club)
        if season is not None:
            matches = matches.filter(season=season)
        for match in _matches(matches):
            sheets.add(match)
        sheets.close()
        workbook.save(target)


def write_match(match: Match, target: str | BinaryIO) -> None:
    """One Partie's workbook: the sheets Partien, Spiele and Strafen."""
    with translation.override(LANGUAGE):
        workbook = _workbook(f"{match.club.name} – {_('Match')} {match.pk}")
        sheets = MatchSheets(workbook)
        for one in _matches(Match.objects.filter(pk=match.pk)):
            sheets.add(one)
        sheets.close()
        workbook.save(target)


def season_xlsx(club: Club, season: Season | None) -> bytes:
    buffer = io.BytesIO()
    write_season(club, season, buffer)
    return buffer.getvalue()


def match_xlsx(match: Match) -> bytes:
    buffer = io.BytesIO()
    write_match(match, buffer)
    return buffer.getvalue()


def filename(club: Club, season: Season | None = None, match: Match | None = None) -> str:
    """``ctv-saison-2026.xlsx``, ``ctv-alle-saisons.xlsx``, ``ctv-partie-17.xlsx``."""
    from django.utils.text import slugify

    if match is not None:
        part = f"partie-{match.pk}"
    elif season is not None:
        part = f"saison-{slugify(season.name) or season.pk}"
    else:
        part = "alle-saisons"
    return f"{club.slug}-{part}.xlsx"

