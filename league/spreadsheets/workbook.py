"""Reading a season workbook (the layout ``league.spreadsheets.exports`` writes) for ``league.spreadsheets.imports``.

Vocabulary:

- *Sheet*, *Row*: a worksheet found by its title, and its rows; columns are found by their
  headers (German as exported, English too), wherever they stand.
- *Vocabulary*: the export's sheet titles, headers and words in every language the site
  speaks, so that a workbook is read in the language it was written in.
- *Game*: each Partie's game, as its Partien row names it (``Spielart``); its Spiele are read
  back where the rows hold what they record (:func:`readable`), its columns asked of the registry.
- *Problem*: what keeps the workbook out, with its sheet, row and column and a German
  sentence; *Problems* collects them all.
- Cell readers (``_integer``, ``_day``, ``_yes_no`` ...) accept what spreadsheets make of
  numbers and dates (text, floats, Excel serial days) and give None for anything else.
"""

from __future__ import annotations

import datetime
import io
import re
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO

from django.conf import settings as django_settings
from django.utils import translation
from django.utils.translation import gettext as _
from openpyxl import load_workbook
from openpyxl.utils import get_column_letter
from openpyxl.utils.datetime import from_excel

from league.spreadsheets import exports
from league.spreadsheets.archive import (  # noqa: F401 - WorkbookUnreadable: what the callers catch
    WORKBOOK_LIMITS,
    Limits,
    WorkbookTooLarge,
    WorkbookUnreadable,
    check_archive,
    megabytes,
    refusal,
)
from league.standings.ranking import RULE_TEXT
from protocol import games as protocol_games
from protocol.models import Event, Match
from protocol.rules import RULESETS
from protocol.rules.base import Problems
from protocol.rules.text import normalise

ECHO_MAX = 60  # characters of a cell's text a message repeats
NOTES_MAX = 20  # notes listed; the rest are counted
PROBLEMS_MAX = 500  # problems listed; the rest are counted (a page of them is plenty to fix the workbook)
MESSAGE_MAX = 600  # no message is longer, whatever a cell holds
SHEET_ORDER = ("matches", "games", "sanctions", "table")


def _games_columns() -> list:
    """The Spiele sheets' columns of every game the registry lists now."""
    return [column for game in RULESETS for column in exports.game_columns(game)]


SHEET_COLUMNS = {"table": exports.table_columns, "matches": exports.match_columns,
                 "games": _games_columns, "sanctions": exports.sanction_columns}
REQUIRED = {  # and the Spiele sheet's lines of the games of its Partien (rebuild.check_games)
    "matches": ("number", "date", "players", "scorekeeper"),
    "games": ("match", "game", "player"),
    "sanctions": ("match", "player", "kind", "reason"),
    "table": ("name",),
}
GAME_FACTS = ("trump", "annulled", "selection", "inversions", "annul_reason")  # one value per Spiel
SANCTION_KINDS = ("penalty", "warning", "disqualification")
SANCTION_ARTICLES = {"penalty": "SV 3", "warning": "SV 2", "disqualification": "SV 3"}
DATE_FORMATS = ("%d.%m.%Y", "%Y-%m-%d", "%d.%m.%y", "%m/%d/%Y")
EXCEL_DAYS = (20_000, 80_000)  # a date cell that lost its format: 1954 to 2119

END = re.compile(r"^(?P<reason>.*?)\s*(?:\((?P<word>[^()\d]+?)\s*(?P<entry>\d+)\))?$")


@dataclass(frozen=True)
class Problem:
    """Something that keeps the workbook out, and where it is (sheet, row, column letter)."""

    sheet: str = ""
    row: int | None = None
    column: str = ""
    header: str = ""
    message: str = ""
    order: tuple = field(default=(), compare=False, repr=False)

    @property
    def place(self) -> str:
        """"Spiele, Zeile 17, Spalte K (Punkte)" (as much of it as is known)."""
        values = {"sheet": self.sheet, "row": self.row, "column": self.column, "header": self.header}
        if self.row and self.column:
            return _("%(sheet)s, row %(row)s, column %(column)s (%(header)s)") % values
        if self.column:
            return _("%(sheet)s, column %(column)s (%(header)s)") % values
        if self.row:
            return _("%(sheet)s, row %(row)s") % values
        return self.sheet

    def __str__(self) -> str:
        return f"{self.place}: {self.message}" if self.place else self.message


@dataclass
class Report:
    """What an import did, or in a dry run would do; nothing is saved while ``problems`` has any."""

    dry_run: bool
    problems: list[Problem] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    matches: int = 0
    games: int = 0
    sanctions: int = 0
    seasons: dict[str, int] = field(default_factory=dict)  # season name ("" for none) -> Partien
    new_seasons: list[str] = field(default_factory=list)
    new_members: list[str] = field(default_factory=list)
    saved: bool = False

    @property
    def ok(self) -> bool:
        return not self.problems

    def summary(self) -> list[str]:
        """The report as lines of German text (the command prints them)."""
        seasons = ", ".join(f"{name or _('without a season')}: {count}" for name, count in self.seasons.items())
        lines = [_("Matches: %(n)s (%(seasons)s)") % {"n": self.matches, "seasons": seasons or "–"},
                 _("Games: %(n)s") % {"n": self.games},
                 _("Penalties, warnings, disqualifications: %(n)s") % {"n": self.sanctions}]
        if self.new_seasons:
            lines.append(_("New seasons: %(names)s") % {"names": "; ".join(self.new_seasons)})
        if self.new_members:
            lines.append(_("New members: %(names)s.") % {"names": ", ".join(self.new_members)})
        return lines + self.notes


# -- the workbook's words ------------------------------------------------------------------

def _norm(value: Any) -> str:
    return " ".join(str(value).split()).casefold()


@dataclass
class Vocabulary:
    """The workbook's words in every language of the site; messages name the export's (German)."""

    sheets: dict[str, str] = field(default_factory=dict)  # title -> sheet key
    headers: dict[str, dict[str, str]] = field(default_factory=lambda: defaultdict(dict))  # header -> column key
    titles: dict[str, str] = field(default_factory=dict)  # sheet key -> title
    names: dict[str, dict[str, str]] = field(default_factory=dict)  # sheet key -> column key -> header
    kinds: dict[str, str] = field(default_factory=dict)  # "strafe" -> "penalty"
    yes: set[str] = field(default_factory=set)
    no: set[str] = field(default_factory=set)
    settings: dict[str, str] = field(default_factory=dict)  # "obergrenze" -> "limit"
    entry: set[str] = field(default_factory=set)
    status: dict[str, list[str]] = field(default_factory=lambda: defaultdict(list))
    stages: dict[int, list[str]] = field(default_factory=lambda: defaultdict(list))
    season_lines: list[re.Pattern] = field(default_factory=list)
    all_seasons_lines: list[re.Pattern] = field(default_factory=list)
    rules: dict[str, str] = field(default_factory=dict)  # rule text -> ranking rule
    games: dict[str, str] = field(default_factory=dict)  # a game's name or key -> its key
    example: str = ""

    def stage(self, depth: int) -> list[str]:
        if depth not in self.stages:
            for code in _languages():
                with translation.override(code):
                    self.stages[depth].append(exports.stage_label(depth))
        return self.stages[depth]


def _languages() -> list[str]:
    """The export's language first: where two languages use a word differently, it wins."""
    return [exports.LANGUAGE] + [code for code, _name in django_settings.LANGUAGES if code != exports.LANGUAGE]


def _sheet_titles() -> dict[str, str]:
    return {"table": _("Table"), "matches": _("Matches"), "games": _("Games"), "sanctions": _("Penalties")}


def _line_pattern(template: str) -> re.Pattern:
    """A regular expression for a line the export writes with ``template`` % values."""
    pattern = re.escape(template)
    for name in ("club", "season", "start", "end", "today"):
        pattern = pattern.replace(re.escape(f"%({name})s"), f"(?P<{name}>.+?)")
    return re.compile(rf"^{pattern}(?:\s+(?P<rule>.*))?$", re.DOTALL)


def vocabulary() -> Vocabulary:
    words = Vocabulary()
    for code in _languages():
        with translation.override(code):
            for key, title in _sheet_titles().items():
                words.sheets.setdefault(_norm(title), key)
            for game in filter(readable, RULESETS):  # a workbook of several games: "Spiele <Spielart>"
                words.sheets.setdefault(_norm(exports.game_sheet_title(game, several=True)), "games")
            for key, columns in SHEET_COLUMNS.items():
                for column in columns():
                    words.headers[key].setdefault(_norm(column.header), column.key)
            for kind in SANCTION_KINDS:
                words.kinds.setdefault(_norm(Event.Kind(kind).label), kind)
            words.yes.add(_norm(_("yes")))
            words.no.add(_norm(_("no")))
            for key, label in exports.setting_labels().items():
                words.settings.setdefault(_norm(label), key)
            words.entry.add(_norm(_("Entry")))
            for status in Match.Status:
                words.status[status.value].append(str(status.label))
            words.season_lines.append(_line_pattern(
                _("%(club)s, season %(season)s (%(start)s – %(end)s), as of %(today)s.")))
            words.all_seasons_lines.append(_line_pattern(_("%(club)s, all seasons, as of %(today)s.")))
            for rule, text in RULE_TEXT.items():
                words.rules.setdefault(_norm(text), rule)
    words.games = {_norm(ruleset.name): key for key, ruleset in RULESETS.items()} | {key: key for key in RULESETS}
    words.kinds |= {kind: kind for kind in SANCTION_KINDS}
    words.settings |= {key: key for key in exports.setting_labels()}
    words.entry |= {"eintrag", "entry"}
    words.yes |= {"ja", "yes", "x", "1", "true", "wahr"}
    words.no |= {"nein", "no", "0", "false", "falsch"}
    with translation.override(exports.LANGUAGE):
        words.titles = _sheet_titles()
        words.names = {key: {c.key: c.header for c in columns()} for key, columns in SHEET_COLUMNS.items()}
        labels = exports.setting_labels()
        words.example = f"{labels['limit']}: 750{exports.SEPARATOR}{labels['decks']}: 2"
    return words


# -- the game of each Partie ----------------------------------------------------------------

def readable(game: str) -> bool:
    """Can a Partie of ``game`` be rebuilt from its Spiele rows? Where they hold what its Spiele
    record: each player's line (``Ruleset.line_fields``) and the Spiel's own facts in the
    game's notation (its plug-in's ``notation``). A game recording one body per deal is in
    the workbook with its scores only."""
    return bool(RULESETS[game].line_fields) and protocol_games.plugin(game).notation is not None


# -- reading the sheets --------------------------------------------------------------------

@dataclass
class Sheet:
    key: str
    title: str
    order: int
    columns: dict[str, int]  # column key -> index (0-based)
    headers: list[str]
    rows: list[Row] = field(default_factory=list)
    note: str = ""  # the Tabelle's line below the table

    def letter(self, key: str | None) -> str:
        return get_column_letter(self.columns[key] + 1) if key in self.columns else ""

    def header(self, key: str | None) -> str:
        return self.headers[self.columns[key]] if key in self.columns else ""


@dataclass
class Row:
    sheet: Sheet
    number: int  # as the spreadsheet shows it (the header is row 1)
    values: tuple

    def __getitem__(self, key: str) -> Any:
        """The cell of the column ``key``; None if empty (or the column is not there)."""
        index = self.sheet.columns.get(key)
        if index is None or index >= len(self.values):
            return None
        value = self.values[index]
        if isinstance(value, str):
            return normalise(value.strip()) or None  # every text in NFC (protocol.rules.text)
        return value


# -- the workbook's problems, kept in the rules' Problems (protocol.rules.base) at their cells --

def add_problem(problems: Problems, sheet: Sheet | None, row: int | None, key: str | None, message: str, *,
                header: str = "", title: str = "", rule: bool = False) -> None:
    """A problem of the workbook, at its sheet, row and column (each once); ``rule``: the
    engine's, dropped at a cell the importer could not read (it said so there)."""
    column = sheet.letter(key) if sheet else ""
    header = echo(header or (sheet.header(key) if sheet else ""))
    if len(message) > MESSAGE_MAX:
        message = message[:MESSAGE_MAX] + "…"
    problem = Problem(sheet.title if sheet else title, row, column, header, message,
                      order=(sheet.order if sheet else -1, row or 0, sheet.columns.get(key, -1) if sheet else -1))
    problems.keep(problem, (problem.sheet, row, column, message),
                  place=(sheet.key if sheet else title, row, column) if rule else None)


def cell_problem(problems: Problems, row: Row, key: str | None, message: str, *, rule: bool = False) -> None:
    add_problem(problems, row.sheet, row.number, key, message, rule=rule)


def unreadable(problems: Problems, row: Row, key: str, message: str | None = None) -> None:
    """The cell was left out of the document (what the engine then misses is not repeated)."""
    problems.unread.add((row.sheet.key, row.number, row.sheet.letter(key)))
    if message:
        cell_problem(problems, row, key, message)


def listed(problems: Problems) -> list[Problem]:
    """The problems in the order of the sheets; beyond PROBLEMS_MAX only their number."""
    found = sorted(problems.errors, key=lambda p: p.order)
    if len(found) <= PROBLEMS_MAX:
        return found
    more = Problem(message=_("… and %(n)s more problems.") % {"n": len(found) - PROBLEMS_MAX})
    return found[:PROBLEMS_MAX] + [more]


def _data(source: bytes | str | Path | BinaryIO) -> bytes:
    if isinstance(source, (str, Path)):
        try:
            return Path(source).read_bytes()
        except OSError as exc:
            raise WorkbookUnreadable(_("The file %(name)s can't be read: %(why)s.")
                                     % {"name": source, "why": exc.strerror or exc}) from exc
    return source if isinstance(source, bytes) else source.read()


def _open(data: bytes, limits: Limits):
    """The workbook in openpyxl's read-only mode (cached values of formulas, not formulas)."""
    check_archive(data, limits)
    try:
        return load_workbook(io.BytesIO(data), read_only=True, data_only=True)
    except Exception as exc:  # openpyxl raises many kinds on a damaged file; none may become a 500
        raise WorkbookUnreadable(_("The file is not an Excel workbook (.xlsx) that can be read.")) from exc


def echo(text: Any) -> str:
    """A cell's text as a message repeats it: at most ECHO_MAX characters."""
    text = str(text)
    return text if len(text) <= ECHO_MAX else text[:ECHO_MAX] + "…"


def _is_blank(values: tuple) -> bool:
    return all(v is None or (isinstance(v, str) and not v.strip()) for v in values)


class _Count:
    """The cells read so far, of all sheets (Limits.cells)."""

    def __init__(self):
        self.cells = 0


def _too_large(title: str, what: str, limits: Limits) -> WorkbookTooLarge:
    return WorkbookTooLarge(refusal(_("The sheet “%(sheet)s” is too large: %(what)s.")
                                     % {"sheet": echo(title), "what": what}, limits))


def _stated_size(worksheet, key: str, limits: Limits) -> None:
    """Refuse a sheet whose stated size (its dimension) is beyond the limits, before reading it."""
    try:
        rows, columns = worksheet.max_row or 0, worksheet.max_column or 0
    except Exception:  # no or a damaged dimension: counted while reading
        return
    if rows - 1 > limits.rows_of(key) or columns > limits.columns or rows * columns > limits.cells:
        raise _too_large(worksheet.title, _("%(rows)s rows × %(columns)s columns; at most %(most)s rows and "
                                            "%(most_columns)s columns are read")
                         % {"rows": _number(rows), "columns": _number(columns), "most": _number(limits.rows_of(key)),
                            "most_columns": limits.columns}, limits)


def _number(n: int) -> str:
    return f"{n:,}".replace(",", ".")


def _counted(worksheet, key: str, limits: Limits, count: _Count):
    """The sheet's rows as read, refused as soon as one is beyond the limits (a stated size
    may be missing or wrong, so every row is counted)."""
    for number, values in enumerate(worksheet.iter_rows(values_only=True), start=1):
        values = values or ()
        count.cells += len(values)
        if number - 1 > limits.rows_of(key):
            raise _too_large(worksheet.title, _("more than %(most)s rows") % {"most": _number(limits.rows_of(key))},
                             limits)
        if len(values) > limits.columns and any(v is not None for v in values[limits.columns:]):
            raise _too_large(worksheet.title, _("row %(row)s has more than %(most)s columns")
                             % {"row": number, "most": limits.columns}, limits)
        if count.cells > limits.cells:
            raise _too_large(worksheet.title, _("more than %(most)s cells in the workbook")
                             % {"most": _number(limits.cells)}, limits)
        yield values


def _read_sheet(worksheet, key: str, words: Vocabulary, problems: Problems, notes: list[str], limits: Limits,
                count: _Count) -> Sheet | None:
    title = worksheet.title
    _stated_size(worksheet, key, limits)
    if hasattr(worksheet, "reset_dimensions"):
        worksheet.reset_dimensions()  # a stated size may be wrong: read every row there is (counted)
    rows = _counted(worksheet, key, limits, count)
    header = next(rows, None)
    if header is None or _is_blank(header):
        add_problem(problems, None, 1, None, _("The sheet is empty; its first row must hold the column headers."), title=title)
        return None
    sheet = Sheet(key, title, SHEET_ORDER.index(key), {}, [_text(value) for value in header])
    for index, text in enumerate(sheet.headers):
        column = words.headers[key].get(_norm(text)) if text else None
        if text and column is None:
            notes.append(_("%(sheet)s, column %(column)s (%(header)s) is not read.")
                         % {"sheet": echo(title), "column": get_column_letter(index + 1), "header": echo(text)})
        elif column in sheet.columns:
            add_problem(problems, sheet, 1, None, _("The column “%(header)s” appears twice (also column %(other)s).")
                         % {"header": echo(text), "other": sheet.letter(column)}, header=text)
        elif column:
            sheet.columns[column] = index
    for column in REQUIRED[key]:
        if column not in sheet.columns:
            add_problem(problems, sheet, 1, None, _("The column “%(header)s” is missing.")
                         % {"header": words.names[key][column]})
    below_table = False
    for number, values in enumerate(rows, start=2):
        if _is_blank(values):
            below_table = key == "table"  # the table ends at its first empty row, its note follows
            continue
        if below_table:
            sheet.note = sheet.note or next((v for v in values if isinstance(v, str) and v.strip()), "")
            continue
        sheet.rows.append(Row(sheet, number, values))
    return sheet


def read_workbook(source: bytes | str | Path | BinaryIO, words: Vocabulary, problems: Problems,
                  notes: list[str], limits: Limits = WORKBOOK_LIMITS) -> dict[str, Sheet]:
    """The sheets found by title (key -> Sheet); problems for missing sheets and columns.

    Raises WorkbookUnreadable for a file that is no .xlsx workbook, WorkbookTooLarge (a
    kind of it) for one beyond ``limits``. At most NOTES_MAX notes are added."""
    book = _open(_data(source), limits)
    sheets: dict[str, Sheet] = {}
    present = set()
    found_notes: list[str] = []
    count = _Count()
    try:
        for worksheet in book.worksheets:
            key = words.sheets.get(_norm(worksheet.title))
            if key is None:
                found_notes.append(_("The sheet “%(sheet)s” is not read.") % {"sheet": echo(worksheet.title)})
            elif key in present:
                add_problem(problems, None, None, None, _("The sheet “%(sheet)s” appears twice.")
                             % {"sheet": echo(worksheet.title)}, title=echo(worksheet.title))
            else:
                present.add(key)
                sheet = _read_sheet(worksheet, key, words, problems, found_notes, limits, count)
                if sheet is not None:
                    sheets[key] = sheet
        found = ", ".join(echo(name) for name in book.sheetnames[:NOTES_MAX]) or "–"
    except WorkbookTooLarge:
        raise
    except Exception as exc:  # a damaged sheet inside a readable archive; none may become a 500
        raise WorkbookUnreadable(_("The workbook is damaged and can't be read.")) from exc
    finally:
        book.close()
    notes += found_notes[:NOTES_MAX]
    if len(found_notes) > NOTES_MAX:
        notes.append(_("… and %(n)s more notes of this kind.") % {"n": len(found_notes) - NOTES_MAX})
    for key in ("matches", "games", "sanctions"):
        if key not in present:
            add_problem(problems, None, None, None, _("The sheet “%(sheet)s” is missing (the workbook has: %(found)s).")
                         % {"sheet": words.titles[key], "found": found})
    return sheets


# -- cells ----------------------------------------------------------------------------------

def _text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, datetime.datetime):
        return f"{value:%d.%m.%Y}"
    return str(value).strip()


def _integer(value: Any) -> int | None:
    """A whole number from a cell: 3, 3.0, "3", "-200", "−200"; None for anything else."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str):
        text = value.strip().replace("\u2212", "-")
        if re.fullmatch(r"[+-]?\d{1,9}", text):
            return int(text)
    return None


def _day(value: Any) -> datetime.date | None:
    if isinstance(value, datetime.datetime):
        return value.date()
    if isinstance(value, datetime.date):
        return value
    if isinstance(value, (int, float)) and not isinstance(value, bool) and EXCEL_DAYS[0] <= value <= EXCEL_DAYS[1]:
        return from_excel(value).date()
    if isinstance(value, str):
        for pattern in DATE_FORMATS:
            try:
                return datetime.datetime.strptime(value.strip(), pattern).date()
            except ValueError:
                continue
    return None


def _yes_no(value: Any, words: Vocabulary) -> bool | None:
    """True or False; None if the cell says neither."""
    if isinstance(value, bool):
        return value
    if value is None:
        return False
    text = _norm(_text(value))
    return True if text in words.yes else False if text in words.no else None


def _shown(value: Any) -> str:
    if value is None or value == "":
        return "–"
    if isinstance(value, (datetime.date, datetime.datetime)):
        return f"{value:%d.%m.%Y}"
    return echo(_text(value))
