"""How a club's own points list is read: which row is the header, which columns hold the
players' points, where the date, the place and the Spiel's number stand, what to ignore.

Vocabulary:

- *Points list*: a workbook the club kept by hand (not the season export's layout): a sheet
  per Partie, or Partien one below the other in *blocks* (separated by an empty row or a new
  header row); a row per Spiel and a column per player, the header row holding their names.
- *Mapping*: the secretary's answer to "which column is what", the same for every sheet and
  block, as column letters ("B-E, G") and cell addresses ("B1"). An empty answer is guessed
  from the sheet (:func:`effective`), so that a typical list needs no answer at all.
- *Spot*: where the date or the place stands: a column (each Spiel's row says it), a cell
  (each sheet's), or empty: guessed (a cell beside "Datum" / "Ort" above the header, a date
  cell above it, or a column headed so).
- *Zwischensummen* (``running_totals``): each row holds every player's stand after the Spiel,
  not his points in it; the points are then the difference to the row before.

Pure: no Django models and no openpyxl (the reader, ``league.spreadsheets.points_lists``,
hands each sheet over as rows of plain values).
"""

from __future__ import annotations

import datetime
import re
from dataclasses import asdict, dataclass, field
from typing import Any

from protocol.rules.text import normalise

# Header words a column is recognised by (case and a trailing colon or dot do not matter).
LABELS = {
    "date": {"datum", "date", "tag", "spieltag"},
    "place": {"ort", "spielort", "place", "lokal", "gaststätte"},
    "number": {"nr", "nr.", "no", "spiel", "spiel nr", "spiel-nr", "spielnr", "#", "runde", "lfd. nr", "lfd nr"},
    "ignore": {"bemerkung", "bemerkungen", "notiz", "notizen", "kommentar", "anmerkung", "geber", "trumpf",
               "ansage", "spielart", "info"},
    "totals": {"summe", "summen", "gesamt", "total", "totals", "endstand", "ergebnis", "σ", "∑"},
}
MAX_COLUMNS = 60  # a list of 8 players and a few more columns; beyond it a letter is a typo
LETTERS = re.compile(r"^[A-Z]{1,2}$")
CELL = re.compile(r"^(?P<column>[A-Z]{1,2})(?P<row>[1-9]\d{0,4})$")


class MappingError(ValueError):
    """An answer of the mapping that names no column or cell; the message is German."""


@dataclass(frozen=True)
class Mapping:
    header_row: int | None = None  # 1-based; None: guessed on each sheet
    players: tuple[str, ...] = ()  # column letters; empty: the header's names
    date: str = ""  # a column ("A"), a cell ("B1"), or "" guessed
    place: str = ""
    number: str = ""  # the column of the Spiel's number; "" guessed, "-" none
    ignore: tuple[str, ...] = ()
    running_totals: bool = False

    def as_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any] | None) -> Mapping:
        data = data or {}
        return cls(header_row=data.get("header_row"), players=tuple(data.get("players") or ()),
                   date=data.get("date") or "", place=data.get("place") or "", number=data.get("number") or "",
                   ignore=tuple(data.get("ignore") or ()), running_totals=bool(data.get("running_totals")))

    def shown(self) -> dict[str, str]:
        """The answers as the form and the command write them."""
        return {"header_row": str(self.header_row or ""), "players": columns_text(self.players),
                "date": self.date, "place": self.place, "number": self.number,
                "ignore": columns_text(self.ignore), "running_totals": "ja" if self.running_totals else "nein"}


# -- the secretary's answers as text ---------------------------------------------------------

def column_index(letters: str) -> int:
    """"A" -> 0, "AB" -> 27."""
    index = 0
    for char in letters:
        index = index * 26 + ord(char) - 64
    return index - 1


def column_letter(index: int) -> str:
    """0 -> "A", 27 -> "AB"."""
    letters = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        letters = chr(65 + rest) + letters
    return letters


def parse_columns(value: str, what: str) -> tuple[str, ...]:
    """"B-E, G" -> ("B", "C", "D", "E", "G"); MappingError naming ``what`` for anything else."""
    found: list[str] = []
    for part in re.split(r"[,;\s]+", (value or "").upper().replace("–", "-")):
        if not part:
            continue
        first, dash, last = part.partition("-")
        if not LETTERS.match(first) or (dash and not LETTERS.match(last)):
            raise MappingError(f"{what}: „{part}“ ist keine Spalte; Spalten als Buchstaben schreiben, z. B. „B-E, G“.")
        start, end = column_index(first), column_index(last) if dash else column_index(first)
        if end < start or end >= MAX_COLUMNS:
            raise MappingError(f"{what}: „{part}“ ist keine Spaltenfolge von links nach rechts bis "
                               f"{column_letter(MAX_COLUMNS - 1)}.")
        found += [column_letter(i) for i in range(start, end + 1) if column_letter(i) not in found]
    return tuple(found)


def parse_spot(value: str, what: str, *, none_allowed: bool = False) -> str:
    """A column ("C") or a cell ("B1"), upper case; "" for guessed; "-" for none (if allowed)."""
    value = (value or "").strip().upper()
    if not value or (none_allowed and value == "-"):
        return value
    if LETTERS.match(value) and column_index(value) < MAX_COLUMNS:
        return value
    if CELL.match(value) and column_index(CELL.match(value)["column"]) < MAX_COLUMNS:
        return value
    raise MappingError(f"{what}: „{value}“ ist weder eine Spalte (z. B. „A“) noch eine Zelle (z. B. „B1“)"
                       + ("; „-“ für keine." if none_allowed else "."))


def columns_text(columns: tuple[str, ...] | list[str]) -> str:
    """("B", "C", "D", "G") -> "B-D, G"."""
    indexes = sorted(column_index(c) for c in columns)
    runs: list[list[int]] = []
    for index in indexes:
        if runs and index == runs[-1][-1] + 1:
            runs[-1].append(index)
        else:
            runs.append([index])
    return ", ".join(column_letter(r[0]) if len(r) == 1 else f"{column_letter(r[0])}-{column_letter(r[-1])}"
                     for r in runs)


# -- what the sheet says by itself -----------------------------------------------------------

def label(value: Any) -> str | None:
    """The role a header or label cell names ("Datum:" -> "date"), else None."""
    if not isinstance(value, str):
        return None
    word = " ".join(normalise(value).split()).casefold().rstrip(":").strip()
    return next((role for role, words in LABELS.items() if word in words), None)


def is_text(value: Any) -> bool:
    """A cell holding words (a name or a label), not a number, a date or nothing."""
    if not isinstance(value, str) or not value.strip():
        return False
    return not re.fullmatch(r"\s*[-+−]?\d+([.,]\d+)?\s*", value)


def is_number(value: Any) -> bool:
    if isinstance(value, bool):
        return False
    if isinstance(value, (int, float)):
        return True
    return isinstance(value, str) and bool(re.fullmatch(r"\s*[-+−]?\d+\s*", value))


def is_date(value: Any) -> bool:
    return isinstance(value, (datetime.date, datetime.datetime))


def is_header(row: tuple, exclude: set[int] = frozenset()) -> bool:
    """A row of at least two names (the players), not labels, dates or numbers."""
    names = [v for i, v in enumerate(row) if i not in exclude and is_text(v) and label(v) is None]
    return len(names) >= 2


def guess_header(rows: list[tuple]) -> int | None:
    """The 1-based number of the first header row: two names or more, and below it a row
    with a number (a Spiel) or nothing at all."""
    for index, row in enumerate(rows):
        if not is_header(row):
            continue
        below = rows[index + 1] if index + 1 < len(rows) else ()
        if not any(v is not None for v in below) or any(is_number(v) for v in below):
            return index + 1
    return None


@dataclass
class Layout:
    """The mapping as it applies to one sheet: every answer filled in."""

    header_row: int
    players: list[int]  # column indexes
    date_column: int | None = None
    date_cell: tuple[int, int] | None = None  # (row, column), 1-based row
    place_column: int | None = None
    place_cell: tuple[int, int] | None = None
    number_column: int | None = None
    ignored: list[int] = field(default_factory=list)
    guessed: list[str] = field(default_factory=list)  # which answers were guessed (for the report)

    def as_mapping(self, running_totals: bool) -> Mapping:
        def spot(column, cell):
            if cell is not None:
                return f"{column_letter(cell[1])}{cell[0]}"
            return column_letter(column) if column is not None else ""
        return Mapping(header_row=self.header_row, players=tuple(column_letter(i) for i in self.players),
                       date=spot(self.date_column, self.date_cell), place=spot(self.place_column, self.place_cell),
                       number=column_letter(self.number_column) if self.number_column is not None else "-",
                       ignore=tuple(column_letter(i) for i in self.ignored), running_totals=running_totals)


def effective(mapping: Mapping, rows: list[tuple]) -> Layout | None:
    """The mapping with every empty answer guessed from ``rows`` (one sheet's values); None
    when no header row can be found."""
    header_row = mapping.header_row or guess_header(rows)
    if header_row is None or header_row > len(rows):
        return None
    header = rows[header_row - 1]
    layout = Layout(header_row=header_row, players=[])
    if not mapping.header_row:
        layout.guessed.append("header_row")
    roles = {i: label(v) for i, v in enumerate(header)}
    ignored = {column_index(c) for c in mapping.ignore}
    layout.ignored = sorted(ignored | {i for i, role in roles.items() if role == "ignore" and not mapping.players})

    def column_of(answer: str, role: str) -> tuple[int | None, tuple[int, int] | None]:
        if answer == "-":
            return None, None
        if answer:
            found = CELL.match(answer)
            if found:
                return None, (int(found["row"]), column_index(found["column"]))
            return column_index(answer), None
        layout.guessed.append(role)
        return next((i for i, r in roles.items() if r == role and i not in ignored), None), None

    layout.number_column, _cell = column_of(mapping.number, "number")
    layout.date_column, layout.date_cell = column_of(mapping.date, "date")
    layout.place_column, layout.place_cell = column_of(mapping.place, "place")
    if layout.date_column is None and layout.date_cell is None and not mapping.date:
        layout.date_cell = _cell_above(rows, header_row, "date")
    if layout.place_column is None and layout.place_cell is None and not mapping.place:
        layout.place_cell = _cell_above(rows, header_row, "place")
    taken = {layout.number_column, layout.date_column, layout.place_column, *layout.ignored}
    if mapping.players:
        layout.players = [column_index(c) for c in mapping.players]
    else:
        layout.guessed.append("players")
        layout.players = [i for i, v in enumerate(header) if i not in taken and is_text(v) and roles[i] is None]
    return layout


def _cell_above(rows: list[tuple], header_row: int, role: str) -> tuple[int, int] | None:
    """The cell above the header that holds the date (place): right of a cell "Datum" ("Ort"),
    below it, or (a date) any date cell."""
    above = rows[: header_row - 1]
    for r, row in enumerate(above):
        for c, value in enumerate(row):
            if label(value) != role:
                continue
            for rr, cc in ((r, c + 1), (r, c + 2), (r + 1, c)):
                if rr < len(above) and cc < len(above[rr]) and above[rr][cc] not in (None, ""):
                    return rr + 1, cc
    if role == "date":
        for r, row in enumerate(above):
            for c, value in enumerate(row):
                if is_date(value):
                    return r + 1, c
    return None

