"""A season workbook read back into a club: the layout ``league.exports`` writes.

Vocabulary:

- *Workbook*: the .xlsx of a season (or of all seasons, or of one Partie) with the sheets
  Tabelle, Partien, Spiele and Strafen. Sheets and columns are found by their titles and
  headers wherever they stand (German as exported; the English ones are read too); a column
  the importer does not know is left alone and named in the report.
- *Facts*: what the Protokollant recorded. The Spiele sheet is the source of truth for every
  Spiel (Stiche, Augen, Trümpfe, Trumpf, Aufgedeckte Karten, Inversionen, annulment);
  Partien holds each Partie's header (date, place, season, seating, Protokollant,
  Vereinbarungen, Ende, annulment), Strafen every SV entry and its place in the protocol
  (``Eintrag``, else after the Spiel it names).
- *Computed columns*: Punkte, Stand, Trumpfwertung, Stufe, Nach Spiel, Sieger, Status,
  Ausgang, the number of Spiele and the whole Tabelle. The rules engine computes them from
  the facts and each cell is cross-checked: a cell that states another value is a problem,
  an empty cell states nothing.
- *Problem*: what keeps the workbook out, with its sheet, row and column and a German
  sentence (for a broken rule the engine's own, naming the article).
- *Dry run*: the whole import, then rolled back; the report says what would be created. An
  import is one transaction: every Partie or none.

Each Partie becomes a ``protocol/1`` document and goes in through
:func:`protocol.transfer.import_document`, like a protocol file: the engine checks it and a
player no member of the club is called becomes a new member. A season the workbook names
and the club lacks is created (its dates from the Tabelle's note line, else the calendar
year its name is, else its first to its last Partie). A Partie the club has already (same
date, seating, Spiele and totals) is a problem, so a season can't come in twice.

The workbook's own limits: a player whose name contains a comma can't be told apart in
the Spieler column, and a workbook without the ``Eintrag`` column places an end by time
after everything recorded (right for every Partie whose end opened no Stechen).
"""

from __future__ import annotations

import datetime
import io
import re
import zipfile
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO

from django.conf import settings as django_settings
from django.db import transaction
from django.db.models import Count
from django.utils import translation
from django.utils.translation import gettext as _
from openpyxl import load_workbook
from openpyxl.utils import get_column_letter
from openpyxl.utils.datetime import from_excel

from league import exports
from league.models import Club, Season
from league.standings import RULE_TEXT, standings
from protocol import services
from protocol.models import Event, Match
from protocol.rules import RuleError, evaluate
from protocol.rules.chaotentrumpf.cards import deck
from protocol.rules.chaotentrumpf.inversion import KIND_NAMES
from protocol.rules.chaotentrumpf.partie import ENDED_BY, END_REASONS
from protocol.rules.chaotentrumpf.trump import LEVEL_VALUES, Trump
from protocol.rules.envelope import FORMAT
from protocol.transfer import ImportRefused, import_document

RULESET = "chaotentrumpf"  # the sheets' columns are Chaotentrumpf's: Stiche, Augen, Trümpfe
MAX_ROWS = 500_000  # per sheet; a federation's season (1,550 Partien) has about 160,000 Spiel lines
OLE_MAGIC = b"\xd0\xcf\x11\xe0"  # the old binary Excel format (.xls)
SHEET_ORDER = ("matches", "games", "sanctions", "table")
SHEET_COLUMNS = {"table": exports.table_columns, "matches": exports.match_columns,
                 "games": exports.game_columns, "sanctions": exports.sanction_columns}
REQUIRED = {
    "matches": ("number", "date", "players", "scorekeeper"),
    "games": ("match", "game", "player", "tricks", "points", "trumps"),
    "sanctions": ("match", "player", "kind", "reason"),
    "table": ("name",),
}
GAME_FACTS = ("trump", "annulled", "selection", "inversions", "annul_reason")  # one value per Spiel
SANCTION_KINDS = ("penalty", "warning", "disqualification")
SANCTION_ARTICLES = {"penalty": "SV 3", "warning": "SV 2", "disqualification": "SV 3"}
DATE_FORMATS = ("%d.%m.%Y", "%Y-%m-%d", "%d.%m.%y", "%m/%d/%Y")
EXCEL_DAYS = (20_000, 80_000)  # a date cell that lost its format: 1954 to 2119

TRUMPS = {trump.label.casefold(): trump for trump in (  # "pik", "wert zehn", "karo dame"
    [Trump(level, value) for level, values in LEVEL_VALUES.items() for value in values]
    + [Trump("card", card.code) for card in deck()])}
AGREED_WORDS = {exports.AGREED.casefold(), "einigung auf die letzte karte", "agreed"}
INVERSION_KINDS = {name.casefold(): kind for kind, name in KIND_NAMES.items()} | {k: k for k in KIND_NAMES}
SELECTION = re.compile(r"^(?P<cards>[^()]*?)\s*(?:\((?P<marker>[^()]*)\))?$")
INVERSION = re.compile(r"^(?P<target>[^()]+?)\s*\((?P<player>.+),\s*(?P<kind>[^,()]+)\)$")
END = re.compile(r"^(?P<reason>.*?)\s*(?:\((?P<word>[^()\d]+?)\s*(?P<entry>\d+)\))?$")


class WorkbookUnreadable(Exception):
    """The file is no .xlsx workbook at all (the command's exit 2); the message is German."""


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
            return value.strip() or None
        return value


class Problems:
    """The problems of one workbook, each once, in the order of the sheets."""

    def __init__(self, words: Vocabulary):
        self.words = words
        self.items: list[Problem] = []
        self.seen: set[tuple] = set()
        self.unread: set[tuple] = set()  # cells the importer could not read and left out of the document

    def __bool__(self) -> bool:
        return bool(self.items)

    def add(self, sheet: Sheet | None, row: int | None, key: str | None, message: str, *,
            header: str = "", title: str = "", rule: bool = False) -> None:
        column = sheet.letter(key) if sheet else ""
        header = header or (sheet.header(key) if sheet else "")
        if rule and (sheet.key if sheet else title, row, column) in self.unread:
            return  # the engine only misses what the importer could not read there
        problem = Problem(sheet.title if sheet else title, row, column, header, message,
                          order=(sheet.order if sheet else -1, row or 0, sheet.columns.get(key, -1) if sheet else -1))
        identity = (problem.sheet, row, column, message)
        if identity not in self.seen:
            self.seen.add(identity)
            self.items.append(problem)

    def at(self, row: Row, key: str | None, message: str, *, rule: bool = False) -> None:
        self.add(row.sheet, row.number, key, message, rule=rule)

    def unreadable(self, row: Row, key: str, message: str | None = None) -> None:
        """The cell was left out of the document (what the engine then misses is not repeated)."""
        self.unread.add((row.sheet.key, row.number, row.sheet.letter(key)))
        if message:
            self.at(row, key, message)

    def sorted(self) -> list[Problem]:
        return sorted(self.items, key=lambda p: p.order)


def _data(source: bytes | str | Path | BinaryIO) -> bytes:
    if isinstance(source, (str, Path)):
        try:
            return Path(source).read_bytes()
        except OSError as exc:
            raise WorkbookUnreadable(_("The file %(name)s can't be read: %(why)s.")
                                     % {"name": source, "why": exc.strerror or exc}) from exc
    return source if isinstance(source, bytes) else source.read()


def _open(data: bytes):
    """The workbook in openpyxl's read-only mode (cached values of formulas, not formulas)."""
    if not data:
        raise WorkbookUnreadable(_("The file is empty."))
    if data.startswith(OLE_MAGIC):
        raise WorkbookUnreadable(_("The file is in the old Excel format (.xls). Please open it in Excel or "
                                   "LibreOffice, save it as an Excel workbook (.xlsx) and try again."))
    if not zipfile.is_zipfile(io.BytesIO(data)):
        raise WorkbookUnreadable(_("The file is not an Excel workbook (.xlsx)."))
    if _mimetype(data).startswith(b"application/vnd.oasis.opendocument"):
        raise WorkbookUnreadable(_("The file is an OpenDocument spreadsheet (.ods). Please save it as an "
                                   "Excel workbook (.xlsx) and try again."))
    try:
        return load_workbook(io.BytesIO(data), read_only=True, data_only=True)
    except Exception as exc:  # openpyxl raises many kinds on a damaged file; none may become a 500
        raise WorkbookUnreadable(_("The file is not an Excel workbook (.xlsx) that can be read.")) from exc


def _mimetype(data: bytes) -> bytes:
    """The ``mimetype`` member an OpenDocument file starts with (b"" for anything else)."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            return archive.read("mimetype")[:100]
    except Exception:  # no such member, or a damaged archive: load_workbook will say so
        return b""


def _is_blank(values: tuple) -> bool:
    return all(v is None or (isinstance(v, str) and not v.strip()) for v in values)


def _read_sheet(worksheet, key: str, words: Vocabulary, problems: Problems, notes: list[str]) -> Sheet | None:
    title = worksheet.title
    if hasattr(worksheet, "reset_dimensions"):
        worksheet.reset_dimensions()  # a stated size may be wrong: read every row there is
    rows = worksheet.iter_rows(values_only=True)
    header = next(rows, None)
    if header is None or _is_blank(header):
        problems.add(None, 1, None, _("The sheet is empty; its first row must hold the column headers."), title=title)
        return None
    sheet = Sheet(key, title, SHEET_ORDER.index(key), {}, [_text(value) for value in header])
    for index, text in enumerate(sheet.headers):
        column = words.headers[key].get(_norm(text)) if text else None
        if text and column is None:
            notes.append(_("%(sheet)s, column %(column)s (%(header)s) is not read.")
                         % {"sheet": title, "column": get_column_letter(index + 1), "header": text})
        elif column in sheet.columns:
            problems.add(sheet, 1, None, _("The column “%(header)s” appears twice (also column %(other)s).")
                         % {"header": text, "other": sheet.letter(column)}, header=text)
        elif column:
            sheet.columns[column] = index
    for column in REQUIRED[key]:
        if column not in sheet.columns:
            problems.add(sheet, 1, None, _("The column “%(header)s” is missing.")
                         % {"header": words.names[key][column]})
    below_table = False
    for number, values in enumerate(rows, start=2):
        if number > MAX_ROWS:
            problems.add(sheet, number, None, _("The sheet has more than %(n)s rows; a season has far fewer.")
                         % {"n": MAX_ROWS})
            break
        if values is None or _is_blank(values):
            below_table = key == "table"  # the table ends at its first empty row, its note follows
            continue
        if below_table:
            sheet.note = sheet.note or next((v for v in values if isinstance(v, str) and v.strip()), "")
            continue
        sheet.rows.append(Row(sheet, number, values))
    return sheet


def read_workbook(source: bytes | str | Path | BinaryIO, words: Vocabulary, problems: Problems,
                  notes: list[str]) -> dict[str, Sheet]:
    """The sheets found by title (key -> Sheet); problems for missing sheets and columns."""
    book = _open(_data(source))
    sheets: dict[str, Sheet] = {}
    present = set()
    try:
        for worksheet in book.worksheets:
            key = words.sheets.get(_norm(worksheet.title))
            if key is None:
                notes.append(_("The sheet “%(sheet)s” is not read.") % {"sheet": worksheet.title})
            elif key in present:
                problems.add(None, None, None, _("The sheet “%(sheet)s” appears twice.")
                             % {"sheet": worksheet.title}, title=worksheet.title)
            else:
                present.add(key)
                sheet = _read_sheet(worksheet, key, words, problems, notes)
                if sheet is not None:
                    sheets[key] = sheet
        found = ", ".join(book.sheetnames) or "–"
    except Exception as exc:  # a damaged sheet inside a readable archive; none may become a 500
        raise WorkbookUnreadable(_("The workbook is damaged and can't be read.")) from exc
    finally:
        book.close()
    for key in ("matches", "games", "sanctions"):
        if key not in present:
            problems.add(None, None, None, _("The sheet “%(sheet)s” is missing (the workbook has: %(found)s).")
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
    return _text(value)


# -- one Partie as a protocol/1 document --------------------------------------------------

@dataclass
class Source:
    """Where an event of the document came from, to name the cell of its problems."""

    kind: str  # game | sanction | end | annul
    row: Row
    column: str  # the column of a problem of the whole event
    players: dict[str, Row] = field(default_factory=dict)  # a Spiel: each player's row
    trump_column: str = "trump"  # where the trump before the inversions was read


@dataclass
class Partie:
    row: Row  # in Partien
    number: int
    games: dict[int, list[Row]] = field(default_factory=dict)  # Spiel -> its rows in Spiele
    sanctions: list[Row] = field(default_factory=list)
    date: datetime.date | None = None
    season: str = ""
    document: dict[str, Any] = field(default_factory=dict)
    sources: list[Source] = field(default_factory=list)
    readable: bool = True  # every fact could be read: the computed columns are compared
    computed: Any = None  # the engine's match
    match: Match | None = None  # saved (until a rollback)


def _partien(sheets: dict[str, Sheet], problems: Problems) -> list[Partie]:
    """The Partien of the sheet Partien, each with its rows of Spiele and Strafen."""
    partien: dict[int, Partie] = {}
    for row in sheets["matches"].rows:
        number = _integer(row["number"])
        if number is None:
            problems.at(row, "number", _("The number of the match is missing or not a whole number; the sheets "
                                         "Spiele and Strafen refer to the match by it."))
        elif number in partien:
            problems.at(row, "number", _("Match %(n)s appears twice in this sheet (also row %(row)s).")
                        % {"n": number, "row": partien[number].row.number})
        else:
            partien[number] = Partie(row, number)
    for key in ("games", "sanctions"):
        unknown: set = set()
        for row in sheets[key].rows:
            number = _integer(row["match"])
            partie = partien.get(number)
            if partie is None:
                if number is None:
                    problems.at(row, "match", _("The number of the match is missing or not a whole number."))
                elif number not in unknown:
                    unknown.add(number)
                    problems.at(row, "match", _("Match %(n)s is not in the sheet %(sheet)s.")
                                % {"n": number, "sheet": sheets["matches"].title})
            elif key == "sanctions":
                partie.sanctions.append(row)
            elif (game := _integer(row["game"])) is None or game < 1:
                problems.at(row, "game", _("The number of the game is missing or not a whole number from 1."))
                partie.readable = False
            else:
                partie.games.setdefault(game, []).append(row)
    return list(partien.values())


def _document(partie: Partie, words: Vocabulary, problems: Problems) -> None:
    """Build the Partie's protocol/1 document from its rows (and what can't be read)."""
    row = partie.row
    lines = [line for rows in partie.games.values() for line in rows]
    if lines and not any(line[key] is not None for line in lines for key in ("tricks", "points", "trumps", "trump")):
        problems.at(row, "number", _("Match %(n)s has scores but no tricks, card points or trumps: a Doppelkopf or "
                                     "Tarot match, which this workbook does not record completely; it can't be "
                                     "imported from it.") % {"n": partie.number})
        return
    doc: dict[str, Any] = {"format": FORMAT, "ruleset": RULESET}
    partie.season = _text(row["season"])
    if partie.season:
        doc["season"] = partie.season
    partie.date = _day(row["date"])
    if partie.date is None:
        problems.unreadable(row, "date", _("The date is missing or not a date (DD.MM.YYYY)."))
    else:
        doc["date"] = partie.date.isoformat()
    if place := _text(row["place"]):
        doc["place"] = place
    players = _text(row["players"])
    doc["players"] = [name.strip() for name in players.split(",")] if players else []
    doc["scorekeeper"] = _text(row["scorekeeper"]) or None
    doc["settings"] = _agreements(row, words, problems)
    games = []
    for number in sorted(partie.games):
        if number != len(games) + 1:
            problems.at(partie.games[number][0], "game", _("Game %(n)s of match %(match)s is missing.")
                        % {"n": len(games) + 1, "match": partie.number})
            partie.readable = False
        games.append(_game(partie, partie.games[number], words, problems))
    sanctions = [s for s in (_sanction(partie, r, words, problems) for r in partie.sanctions) if s]
    end = _end(partie, words, problems)
    annul = None
    if reason := _text(row["annul_reason"]):
        annul = ({"annul_match": {"reason": reason}}, Source("annul", row, "annul_reason"))
    doc["events"], partie.sources = _in_protocol_order(partie, games, sanctions, end, annul, problems)
    partie.document = doc


def _agreements(row: Row, words: Vocabulary, problems: Problems) -> dict[str, Any]:
    """The Vereinbarungen: "Obergrenze: 750; Blätter: 2" -> {"limit": 750, "decks": 2}."""
    settings: dict[str, Any] = {}
    for part in re.split(r"[;\n]", _text(row["agreements"])):
        if not part.strip():
            continue
        label, colon, value = part.partition(":")
        key = words.settings.get(_norm(label))
        if not colon or key is None:
            problems.at(row, "agreements", _("“%(part)s” is no setting; write them as in “%(example)s”.")
                        % {"part": part.strip(), "example": words.example})
            continue
        value = value.strip()
        read = _yes_no(value, words) if key == "scorekeeper_skips_shuffling" else _integer(value)
        settings[key] = value if read is None else read  # the engine names what is wrong with it
    return settings


def _game(partie: Partie, rows: list[Row], words: Vocabulary, problems: Problems) -> tuple[dict, Source]:
    facts = {key: _one_value(partie, rows, key, problems) for key in GAME_FACTS}
    source = Source("game", facts["trump"], "game")
    body: dict[str, Any] = {}
    if selection := _selection(facts["selection"], words, problems):
        body["selection"] = selection
    trump = _trump(facts["trump"], "trump", problems)
    chain = _inversions(facts["inversions"], problems)
    if chain is False or selection is False:
        problems.unreadable(facts["trump"], "trump")  # what the trump then lacks was said already
        partie.readable = False
    elif chain:
        body["trump"], body["inversions"] = chain
        source.trump_column = "inversions"
    if "trump" not in body and trump:
        body["trump"] = trump.as_json()
    if trump is False:
        partie.readable = False
    results, empty = {}, True
    for row in rows:
        player = _text(row["player"])
        if not player:
            problems.at(row, "player", _("The player is missing."))
            partie.readable = False
            continue
        if player in source.players:
            problems.at(row, "player", _("%(name)s appears twice in this game (also row %(row)s).")
                        % {"name": player, "row": source.players[player].number})
            partie.readable = False
            continue
        source.players[player] = row
        line = {}
        for key in ("tricks", "points", "trumps"):
            value = row[key]
            empty = empty and value is None
            number = _integer(value)
            line[key] = value if number is None else number  # the engine names what is wrong with it
        results[player] = line
    annulled = _yes_no(facts["annulled"]["annulled"], words)
    if annulled is None:
        problems.at(facts["annulled"], "annulled", _("Write “yes” or “no”."))
        annulled = False
    if annulled:
        body["annulled"] = True
    if reason := _text(facts["annul_reason"]["annul_reason"]):
        body["annul_reason"] = reason
    if not (annulled and empty):  # an annulled Spiel may have no lines (SV 4)
        body["results"] = results
    return {"game": body}, source


def _one_value(partie: Partie, rows: list[Row], key: str, problems: Problems) -> Row:
    """A fact of the whole Spiel stands in each of its rows: the row that says what most say
    (the first of them) is read, the rows that say otherwise are problems."""
    said = Counter(_norm(_text(row[key])) for row in rows)
    most = max(said.values())
    model = next(row for row in rows if said[_norm(_text(row[key]))] == most)
    for row in rows:
        if _norm(_text(row[key])) != _norm(_text(model[key])):
            problems.at(row, key, _("Row %(row)s of the same game says “%(value)s”; a game has one value here.")
                        % {"row": model.number, "value": _shown(model[key])})
            partie.readable = False
    return model


def _trump(row: Row, key: str, problems: Problems) -> Trump | None | bool:
    """The trump of a label as the engine writes it ("Pik", "Wert Zehn", "Karo Dame");
    None for an empty cell, False (with a problem) for one that is no trump."""
    text = _text(row[key])
    if not text:
        return None
    trump = TRUMPS.get(_norm(text))
    if trump is None:
        problems.unreadable(row, key, _("“%(text)s” is no trump; write it as the sheet does: “rot”, “Pik”, "
                                        "“Wert Zehn”, “Karo Dame”.") % {"text": text})
        return False
    return trump


def _selection(row: Row, words: Vocabulary, problems: Problems) -> dict | None | bool:
    """The Trumpfwahl: "X8 H8 P7", with "(Einigung)" when the players agreed (Art. 9b);
    None for an empty cell, False (with a problem) for one that can't be read."""
    text = _text(row["selection"])
    if not text:
        return None
    found = SELECTION.match(text)
    agreed = bool(found and found["marker"] is not None)
    if found is None or agreed and _norm(found["marker"]) not in AGREED_WORDS:
        problems.at(row, "selection", _("“%(text)s” is no trump selection; write the revealed cards in order, "
                                        "e.g. “X8 H8 P7”, and “(%(agreed)s)” after them when the players agreed.")
                    % {"text": text, "agreed": exports.AGREED})
        return False
    cards = [card.upper() for card in re.split(r"[\s,;]+", found["cards"]) if card]
    return {"cards": cards, "agreed": agreed}


def _inversions(row: Row, problems: Problems) -> tuple[dict, list[dict]] | None | bool:
    """"Herz → Pik (Bernd, Normalinversion)": the trump before them and each as announced;
    None for an empty cell, False (with a problem) for one that can't be read."""
    text = _text(row["inversions"])
    if not text:
        return None
    parts = [part.strip() for part in re.split(r"→|->", text)]
    start, inversions = TRUMPS.get(_norm(parts[0])), []
    for part in parts[1:]:
        found = INVERSION.match(part)
        target = TRUMPS.get(_norm(found["target"])) if found else None
        kind = INVERSION_KINDS.get(_norm(found["kind"])) if found else None
        if target is None or kind is None:
            break
        inversions.append({"player": found["player"].strip(), "declared": kind, "target": target.as_json()})
    if start is None or len(inversions) != len(parts) - 1 or not inversions:
        problems.at(row, "inversions", _("“%(text)s” can't be read as inversions; write the trump before them, then "
                                         "each as announced: “Herz → Pik (Bernd, Normalinversion)”.") % {"text": text})
        return False
    return start.as_json(), inversions


def _sanction(partie: Partie, row: Row, words: Vocabulary, problems: Problems):
    """(event, source, entry, after game) of a row of Strafen, or None if it can't be read."""
    kind = words.kinds.get(_norm(_text(row["kind"])))
    if kind is None:
        problems.at(row, "kind", _("“%(text)s” is no kind of entry here: Strafe, Verwarnung or Disqualifikation.")
                    % {"text": _text(row["kind"])})
        partie.readable = False
        return None
    body: dict[str, Any] = {"player": _text(row["player"]), "reason": _text(row["reason"])}
    if kind == "penalty":
        points = _integer(row["points"])
        body["points"] = row["points"] if points is None else points
    deciders = [name.strip() for name in _text(row["decided_by"]).split(",") if name.strip()]
    if deciders and kind == "warning":
        problems.at(row, "decided_by", _("A warning names nobody who decided on it; leave the cell empty."))
    elif deciders:
        body["decided_by"] = deciders
    place = {}
    for key in ("entry", "after_game"):
        value = row[key]
        place[key] = _integer(value)
        if value is not None and (place[key] is None or place[key] < (1 if key == "entry" else 0)):
            problems.at(row, key, _("“%(text)s” is no number of an entry or game.") % {"text": _text(value)})
            place[key] = None
    return {kind: body}, Source("sanction", row, "kind"), place["entry"], place["after_game"]


def _end(partie: Partie, words: Vocabulary, problems: Problems):
    """(event, source, entry) of the Ende cell ("Zeitbegrenzung (Eintrag 14)"), or None."""
    row = partie.row
    text = _text(row["end"])
    if not text:
        return None
    found = END.match(text)
    reasons = {_norm(label): key for key, label in END_REASONS.items()} | {key: key for key in END_REASONS}
    reason = reasons.get(_norm(found["reason"])) if found else None
    if reason is None or found["word"] and _norm(found["word"]) not in words.entry:
        labels = " / ".join(END_REASONS.values())
        problems.at(row, "end", _("“%(text)s” is no end of a match: %(labels)s, with its entry, e.g. “%(example)s”.")
                    % {"text": text, "labels": labels,
                       "example": f"{END_REASONS['time']} ({_entry_word()} 14)"})
        partie.readable = False
        return None
    return {"end": {"reason": reason}}, Source("end", row, "end"), int(found["entry"]) if found["entry"] else None


def _entry_word() -> str:
    with translation.override(exports.LANGUAGE):
        return _("Entry")


def _in_protocol_order(partie, games, sanctions, end, annul, problems):
    """The events in the order they were recorded, and where each came from.

    With entry numbers (Strafen ``Eintrag``, the Ende's "(Eintrag 14)") every SV entry and
    the end stand where they were recorded and the Spiele fill the other places in order.
    Without them a Strafe follows the Spiel it names (``Nach Spiel``), the end follows
    everything, and an annulment of the Partie is always the last entry (SV 4).
    """
    placed = [(event, source, entry) for event, source, entry, _after in sanctions]
    if end:
        placed.append(end)
    total = len(games) + len(placed) + (1 if annul else 0)
    numbered = [item for item in placed if item[2] is not None]
    order = None
    if numbered and len(numbered) < len(placed):
        for _event, source, entry in placed:
            if entry is None:
                problems.at(source.row, source.column if source.kind == "end" else "entry",
                            _("The entry is missing; the other entries of this match have theirs."))
    elif numbered:
        slots: list = [None] * total
        fine = True
        for event, source, entry in placed:
            key = "end" if source.kind == "end" else "entry"
            if not 1 <= entry <= total - (1 if annul else 0):
                problems.at(source.row, key, _("Match %(match)s has no entry %(n)s; it has %(total)s.")
                            % {"match": partie.number, "n": entry, "total": total})
                fine = False
            elif slots[entry - 1] is not None:
                problems.at(source.row, key, _("Entry %(n)s is given twice in match %(match)s.")
                            % {"n": entry, "match": partie.number})
                fine = False
            else:
                slots[entry - 1] = (event, source)
        if fine:
            remaining = iter(games)
            order = [slot or next(remaining) for slot in slots[: total - (1 if annul else 0)]]
    if order is None:  # after the Spiel each names
        order = [(event, source) for event, source, _entry, after in sanctions if after == 0]
        for number, game in enumerate(games, start=1):
            order.append(game)
            order += [(event, source) for event, source, _entry, after in sanctions if after == number]
        for event, source, _entry, after in sanctions:
            if after is None and source.row["after_game"] is None:
                problems.at(source.row, "after_game", _("After which game? The cell is empty, and there is no entry "
                                                        "number either."))
            elif after is not None and after > len(games):
                problems.at(source.row, "after_game", _("Match %(match)s has no game %(n)s.")
                            % {"match": partie.number, "n": after})
            if after is None or after > len(games):
                order.append((event, source))
        if end:
            order.append(end[:2])
        if numbered:
            partie.readable = False
    if annul:
        order.append(annul)
    return [event for event, _source in order], [source for _event, source in order]


# -- the engine's answer, cell by cell ----------------------------------------------------

EVENT_COLUMNS = {"tricks": "tricks", "points": "points", "trumps": "trumps", "selection": "selection",
                 "inversions": "inversions", "annulled": "annulled", "annul_reason": "annul_reason",
                 "results": "player", "player": "player", "reason": "reason", "decided_by": "decided_by"}
HEADER_COLUMNS = {"date": "date", "place": "place", "season": "season", "players": "players",
                  "scorekeeper": "scorekeeper", "settings": "agreements"}


def _rule_problem(partie: Partie, error: RuleError, problems: Problems) -> None:
    """A RuleError of the engine (or of the importer of protocol files) at its cell."""
    if error.event is None or error.event >= len(partie.sources):
        key = HEADER_COLUMNS.get((error.field or "").split(".")[0], "number")
        problems.at(partie.row, key, error.message, rule=True)
        return
    source = partie.sources[error.event]
    row = source.players.get(error.player, source.row) if source.kind == "game" else source.row
    if source.kind in ("end", "annul"):
        key = source.column
    elif error.field == "trump":
        key = source.trump_column
    elif error.field in EVENT_COLUMNS:
        key = EVENT_COLUMNS[error.field]
    else:
        key = "player" if error.player else source.column
    problems.at(row, key, error.message, rule=True)


def _compare(row: Row, key: str, expected: Any, problems: Problems, article: str = "",
             labels: list[str] | None = None) -> None:
    """A computed cell: an empty cell states nothing, any other must say what the rules say."""
    stated = row[key]
    if stated is None:
        return
    if labels is not None:
        same = _norm(_text(stated)) in {_norm(label) for label in labels}
        expected = labels[0] if labels else None
    elif isinstance(expected, int):
        same = _integer(stated) == expected
    else:
        same = expected is not None and _norm(_text(stated)) == _norm(expected)
    if not same:
        message = _("in the sheet %(sheet)s, by the rules %(rules)s") % {"sheet": _shown(stated),
                                                                          "rules": _shown(expected)}
        problems.at(row, key, f"{message} ({article})" if article else message)


def _same_date(row: Row, partie: Partie, problems: Problems) -> None:
    stated = row["date"]
    if stated is not None and partie.date is not None and _day(stated) != partie.date:
        problems.at(row, "date", _("%(stated)s here, but match %(match)s is of %(date)s (row %(row)s of %(sheet)s).")
                    % {"stated": _shown(stated), "match": partie.number, "date": _shown(partie.date),
                       "row": partie.row.number, "sheet": partie.row.sheet.title})


def _cross_check(partie: Partie, words: Vocabulary, problems: Problems) -> None:
    """Every computed cell of the Partie against the engine's answer."""
    computed, row = partie.computed, partie.row
    _compare(row, "winner", computed.winner, problems, "Art. 17")
    _compare(row, "status", None, problems, labels=words.status[computed.status])
    _compare(row, "ended_by", ENDED_BY.get(computed.ended_by or ""), problems)
    _compare(row, "games", len(computed.games), problems)
    yes, no = sorted(words.yes, key=len), sorted(words.no, key=len)
    with translation.override(exports.LANGUAGE):
        yes_no = {True: [_("yes")] + yes, False: [_("no")] + no}
    for game in computed.games:
        for player, line in partie.sources[game.event].players.items():
            score = game.scores.get(player) if game.scores else None
            _same_date(line, partie, problems)
            _compare(line, "stage", None, problems, "Art. 17b", labels=words.stage(game.stage))
            _compare(line, "trump", game.trump.label if game.trump else None, problems, "Art. 11")
            _compare(line, "trump_bonus", None, problems, "Art. 16b",
                     labels=yes_no[score.trump_bonus] if score else [])
            _compare(line, "score", score.points if score else None, problems, "Art. 16")
            _compare(line, "total", game.totals.get(player), problems)
    for sanction in computed.sanctions:
        line = partie.sources[sanction.event].row
        _same_date(line, partie, problems)
        _compare(line, "points", sanction.points, problems, SANCTION_ARTICLES[sanction.kind])
        _compare(line, "after_game", sanction.after_game, problems)
        _compare(line, "stage", None, problems, "Art. 17b", labels=words.stage(sanction.stage))


# -- the season, the club and the table ----------------------------------------------------

@dataclass
class TableNote:
    """What the line below the Tabelle says: the season (None: all seasons), its dates, the rule."""

    season: str | None
    start: datetime.date | None = None
    end: datetime.date | None = None
    rule: str | None = None


def _note(text: str, words: Vocabulary) -> TableNote | None:
    for pattern in words.season_lines:
        if found := pattern.match(text):
            return TableNote(found["season"], _day(found["start"]), _day(found["end"]),
                             words.rules.get(_norm(found["rule"] or "")))
    for pattern in words.all_seasons_lines:
        if found := pattern.match(text):
            return TableNote(None, rule=words.rules.get(_norm(found["rule"] or "")))
    return None


def _new_seasons(partien: list[Partie], club: Club, note: TableNote | None, problems: Problems,
                 report: Report) -> None:
    """Create the seasons the Partien name and the club lacks."""
    named = defaultdict(list)
    for partie in partien:
        if partie.season:
            named[partie.season].append(partie)
    existing = set(club.seasons.filter(name__in=list(named)).values_list("name", flat=True))
    longest = Season._meta.get_field("name").max_length
    for name, members in named.items():
        if name in existing:
            continue
        if len(name) > longest:
            for partie in members:
                problems.at(partie.row, "season", _("A season's name has at most %(n)s characters.") % {"n": longest})
            continue
        dates = [p.date for p in members if p.date]
        rule = Season.RankingRule.WINS_THEN_PPG
        if note and note.season == name and note.start and note.end and note.start <= note.end:
            start, end, rule = note.start, note.end, note.rule or rule
        elif re.fullmatch(r"\d{4}", name) and all(d.year == int(name) for d in dates):
            start, end = datetime.date(int(name), 1, 1), datetime.date(int(name), 12, 31)
        elif dates:
            start, end = min(dates), max(dates)
        else:
            continue  # no dates: the Partien have their problems already
        Season.objects.create(club=club, name=name, start=start, end=end, ranking_rule=rule)
        report.new_seasons.append(_("%(name)s (%(start)s – %(end)s, %(rule)s)") % {
            "name": name, "start": f"{start:%d.%m.%Y}", "end": f"{end:%d.%m.%Y}",
            "rule": Season.RankingRule(rule).label})


def _fingerprint(date, computed) -> tuple:
    """What makes two Partien the same: date, seating, Spiele and totals."""
    return (date, tuple(computed.players), len(computed.games), tuple(sorted(computed.totals.items())),
            computed.status)


def _already_there(partien: list[Partie], club: Club, problems: Problems) -> None:
    """A Partie the club has already is refused: a season must not come in twice."""
    checked = [p for p in partien if p.computed is not None and p.date]
    stored = {}
    for match in Match.objects.filter(club=club, date__in={p.date for p in checked}):
        computed = services.evaluate_match(match).match
        if computed is not None:
            stored.setdefault(_fingerprint(match.date, computed), match)
    for partie in checked:
        match = stored.get(_fingerprint(partie.date, partie.computed))
        if match is not None:
            problems.at(partie.row, "number", _("The club has this match already (match %(n)s of %(date)s, the same "
                                                "players, games and totals); it is not imported twice.")
                        % {"n": match.pk, "date": f"{match.date:%d.%m.%Y}"})


def _counted_before(club: Club) -> Counter:
    """Finished Partien per season id (None: without a season) before the import."""
    rows = (Match.objects.filter(club=club, status=Match.Status.FINISHED)
            .values("season").annotate(n=Count("id")))
    return Counter({row["season"]: row["n"] for row in rows})


def _check_table(sheets: dict[str, Sheet], partien: list[Partie], club: Club, before: Counter,
                 note: TableNote | None, words: Vocabulary, problems: Problems, report: Report) -> None:
    """The Tabelle against the standings the saved Partien give (league.standings)."""
    sheet = sheets.get("table")
    if sheet is None:
        return
    title = sheet.title
    if problems:
        report.notes.append(_("The sheet %(sheet)s is compared once the matches have no problems.") % {"sheet": title})
        return
    seasons = {p.match.season for p in partien}
    if note is not None and note.season is None:
        scope, fresh = None, not sum(before.values())
    elif len(seasons) == 1 and None not in seasons:
        scope = seasons.pop()
        fresh = not before[scope.pk]
    else:
        report.notes.append(_("The sheet %(sheet)s was not compared: its matches are not those of one season.")
                            % {"sheet": title})
        return
    if not fresh:
        report.notes.append(_("The sheet %(sheet)s was not compared: the club had counted matches there already.")
                            % {"sheet": title})
        return
    rule = (note.rule if note else None) or (scope.ranking_rule if scope else Season.RankingRule.WINS_THEN_PPG)
    computed = {row.name: row for row in standings(club, scope, rule)}
    listed = set()
    for row in sheet.rows:
        name = _text(row["name"])
        standing = computed.get(name)
        if standing is None:
            problems.at(row, "name", _("%(name)s has no counted match among these matches.") % {"name": name or "–"})
            continue
        listed.add(name)
        for column in exports.table_columns():
            if column.key != "name":
                _compare(row, column.key, getattr(standing, column.key), problems)
    for name, standing in computed.items():
        if name not in listed:
            problems.add(sheet, None, "name", _("%(name)s is missing; by the matches the rank is %(rank)s.")
                         % {"name": name, "rank": standing.rank})


# -- the import ------------------------------------------------------------------------------

def import_season(source: bytes | str | Path | BinaryIO, *, club: Club, season: Season | None = None,
                  user=None, dry_run: bool = False) -> Report:
    """Read the workbook and import every Partie into ``club`` (all or nothing).

    ``season``: the season every Partie goes into; without it each goes into the season its
    row names (created if the club lacks it), else the club's season of its date.
    ``dry_run``: do everything, then roll it back. Raises :class:`WorkbookUnreadable` for a
    file that is no .xlsx workbook; any other problem is in the report, and then nothing
    is saved.
    """
    words = vocabulary()
    problems = Problems(words)
    report = Report(dry_run=dry_run)
    sheets = read_workbook(source, words, problems, report.notes)
    if problems:  # sheets or columns missing: the rows can't be read reliably
        report.problems = problems.sorted()
        return report
    partien = _partien(sheets, problems)
    if not partien and not problems:
        problems.add(sheets["matches"], None, None, _("The workbook has no match."))
    for partie in partien:
        _document(partie, words, problems)
        if not partie.document:
            continue
        evaluation = evaluate(partie.document)
        for error in evaluation.errors:
            _rule_problem(partie, error, problems)
        if not evaluation.errors:
            partie.computed = evaluation.match
            if partie.readable:
                _cross_check(partie, words, problems)
    table = sheets.get("table")
    note = _note(table.note, words) if table and table.note else None
    with transaction.atomic():
        Club.objects.select_for_update().filter(pk=club.pk).first()  # one import per club at a time
        before = _counted_before(club)
        if season is None:
            _new_seasons(partien, club, note, problems, report)
        _already_there(partien, club, problems)
        for partie in sorted(partien, key=lambda p: (p.date or datetime.date.max, p.number)):
            if not partie.document:
                continue
            try:
                imported = import_document(partie.document, club=club, season=season, user=user)
            except ImportRefused as refused:
                for error in refused.errors:
                    _rule_problem(partie, error, problems)
                continue
            partie.match = imported.match
            report.new_members += [member.name for member in imported.created_members]
            name = imported.match.season.name if imported.match.season else ""
            report.seasons[name] = report.seasons.get(name, 0) + 1
        _check_table(sheets, partien, club, before, note, words, problems, report)
        report.matches = len(partien)
        report.games = sum(len(p.computed.games) for p in partien if p.computed)
        report.sanctions = sum(len(p.computed.sanctions) for p in partien if p.computed)
        report.problems = problems.sorted()
        report.saved = not dry_run and not problems
        if not report.saved:
            transaction.set_rollback(True)
    return report
