"""A club's own points lists read into Partien (for ``league.spreadsheets.points_import``).

Vocabulary (the mapping's words are ``league.spreadsheets.points_mapping``'s):

- *Sheet*: one worksheet's values as rows of plain values (a formula as :class:`Formula`,
  an error value as :class:`CellError`) and its merged ranges.
- *Listed Partie*: one block of a sheet (a header row of names and the rows of Spiele below
  it, up to the first row without points, a new header row or a totals row), with its date,
  place and Vereinbarungen found beside or above it, and where each value came from, so that
  the engine's answer is said at its cell ("Partie 2!C7").
- *Spot*: a problem at its cell, in German.

Only what stands in the list is read here; what it means by the rules (a sum that is not
zero, an Obergrenze passed, a Stechen) is the engine's to say.
"""

from __future__ import annotations

import datetime
import io
import math
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO

from league.spreadsheets.archive import Limits, WorkbookTooLarge, WorkbookUnreadable
from league.spreadsheets.points_mapping import (
    Layout,
    Mapping,
    column_letter,
    effective,
    is_number,
    is_text,
    label,
)
from league.spreadsheets.workbook import (
    _day,
    _integer,
    _shown,
    echo,
)
from protocol.rules.envelope import FORMAT
from protocol.rules.text import normalise

# A club's lists of a season: a few dozen sheets of a few hundred rows. Beyond this it is no
# points list (or a sheet formatted down to row 1,048,576 with values far below).
MAX_SHEETS = 200
MAX_ROWS = 5_000
MAX_COLUMNS = 60
POINTS_LIMITS = Limits(rows={"points": MAX_ROWS}, columns=MAX_COLUMNS, cells=MAX_SHEETS * MAX_ROWS,
                       unpacked=40 * 1024 * 1024)


class Formula(str):
    """A cell holding a formula (its text); a points list is read as typed, not as computed."""


class CellError(str):
    """A cell showing an error value (#WERT!, #DIV/0!)."""


@dataclass
class Sheet:
    title: str
    rows: list[tuple]
    merged: list[tuple[int, int, int, int]] = field(default_factory=list)  # min_row, min_col, max_row, max_col (1-based)


@dataclass(frozen=True)
class Spot:
    """A problem at its cell: ``sheet`` and ``cell`` ("C7"; empty for the whole sheet)."""

    sheet: str
    cell: str
    message: str
    order: tuple = field(default=(), compare=False)

    @property
    def address(self) -> str:
        return f"{self.sheet}!{self.cell}" if self.cell else self.sheet

    def __str__(self) -> str:
        return f"{self.address}: {self.message}"


def spot(sheet: str, row: int | None, column: int | None, message: str, order: int = 0) -> Spot:
    cell = f"{column_letter(column)}{row}" if row and column is not None else (str(row) if row else "")
    return Spot(sheet, cell, str(message), (order, row or 0, column or 0))


@dataclass
class Line:
    """A Spiel's row: each player's points as read (None: no points written) and their cells."""

    row: int
    points: dict[str, int | None]
    columns: dict[str, int]


@dataclass
class ListedPartie:
    sheet: str
    order: int  # the sheet's place in the workbook
    title: str
    header_row: int
    names: dict[int, str]  # column -> the name as written
    lines: list[Line] = field(default_factory=list)
    date: datetime.date | None = None
    date_at: tuple[int, int] | None = None  # (row, column)
    place: str = ""
    place_at: tuple[int, int] | None = None
    settings: dict[str, Any] = field(default_factory=dict)
    settings_at: tuple[int, int] | None = None
    totals: dict[str, Any] = field(default_factory=dict)  # the list's own totals row, by name
    totals_row: int | None = None
    problems: list[Spot] = field(default_factory=list)
    document: dict[str, Any] = field(default_factory=dict)
    ended: bool = False  # the end was added: the list stops there (the report says so)

    def at(self, row: int | None, column: int | None, message: str) -> None:
        self.problems.append(spot(self.sheet, row, column, message, self.order))

    def column_of(self, name: str) -> int | None:
        return next((c for c, n in self.names.items() if n == name), None)


# -- the workbook ----------------------------------------------------------------------------

def read_book(source: bytes | str | Path | BinaryIO) -> list[Sheet]:
    """Every sheet's values (formulas as written, not computed) and merged ranges; raises
    WorkbookUnreadable (German) for a file that is no .xlsx, WorkbookTooLarge for a huge one."""
    from openpyxl import load_workbook  # here: loading the site must not load openpyxl

    from league.spreadsheets.archive import check_archive
    from league.spreadsheets.workbook import _data

    data = _data(source)
    check_archive(data, POINTS_LIMITS)
    try:
        book = load_workbook(io.BytesIO(data), data_only=False)
    except Exception as exc:  # openpyxl raises many kinds on a damaged file; none may become a 500
        raise WorkbookUnreadable("Die Datei ist keine lesbare Excel-Mappe (.xlsx).") from exc
    sheets = [ws for ws in book.worksheets]
    if len(sheets) > MAX_SHEETS:
        raise WorkbookTooLarge(f"Die Mappe hat {len(sheets)} Blätter; eine Punkteliste hat höchstens {MAX_SHEETS}.")
    read = []
    for ws in sheets:
        # the cells that exist (ws.max_row counts a cell that is only formatted, too)
        filled = [(r, c) for (r, c), cell in ws._cells.items() if cell.value not in (None, "")]
        rows = max((r for r, _c in filled), default=0)
        columns = max((c for _r, c in filled), default=0)
        if rows > MAX_ROWS or columns > MAX_COLUMNS:
            raise WorkbookTooLarge(f"Das Blatt „{echo(ws.title)}“ reicht bis Zeile {rows}, Spalte "
                                   f"{column_letter(columns - 1)}; eine Punkteliste hat höchstens {MAX_ROWS} Zeilen "
                                   f"und {MAX_COLUMNS} Spalten.")
        values = [tuple(_value(cell) for cell in row)
                  for row in ws.iter_rows(min_row=1, max_row=rows, max_col=columns)] if rows else []
        merged = [(m.min_row, m.min_col, m.max_row, m.max_col) for m in ws.merged_cells.ranges]
        read.append(Sheet(normalise(ws.title), values, merged))
    return read


def _value(cell) -> Any:
    value = cell.value
    if cell.data_type == "f" or (isinstance(value, str) and value.startswith("=")):
        return Formula(str(getattr(value, "text", value)))
    if cell.data_type == "e":
        return CellError(str(value))
    if isinstance(value, str):
        return normalise(value.strip()) or None
    return value


# -- the Partien of a sheet ------------------------------------------------------------------

def partien_of(sheet: Sheet, order: int, mapping: Mapping, settings_words: dict[str, str],
               problems: list[Spot]) -> tuple[list[ListedPartie], Layout | None]:
    """The blocks of ``sheet`` as Partien (with their own problems), and the mapping as it
    applied here; problems of the whole sheet go to ``problems``."""
    rows = sheet.rows
    if not any(v is not None for row in rows for v in row):
        return [], None  # an empty sheet (the club's notes, a chart) is no Partie
    layout = effective(mapping, rows)
    if layout is None:
        problems.append(spot(sheet.title, None, None, "Keine Kopfzeile mit den Namen der Spieler gefunden; bitte die "
                                                      "Zeile der Kopfzeile angeben.", order))
        return [], None
    if len(layout.players) < 2:
        problems.append(spot(sheet.title, layout.header_row, None, "In der Kopfzeile stehen keine zwei Spieler; bitte "
                                                                    "die Spalten der Spieler angeben (z. B. „B-E“).",
                             order))
        return [], layout
    found: list[ListedPartie] = []
    start, preamble = layout.header_row, 0
    while start:
        partie, end = _block(sheet, order, layout, start, preamble, settings_words, first=not found)
        found.append(partie)
        preamble, start = end, _next_header(rows, layout, end)
        stray = next((row for row in range(end + 1, start or len(rows) + 1)
                      if _looks_like_a_spiel(rows, layout, row) and not _is_totals(rows, layout, row)), None)
        if stray:  # a Partie continued below an empty row would else end early without a word
            problems.append(spot(sheet.title, stray, None, "Diese Zeile hat Punkte, gehört aber zu keiner Partie: über "
                                                           "ihr steht eine leere Zeile statt der Kopfzeile mit den "
                                                           "Namen. Bitte die leere Zeile löschen oder die Kopfzeile "
                                                           "darüber schreiben.", order))
    if len(found) > 1:
        for number, partie in enumerate(found, 1):
            partie.title = f"{sheet.title}, Partie {number}"
    _merged(sheet, layout, found, problems, order)
    return found, layout


def _cell(rows: list[tuple], row: int, column: int | None) -> Any:
    if column is None or row < 1 or row > len(rows) or column >= len(rows[row - 1]):
        return None
    return rows[row - 1][column]


def _is_header(rows: list[tuple], layout: Layout, row: int) -> bool:
    """A row of names in the player columns (a new Partie's header)."""
    values = [_cell(rows, row, c) for c in layout.players]
    names = sum(1 for v in values if is_text(v) and label(v) is None)
    return names >= max(2, math.ceil(len(layout.players) / 2))


def _has_points(rows: list[tuple], layout: Layout, row: int) -> bool:
    return any(_cell(rows, row, c) not in (None, "") for c in layout.players)


def _looks_like_a_spiel(rows: list[tuple], layout: Layout, row: int) -> bool:
    """Numbers in two player columns or more (a date, a place, an Obergrenze above a header have fewer)."""
    return sum(1 for c in layout.players if is_number(_cell(rows, row, c))) >= 2


def _is_totals(rows: list[tuple], layout: Layout, row: int) -> bool:
    others = [v for c, v in enumerate(rows[row - 1]) if c not in layout.players]
    return any(label(v) == "totals" for v in others)


def _next_header(rows: list[tuple], layout: Layout, after: int) -> int | None:
    for row in range(after + 1, len(rows) + 1):
        if _is_header(rows, layout, row):
            return row
    return None


def _block(sheet: Sheet, order: int, layout: Layout, header: int, preamble: int, settings_words: dict[str, str],
           *, first: bool) -> tuple[ListedPartie, int]:
    """The Partie whose header is row ``header`` (rows ``preamble``+1 .. above it its own);
    answers it and its last row."""
    rows = sheet.rows
    names = {c: normalise(str(_cell(rows, header, c))).strip() for c in layout.players
             if _cell(rows, header, c) not in (None, "")}
    partie = ListedPartie(sheet.title, order, sheet.title, header, names)
    row = header + 1
    while row <= len(rows) and _has_points(rows, layout, row) and not _is_header(rows, layout, row):
        if _is_totals(rows, layout, row):
            partie.totals_row = row
            partie.totals = {n: _cell(rows, row, c) for c, n in names.items()}
            row += 1
            break
        _line(partie, rows, layout, row)
        row += 1
    for column in layout.players:
        if column not in names and any(line.row and _cell(rows, line.row, column) not in (None, "")
                                       for line in partie.lines):
            partie.at(header, column, "Über Punkten fehlt der Name des Spielers.")
    _header_facts(partie, rows, layout, header, preamble, settings_words, first)
    return partie, row - 1


def _line(partie: ListedPartie, rows: list[tuple], layout: Layout, row: int) -> None:
    line = Line(row, {}, {})
    for column, name in partie.names.items():
        value = _cell(rows, row, column)
        line.columns[name] = column
        line.points[name], problem = points(value)
        if problem:
            partie.at(row, column, problem)
    number = _cell(rows, row, layout.number_column)
    if number is not None and _integer(number) is None and not isinstance(number, Formula):
        partie.at(row, layout.number_column, f"„{echo(number)}“ ist keine Nummer eines Spiels.")
    partie.lines.append(line)


def points(value: Any) -> tuple[int | None, str | None]:
    """A player's points in a Spiel as typed; None for an empty cell; and what is wrong."""
    if value is None or value == "":
        return None, None
    if isinstance(value, Formula):
        return None, (f"In der Zelle steht die Formel „{echo(value)}“; Punkte bitte als Zahl eintragen "
                      "(z. B. die Spalte kopieren und „nur Werte“ einfügen).")
    if isinstance(value, CellError):
        return None, f"Die Zelle zeigt den Fehler „{echo(value)}“ statt Punkten."
    if isinstance(value, (datetime.date, datetime.time)):
        return None, "In der Zelle steht ein Datum oder eine Uhrzeit, keine Punkte."
    if isinstance(value, float) and not value.is_integer():
        return None, f"{value:g} ist keine ganze Zahl; Punkte sind ganze Zahlen."
    number = _integer(value)
    if number is None:
        return None, f"„{echo(value)}“ ist keine Zahl; Punkte als ganze Zahl eintragen (z. B. „-20“)."
    return number, None


def _header_facts(partie: ListedPartie, rows: list[tuple], layout: Layout, header: int, preamble: int,
                  settings_words: dict[str, str], first: bool) -> None:
    """The date, the place and the Vereinbarungen: from the mapped column, the mapped cell (the
    sheet's first Partie), or beside their label above the header."""
    above = range(preamble + 1, header)
    partie.date_at = _fact_at(partie, rows, above, layout.date_column, layout.date_cell, "date", first)
    partie.place_at = _fact_at(partie, rows, above, layout.place_column, layout.place_cell, "place", first)
    if partie.date_at:
        value = _cell(rows, *partie.date_at)
        partie.date = _day(value)
        if partie.date is None:
            partie.at(*partie.date_at, f"„{echo(value)}“ ist kein Datum (TT.MM.JJJJ).")
    else:
        partie.at(header, None, "Das Datum der Partie fehlt: eine Datumszelle über der Kopfzeile, eine Zelle "
                                "„Datum“ mit dem Datum daneben oder eine Spalte „Datum“.")
    if partie.place_at:
        partie.place = str(_cell(rows, *partie.place_at) or "").strip()
    if layout.date_column is not None:
        _one_per_partie(partie, rows, layout.date_column, "ein Datum", _day)
    if layout.place_column is not None:
        _one_per_partie(partie, rows, layout.place_column, "einen Ort", lambda v: str(v).strip())
    for row in above:
        for column, value in enumerate(rows[row - 1]):
            _setting(partie, rows, row, column, value, settings_words)


def _fact_at(partie: ListedPartie, rows: list[tuple], above: range, column: int | None,
             cell: tuple[int, int] | None, role: str, first: bool) -> tuple[int, int] | None:
    if column is not None:
        return next(((line.row, column) for line in partie.lines if _cell(rows, line.row, column) is not None), None)
    if cell is not None and first:
        return cell if _cell(rows, *cell) is not None else None
    for row in above:  # a later block: beside its own label, or (a date) any date cell above it
        for c, value in enumerate(rows[row - 1]):
            if label(value) == role:
                for rr, cc in ((row, c + 1), (row, c + 2), (row + 1, c)):
                    if rr in above and _cell(rows, rr, cc) not in (None, ""):
                        return rr, cc
    if role == "date":
        for row in above:
            for c, value in enumerate(rows[row - 1]):
                if isinstance(value, (datetime.date, datetime.datetime)):
                    return row, c
    return None


def _one_per_partie(partie: ListedPartie, rows: list[tuple], column: int, what: str, read) -> None:
    """A column of the date (place): a Partie has one; a row that says another is a problem."""
    said = [(line.row, _cell(rows, line.row, column)) for line in partie.lines
            if _cell(rows, line.row, column) is not None]
    for row, value in said[1:]:
        if read(value) != read(said[0][1]):
            partie.at(row, column, f"Eine Partie hat {what}; Zeile {said[0][0]} sagt „{_shown(said[0][1])}“. Eine "
                                   "neue Partie beginnt mit einer leeren Zeile oder einer neuen Kopfzeile.")


SETTING = re.compile(r"^(?P<label>[^:]+):\s*(?P<value>.+)$")


def _setting(partie: ListedPartie, rows: list[tuple], row: int, column: int, value: Any,
             words: dict[str, str]) -> None:
    """A Vereinbarung above the header: "Obergrenze: 750" in one cell, or the label and the
    number beside it."""
    if not isinstance(value, str):
        return
    found = SETTING.match(value)
    name, said = (found["label"], found["value"]) if found else (value, _cell(rows, row, column + 1))
    key = words.get(" ".join(name.split()).casefold())
    if key is None or said in (None, ""):
        return
    number = _integer(said)
    partie.settings[key] = number if number is not None else said  # the engine names what is wrong with it
    partie.settings_at = (row, column)


def _merged(sheet: Sheet, layout: Layout, partien: list[ListedPartie], problems: list[Spot], order: int) -> None:
    """Merged cells where the players' names or points stand: a number of one cell that
    spreads over several can't be told apart from a missing one."""
    first = layout.header_row
    for min_row, min_col, max_row, max_col in sheet.merged:
        columns = set(range(min_col - 1, max_col))
        if max_row >= first and columns & set(layout.players):
            cells = f"{column_letter(min_col - 1)}{min_row}:{column_letter(max_col - 1)}{max_row}"
            problems.append(spot(sheet.title, min_row, min_col - 1,
                                 f"Die Zellen {cells} sind verbunden; bitte die Verbindung aufheben, damit jeder "
                                 "Spieler seine Punkte in seiner eigenen Zelle hat.", order))


# -- the Partie as a protocol/1 document -------------------------------------------------------

def running_totals_hint(partie: ListedPartie) -> bool:
    """Do the rows look like running totals (every column grows, every row's sum too)?"""
    lines = [line for line in partie.lines if all(v is not None for v in line.points.values())]
    if len(lines) < 3:
        return False
    columns = list(partie.names.values())
    growing = all(later.points[n] >= earlier.points[n] for earlier, later in zip(lines, lines[1:]) for n in columns)
    sums = [sum(line.points.values()) for line in lines]
    return growing and all(b > a for a, b in zip(sums, sums[1:]))


def as_differences(partie: ListedPartie) -> None:
    """Zwischensummen: each row's points become the difference to the row before (an empty
    cell keeps the stand)."""
    stand = dict.fromkeys(partie.names.values(), 0)
    for line in partie.lines:
        for name, value in line.points.items():
            if value is None:
                line.points[name] = None
                continue
            line.points[name], stand[name] = value - stand[name], value


def build_document(partie: ListedPartie, game: str, names: dict[str, str]) -> dict[str, Any]:
    """The Partie as ``protocol/1``, every Spiel as points only (protocol/rules/scores.py):
    the players in the header's order, named as their members are (``names``), the first of
    them the Protokollant (a list names none)."""
    players = [names.get(n, n) for n in partie.names.values()]
    doc: dict[str, Any] = {"format": FORMAT, "ruleset": game, "players": players,
                           "scorekeeper": players[0] if players else None, "settings": dict(partie.settings)}
    if partie.date:
        doc["date"] = partie.date.isoformat()
    if partie.place:
        doc["place"] = partie.place
    doc["events"] = [{"game": {"scores": {names.get(n, n): v for n, v in line.points.items() if v is not None}}}
                     for line in partie.lines]
    partie.document = doc
    return doc


def error_at(partie: ListedPartie, event: int | None, player: str | None, field_name: str | None,
             names: dict[str, str]) -> tuple[int | None, int | None]:
    """The cell of an engine's error: the player's cell of the Spiel, else the row's first
    cell; the date, place or Vereinbarung's cell; else the header."""
    written = {member: name for name, member in names.items()}
    column = partie.column_of(written.get(player, player)) if player else None
    if event is not None and event < len(partie.lines):
        line = partie.lines[event]
        return line.row, column if column is not None else min(partie.names)
    if event is not None:  # the end the import adds: after the last Spiel
        return (partie.lines[-1].row if partie.lines else partie.header_row), min(partie.names)
    key = (field_name or "").split(".")[0]
    if key == "date" and partie.date_at:
        return partie.date_at
    if key == "place" and partie.place_at:
        return partie.place_at
    if key == "settings" and partie.settings_at:
        return partie.settings_at
    return partie.header_row, column if column is not None else min(partie.names, default=None)
