"""The season as a spreadsheet (.xlsx, openpyxl) for the club's annual meeting.

One workbook, four sheets, German headers:

- ``Tabelle``: the standings as the site shows them, the ranking rule underneath;
- ``Partien``: one row per Partie (date, place, players, winner, how it ended, Spiele; its
  result "vorläufig" within the club's correction window, then "endgültig");
- ``Spiele``: one row per player per Spiel, as the rules engine computes it from the
  recorded facts: the columns every game has (score, running total, annulled) and the game's
  own, which its plug-in names (``Plugin.workbook_columns``: tricks, card points, trumps,
  trump ... where the game records them; a Spiel recorded as points only has its Punkte and
  "nur Punkte" in those columns, ``protocol.plugin.POINTS_ONLY``). A workbook holding Partien
  of several games (a club's, across seasons) has one Spiele sheet per game, named after it
  like the tables ("Spiele <Spielart>"), so that each game's columns stand only above its own rows;
- ``Strafen``: every Strafe, Verwarnung and Disqualifikation.

The workbook is a complete record where a game's columns hold what its Spiele record:
``league.spreadsheets.imports`` rebuilds those Partien from it (and names the others). The
facts the columns above leave out come last in their sheets, each in a notation a reader
understands and :mod:`league.spreadsheets.imports` reads back:

- Partien ``Vereinbarungen``: the settings that differ from the Regelwerk
  ("Obergrenze: 750; Blätter: 2"), empty when the table played by the rules;
  ``Ende``: an end recorded by time or agreement and its entry in the protocol
  ("Zeitbegrenzung (Eintrag 14)"); ``Grund der Annullierung`` of the Partie;
- Spiele: the facts of a Spiel the game's own columns write in its notation (the Trumpfwahl
  "X8 H8 P7", inversions "Herz → Pik (Bernd, Normalinversion)"); ``Grund der Annullierung``;
- Strafen ``Eintrag``: the entry of the protocol it is (its place among the Spiele).

Every column has a ``key``: the importer finds a column by its header, whatever its
position, and knows it by the key.

Cells carry real types (dates are dates, numbers are numbers) with number formats; each
sheet has a bold, frozen header row, an autofilter and fixed column widths.

The workbook is written in openpyxl's write-only mode, Partie by Partie: the matches are
read in chunks (``.iterator``), each is evaluated by the engine once and its rows are
streamed to disk, so memory stays flat however large the season. ``write_*`` write to a
path or binary file; ``*_xlsx`` return the bytes.
"""

from __future__ import annotations

import datetime
import io
import re
from itertools import islice
from typing import BinaryIO

from django.utils import timezone, translation
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, pgettext
from openpyxl import Workbook
from openpyxl.cell import WriteOnlyCell
from openpyxl.cell.cell import ERROR_CODES, Cell
from openpyxl.styles import Alignment, Font, PatternFill
from openpyxl.styles.numbers import is_date_format
from openpyxl.utils import get_column_letter

from league.models import Club, Season
from league.ratings.lists import rating_rows
from league.ratings.models import Rating
from league.registry import correction_window
from league.standings import games
from league.standings.ranking import RULE_TEXT, TOURNAMENT_RULES, standings
from protocol import confirmations, reading
from protocol import games as protocol_games
from protocol.models import Event, Match, Seat
from protocol.plugin import DATE, INTEGER, SIGNED, Column
from protocol.rules import RULESETS

LANGUAGE = "de"  # the club's document, like the engine's own texts (trump names, how it ended)
CHUNK = 200  # Partien fetched from the database at a time
TEXTS_KEPT = 4096  # texts a sheet keeps as written (names, stages, trumps, yes/no), memory stays flat

HEADER_FONT = Font(bold=True, color="FFFFFF")
HEADER_FILL = PatternFill("solid", fgColor="1A5C3C")  # the site's felt green
HEADER_ALIGNMENT = Alignment(vertical="top", wrap_text=True)


# What a spreadsheet cannot hold (XML 1.0 and openpyxl refuse it): control characters but tab
# and line breaks, lone surrogates, U+FFFE/U+FFFF. The site refuses them on entry
# (protocol.rules.text); what older data still has is left out here so that an export never
# fails, and ``manage.py check_texts`` lists it for the secretary to correct.
UNWRITABLE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
# A text starting with one of these would be a formula (or be read as one when edited).
FORMULA_PREFIXES = ("=", "+", "-", "@")


def writable(text: str) -> str:
    """The text without the characters a spreadsheet cannot hold."""
    return UNWRITABLE.sub("", text)


def cell(ws, value) -> WriteOnlyCell:
    """A cell of ``value``; a text is always a text cell: "=1+1" or a reason
    '=HYPERLINK(...)' is shown as written, never run as a formula."""
    if not isinstance(value, str):
        return WriteOnlyCell(ws, value)
    value = writable(value)
    written = WriteOnlyCell(ws, value)
    written.data_type = "s"  # openpyxl would make "=..." a formula and "#N/A" an error
    if value.startswith(FORMULA_PREFIXES):
        written.quotePrefix = True  # and stays text when edited in Excel or LibreOffice
    return written


def text(ws, value: str):
    """A text as written: the text itself where openpyxl keeps it a text, else a text
    :func:`cell` ("=..." a formula, "#N/A" an error, "+"/"-"/"@" first a formula when edited)."""
    value = writable(value)
    if value.startswith(FORMULA_PREFIXES) or value in ERROR_CODES:
        return cell(ws, value)
    return value


class _KeptCell(Cell):
    """The cell a column keeps for its values with a number format (:class:`Sheet`).

    openpyxl's write-only append first tries every value as the value of a cell of its own and
    takes a cell it is given from the ValueError that raises, whose message names the cell by
    its repr (sheet title and coordinate, worked out for nothing): a short repr spares that
    work for every formatted value written. The file is the same."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "<Cell>"


# The data type openpyxl gives a value of these types, with nothing else to check or change
# (Cell._bind_value): bound so directly. Dates too in a column of a date format.
NUMBER_TYPES = {int: "n", float: "n"}
DATE_TYPES = NUMBER_TYPES | {datetime.date: "d", datetime.datetime: "d"}


class Sheet:
    """A write-only worksheet: header first, then rows, then :meth:`close` sets the filter.

    A row is written as its values where openpyxl needs no cell (a text, a number without a
    number format, nothing), else as the one cell its column keeps for values with its number
    format (one style per number format), its value set for the row: openpyxl writes a
    write-only row as it is appended, so the cell is free again for the next row. A cell and
    a style per value took as long as openpyxl's own writing of the row. The kept cell is
    given its value directly where openpyxl's setter would only set the data type
    (:data:`NUMBER_TYPES`), and not at all when the row repeats the value of the row before
    (the Partie's number and date on each of its Spiele rows)."""

    def __init__(self, workbook: Workbook, title: str, columns: list[Column]):
        self.ws = workbook.create_sheet(title)
        self.columns = columns
        styles: dict[str, object] = {}  # number format -> the style of a cell with it
        self.formatted = [self._formatted(column.number_format, styles) for column in columns]
        for index, column in enumerate(columns, start=1):  # before the first row (write-only)
            self.ws.column_dimensions[get_column_letter(index)].width = column.width
        self.ws.freeze_panes = "A2"
        header = []
        for column in columns:
            title = cell(self.ws, column.header)
            title.font, title.fill, title.alignment = HEADER_FONT, HEADER_FILL, HEADER_ALIGNMENT
            header.append(title)
        self.ws.append(header)
        self.rows = 0
        self.texts: dict[str, str] = {}  # a text -> as written, for the texts rows repeat

    def append(self, values) -> None:
        row = []
        add, texts = row.append, self.texts
        for (formatted, types), value in zip(self.formatted, values, strict=True):
            if value is None:
                add(None)
            elif isinstance(value, str):
                written = texts.get(value)
                if written is None:
                    written = text(self.ws, value)
                    if isinstance(written, str) and len(texts) < TEXTS_KEPT:  # a cell is written once
                        texts[value] = written
                add(written)
            elif formatted is None:
                add(value)
            else:
                if formatted._value is not value:  # the same value still holds its data type
                    data_type = types.get(type(value))
                    if data_type is None:
                        formatted.value = value  # openpyxl's setter: what it checks and converts
                    else:
                        formatted._value, formatted.data_type = value, data_type
                add(formatted)
        self.ws.append(row)
        self.rows += 1

    def _formatted(self, number_format: str | None, styles: dict) -> tuple[_KeptCell | None, dict]:
        """The cell a column writes its values in, with its number format (None: no format),
        and the types its values are bound directly."""
        if not number_format:
            return None, {}
        written = _KeptCell(self.ws, row=1, column=1)
        if number_format in styles:  # shared: the style of a written cell never changes
            written._style = styles[number_format]
        else:
            written.number_format = number_format
            styles[number_format] = written._style
        return written, DATE_TYPES if is_date_format(number_format) else NUMBER_TYPES

    def note(self, text: str) -> None:
        """A line of text below the data (after an empty row), outside the filter."""
        self.close()
        self.ws.append([])
        line = cell(self.ws, text)
        line.font = Font(italic=True)
        self.ws.append([line])

    def close(self) -> None:
        if self.ws.auto_filter.ref is None:
            last = get_column_letter(len(self.columns))
            self.ws.auto_filter.ref = f"A1:{last}{self.rows + 1}"


# -- the sheets ---------------------------------------------------------------------------

def table_columns() -> list[Column]:
    return [
        Column(_("Rank"), 7, INTEGER, "rank"),
        Column(_("Member"), 22, key="name"),
        Column(_("Matches"), 9, INTEGER, "played"),
        Column(pgettext("matches", "Won"), 8, INTEGER, "won"),
        Column(_("Games"), 8, INTEGER, "games"),
        Column(pgettext("score", "Points"), 10, SIGNED, "points"),
        Column(_("Points per game × 100"), 13, SIGNED, "ppg"),
        Column(_("Tie-breaks"), 9, INTEGER, "tiebreaks"),
        Column(_("Tie-breaks won"), 11, INTEGER, "tiebreaks_won"),
        Column(_("Penalties"), 9, INTEGER, "penalties"),
        Column(_("Penalty points"), 11, INTEGER, "penalty_points"),
        Column(_("Warnings"), 13, INTEGER, "warnings"),
        Column(_("Disqualifications"), 18, INTEGER, "disqualifications"),
    ]


def tournament_column(rule: str) -> Column:
    """The score a tournament ranks by, after the other columns (TCG with one decimal)."""
    if rule == Season.RankingRule.TCG:
        return Column(_("TCG score"), 11, "#,##0.0;[Red]-#,##0.0", "tournament_score")
    return Column(_("FFT score"), 11, SIGNED, "tournament_score")


def _table_sheets(workbook: Workbook, club: Club, season: Season | None) -> None:
    """The season's table; for all seasons one table per game in play, since points of
    different games are never added up (the sheet is named after its game then)."""
    if season is not None:
        _table_sheet(workbook, club, season, None, _("Table"))
        return
    in_play = games.in_play(club) or [games.DEFAULT]
    for game in in_play:
        title = _("Table") if len(in_play) == 1 else f"{_('Table')} {games.name(game)}"[:31]
        _table_sheet(workbook, club, None, game, title)


def _table_sheet(workbook: Workbook, club: Club, season: Season | None, game: str | None, title: str) -> None:
    rule = season.ranking_rule if season else Season.RankingRule.WINS_THEN_PPG
    extra = [tournament_column(rule)] if rule in TOURNAMENT_RULES else []
    sheet = Sheet(workbook, title, table_columns() + extra)
    for row in standings(club, season, game=game):
        sheet.append([getattr(row, column.key) for column in sheet.columns])
    sheet.note(f"{_season_line(club, season)} {RULE_TEXT[rule]}")


def _rating_sheets(workbook: Workbook, club: Club, rated: list[str]) -> None:
    """The rating list of each game rated (league.ratings), last: "Wertung", or "Wertung <Spielart>"
    in a workbook of several games; a season's workbook has its game's. Guests only where the
    club shows their ratings."""
    lists = {game: rating_rows(club, game) for game in rated}
    lists = {game: rows for game, rows in lists.items() if rows}
    for game, rows in lists.items():
        title = _("Rating") if len(lists) == 1 else f"{_('Rating')} {games.name(game)}"[:31]
        sheet = Sheet(workbook, title, [Column(_("Rank"), 7, INTEGER, "rank"), Column(_("Member"), 22, key="name"),
                                        Column(_("Rating"), 9, INTEGER, "figure"),
                                        Column(_("Results"), 10, INTEGER, "games"),
                                        Column(_("provisional"), 10, key="provisional")])
        for row in rows:
            sheet.append([row["rank"], row["name"], row["figure"], row["games"], _("yes") if row["provisional"] else ""])
        sheet.note(_("%(club)s, ratings of all seasons, as of %(today)s.") % {
            "club": club.name, "today": date_format(timezone.localdate(), "SHORT_DATE_FORMAT")})


def _season_line(club: Club, season: Season | None) -> str:
    today = date_format(timezone.localdate(), "SHORT_DATE_FORMAT")
    if season is None:
        return _("%(club)s, all seasons, as of %(today)s.") % {"club": club.name, "today": today}
    return _("%(club)s, season %(season)s (%(start)s – %(end)s), as of %(today)s.") % {
        "club": club.name, "season": season.name, "today": today,
        "start": date_format(season.start, "SHORT_DATE_FORMAT"),
        "end": date_format(season.end, "SHORT_DATE_FORMAT")}


def match_columns() -> list[Column]:
    return [
        Column(_("No."), 7, INTEGER, "number"),
        Column(_("Date"), 11, DATE, "date"),
        Column(_("Place"), 24, key="place"),
        Column(_("Season"), 10, key="season"),
        Column(_("Players"), 36, key="players"),
        Column(_("Scorekeeper"), 14, key="scorekeeper"),
        Column(_("Winner"), 14, key="winner"),
        Column(_("Status"), 11, key="status"),
        Column(_("Result"), 11, key="finality"),
        Column(_("How it ended"), 40, key="ended_by"),
        Column(_("Games"), 8, INTEGER, "games"),
        Column(_("Agreements"), 30, key="agreements"),
        Column(_("End"), 24, key="end"),
        Column(_("Reason for the annulment"), 30, key="annul_reason"),
        Column(pgettext("card game", "Game"), 14, key="game"),
    ]


def game_columns(game: str) -> list[Column]:
    """The Spiele sheet of ``game``: the columns every game has and, before the scores and
    after "Annulliert", the game's own, asked of its plug-in now (a game installed since is
    seen; none: each player's score and total only)."""
    recorded, facts = protocol_games.plugin(game).workbook_columns()
    return [
        Column(_("Match"), 8, INTEGER, "match"),
        Column(_("Date"), 11, DATE, "date"),
        Column(_("Game"), 7, INTEGER, "game"),
        Column(_("Stage"), 10, key="stage"),
        Column(_("Player"), 14, key="player"),
        *recorded,
        Column(_("Score"), 9, SIGNED, "score"),
        Column(_("Total"), 9, SIGNED, "total"),
        Column(_("Annulled"), 10, key="annulled"),
        *facts,
        Column(_("Reason for the annulment"), 30, key="annul_reason"),
    ]


def game_sheet_title(game: str, several: bool) -> str:
    """"Spiele"; in a workbook of several games "Spiele <Spielart>" (a sheet's title has at most 31 characters)."""
    return f"{_('Games')} {games.name(game)}"[:31] if several else _("Games")


def sanction_columns() -> list[Column]:
    return [
        Column(_("Match"), 8, INTEGER, "match"),
        Column(_("Date"), 11, DATE, "date"),
        Column(_("Player"), 14, key="player"),
        Column(_("Kind"), 16, key="kind"),
        Column(_("Deduction"), 9, INTEGER, "points"),
        Column(_("After game"), 9, INTEGER, "after_game"),
        Column(_("Stage"), 10, key="stage"),
        Column(_("Reason"), 40, key="reason"),
        Column(_("Decided by"), 30, key="decided_by"),
        Column(_("Entry"), 8, INTEGER, "entry"),
    ]


class MatchSheets:
    """The sheets Partien, Spiele (one per game of ``in_workbook``) and Strafen, filled one
    Partie at a time."""

    def __init__(self, workbook: Workbook, in_workbook: list[str]):
        self.matches = Sheet(workbook, _("Matches"), match_columns())
        several = len(in_workbook) > 1
        self.games = {game: Sheet(workbook, game_sheet_title(game, several), game_columns(game))
                      for game in in_workbook}
        self.sanctions = Sheet(workbook, _("Penalties"), sanction_columns())
        self.stages: dict[int, str] = {}  # stage_label by depth, translated once
        self.finalities: dict[str, str] = {}  # provisional / final, translated once
        self.yes, self.no = _("yes"), _("no")  # whether a Spiel is annulled, translated once

    def finality(self, match: Match) -> str | None:
        """"vorläufig" within the club's correction window, then "endgültig" (a finished
        Partie; read with ``confirmed_by_all``, :func:`_matches`); nothing for another."""
        state = confirmations.finality(match)
        return self.finalities.setdefault(state, FINALITY_WORDS[state]()) if state else None

    def stage(self, depth: int) -> str:
        if depth not in self.stages:
            self.stages[depth] = stage_label(depth)
        return self.stages[depth]

    def add(self, match: Match, seats: list[tuple[str, bool]], events: list[dict],
            answers: reading.BulkReading) -> None:
        """One Partie's rows: ``seats`` (name, is the scorekeeper) and ``events`` as stored
        (:func:`_matches`), the engine's answer from ``answers`` (its kept state, else a replay
        of the document, not kept)."""
        document = reading.document(match, events, ordered=False, seats=seats)
        computed = answers.evaluation(match, document).match
        status = Match.Status(match.status).label if match.status in Match.Status.values else match.status
        self.matches.append([
            match.pk, match.date, match.place or None, match.season.name if match.season else None,
            ", ".join(document["players"]), document["scorekeeper"], match.winner.name if match.winner else None,
            str(status), self.finality(match), RULESETS[match.ruleset].ended_by_label(match.ended_by) or None,
            match.game_count,
            agreements_text(document["settings"], document["players"], match.ruleset) or None,
            end_text(document["events"], match.ruleset), annul_reason(document["events"]), games.name(match.ruleset),
        ])
        if computed is None:  # a stored Partie the engine refuses (never saved so): no Spiele
            return
        sheet, plugin = self.games[match.ruleset], protocol_games.plugin(match.ruleset)
        yes, no = self.yes, self.no
        for game in computed.games:
            annulled, stage, points = yes if game.annulled else no, self.stage(game.stage), game.points
            for player, recorded, facts in plugin.workbook_rows(computed, game):
                sheet.append([
                    match.pk, match.date, game.number, stage, player, *recorded,
                    points.get(player) if points else None, game.totals.get(player), annulled,
                    *facts, game.annul_reason or None,
                ])
        for sanction in computed.sanctions:
            self.sanctions.append([
                match.pk, match.date, sanction.player, str(Event.Kind(sanction.kind).label),
                sanction.points, sanction.after_game, self.stage(sanction.stage), sanction.reason,
                ", ".join(sanction.decided_by) or None, sanction.event + 1,
            ])

    def close(self) -> None:
        for sheet in (self.matches, *self.games.values(), self.sanctions):
            sheet.close()


# A finished Partie's result (league.registry.correction_window) in the workbook's words.
FINALITY_WORDS = {correction_window.PROVISIONAL: lambda: _("provisional"),
                  correction_window.FINAL: lambda: _("final")}


def stage_label(depth: int) -> str:
    return _("Match") if depth == 0 else _("Tie-break %(n)s") % {"n": depth}


# -- the notation of the facts the columns above leave out (league.spreadsheets.imports reads it back) --

SEPARATOR = "; "


def setting_labels() -> dict[str, str]:
    """The settings as the Spielprotokollblatt names them."""
    return {
        "limit": _("Upper limit"),
        "decks": _("Decks"),
        "cards_per_deal": _("Cards per deal"),
        "no_trump_points": _("No trump in tricks"),
        "no_trick_points": _("No trick"),
        "scorekeeper_skips_shuffling": _("Scorekeeper exempt from shuffling"),
        "max_games": _("Limited to games"),
    }


def agreements_text(settings: dict, players: list[str], game: str) -> str:
    """The settings that differ from the game's rules: "Obergrenze: 750; Blätter: 2" ("" if none)."""
    defaults = RULESETS[game].default_settings(players)
    values = defaults | {k: v for k, v in settings.items() if k in defaults}
    parts = []
    for key, label in setting_labels().items():
        if key not in defaults:
            continue
        value = values[key]
        if value != defaults[key]:
            if isinstance(value, bool):
                value = _("yes") if value else _("no")
            parts.append(f"{label}: {value}")
    return SEPARATOR.join(parts)


def end_text(events: list[dict], game: str) -> str | None:
    """An end recorded by time or agreement, as the game's rules name it, and its entry:
    "Zeitbegrenzung (Eintrag 14)"."""
    reasons = RULESETS[game].end_reasons
    for index, event in enumerate(events):
        if "end" in event:
            reason = event["end"].get("reason")
            return f"{reasons.get(reason, reason)} ({_('Entry')} {index + 1})"
    return None


def annul_reason(events: list[dict]) -> str | None:
    """Why the Partie was annulled (SV 4), if it was."""
    for event in events:
        if "annul_match" in event:
            return event["annul_match"].get("reason")
    return None


# -- the workbooks --------------------------------------------------------------------------

def _matches(queryset):
    """Each Partie in date order with its seats (name, is the scorekeeper), its events
    (``{kind: body}``) and the engine's answers of its chunk (``reading.BulkReading``).

    Three queries, whatever the number of Partien: the Partien, their seats and their events
    are each one statement in the same order, streamed from the database in chunks and
    walked side by side. Seats and events come as plain tuples, not prefetched models:
    prefetching ties each Partie and its rows in reference cycles that only the cyclic
    garbage collector frees, and memory rose with the season until it ran; read this way,
    each Partie is freed as soon as its rows are written. The kept states are read a chunk
    at a time (one cache read for 200 Partien)."""
    matches = (confirmations.with_confirmed_by_all(queryset).select_related("club", "season", "winner")
               .order_by("date", "pk").iterator(chunk_size=CHUNK))
    order = ("match__date", "match_id", "position")
    seats = _grouped(Seat.objects.filter(match__in=queryset).order_by(*order)
                     .values_list("match_id", "name", "is_scorekeeper").iterator(chunk_size=CHUNK * 8))
    events = _grouped(Event.objects.filter(match__in=queryset).order_by(*order)
                      .values_list("match_id", "kind", "data").iterator(chunk_size=CHUNK * 40))
    while chunk := list(islice(matches, CHUNK)):
        answers = reading.BulkReading(chunk)
        for match in chunk:
            yield (match, [(name, keeps) for name, keeps in seats.take(match.pk)],
                   [{kind: data} for kind, data in events.take(match.pk)], answers)


class _grouped:
    """Rows ``(match_id, *values)`` in the Partien's order, taken one Partie at a time."""

    def __init__(self, rows):
        self.rows, self.next = rows, next(rows, None)

    def take(self, match_id: int) -> list[tuple]:
        taken = []
        while self.next is not None and self.next[0] == match_id:
            taken.append(self.next[1:])
            self.next = next(self.rows, None)
        return taken


def _workbook(title: str) -> Workbook:
    workbook = Workbook(write_only=True)
    workbook.properties.title = writable(title)
    workbook.properties.creator = "Trumpfbuch"
    return workbook


def write_season(club: Club, season: Season | None, target: str | BinaryIO, progress=None) -> None:
    """The season's workbook (with ``season=None``: all Partien and the all-time table).

    ``progress(done, total, phase)``, when given, hears of every Partie written (a
    ``jobs.work.Progress`` or the command's terminal bar); the phase is an English message id."""
    progress = progress or (lambda done, total=None, phase=None: None)
    with translation.override(LANGUAGE):
        matches = Match.objects.filter(club=club)
        if season is not None:
            matches = matches.filter(season=season)
        total = matches.count()
        progress(0, total, gettext_noop("Computing the table"))
        workbook = _workbook(f"{club.name} – {season.name if season else _('all seasons')}")
        _table_sheets(workbook, club, season)
        in_workbook = games.ordered(matches.order_by().values_list("ruleset", flat=True).distinct())
        sheets = MatchSheets(workbook, in_workbook or [games.of_season(season) if season else games.DEFAULT])
        progress(0, total, gettext_noop("Writing the matches"))
        for done, (match, seats, events, answers) in enumerate(_matches(matches), 1):
            sheets.add(match, seats, events, answers)
            progress(done, total)
        progress(total, total, gettext_noop("Saving the workbook"))
        sheets.close()
        _rating_sheets(workbook, club, [games.of_season(season)] if season else games.ordered(
            Rating.objects.filter(club=club).values_list("game", flat=True).distinct()))
        workbook.save(target)


def write_match(match: Match, target: str | BinaryIO) -> None:
    """One Partie's workbook: the sheets Partien, Spiele and Strafen."""
    with translation.override(LANGUAGE):
        workbook = _workbook(f"{match.club.name} – {_('Match')} {match.pk}")
        sheets = MatchSheets(workbook, [match.ruleset])
        for one, seats, events, answers in _matches(Match.objects.filter(pk=match.pk)):
            sheets.add(one, seats, events, answers)
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

