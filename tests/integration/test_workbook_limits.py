"""Season workbooks larger than any season's are refused before they hold a worker.

Found: a 9.5 KB workbook gave a 3 MB page (an unread column's header repeated in full, for
every column), a 100,000 × 1,000 sheet ran 31 s into the worker timeout. Now the archive's
unpacked size and each sheet's stated size are checked before reading, rows, columns and
cells are counted while reading (a stated size may lie), echoed cell text is cut, notes and
problems are counted beyond a screenful, and the upload page reads only what a request can
in time, naming the command for more.
"""

import datetime
import io
import re
import time
import zipfile

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from openpyxl import load_workbook

from league.models import Club, Member, Season
from league.spreadsheets.exports import season_xlsx
from league.spreadsheets.imports import Limits, WorkbookTooLarge, import_season
from league.spreadsheets.workbook import ECHO_MAX, NOTES_MAX, PROBLEMS_MAX
from protocol import matches
from protocol.models import Match
from tests.unit.builders import quiet

FOUR = ["Anna", "Bernd", "Carla", "Dieter"]
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


@pytest.fixture
def workbook(club):
    """A small season's export (two Partien of three Spiele), and the club then emptied."""
    season = Season.objects.create(club=club, name="2026", start=datetime.date(2026, 1, 1),
                                   end=datetime.date(2026, 12, 31))
    four = [Member.objects.create(club=club, name=name) for name in FOUR]
    for day in (3, 10):
        matches.create_match(club=club, date=datetime.date(2026, 2, day), members=four, scorekeeper=four[0],
                             settings={}, season=season, events=[quiet()] * 3)
    data = season_xlsx(club, season)
    Match.objects.all().delete()
    return data


@pytest.fixture
def other_club(db):
    return Club.objects.create(name="Skatfreunde Wendlingen", slug="wendlingen")


def changed(data: bytes, edit) -> bytes:
    book = load_workbook(io.BytesIO(data))
    edit(book)
    buffer = io.BytesIO()
    book.save(buffer)
    return buffer.getvalue()


def members_rewritten(data: bytes, rewrite) -> bytes:
    """The archive with each member's bytes passed through ``rewrite(name, bytes)``."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as source, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for info in source.infolist():
            target.writestr(info.filename, rewrite(info.filename, source.read(info.filename)))
    return out.getvalue()


def sheet_member(data: bytes, title: str) -> str:
    """The archive member of the sheet ``title`` (xl/worksheets/sheetN.xml)."""
    book = load_workbook(io.BytesIO(data), read_only=True)
    return f"xl/worksheets/sheet{book.sheetnames.index(title) + 1}.xml"


def stated(data: bytes, title: str, ref: str | None) -> bytes:
    """The workbook with the sheet's stated size (``<dimension ref=…>``) replaced, or removed (None)."""
    member = sheet_member(data, title)

    def rewrite(name, raw):
        if name != member:
            return raw
        text = raw.decode()
        if ref is None:
            return re.sub(r"<dimension [^>]*/>", "", text).encode()
        if "<dimension " not in text:
            text = text.replace("<sheetData", f'<dimension ref="{ref}"/><sheetData', 1)
        return re.sub(r'<dimension ref="[^"]*"\s*/>', f'<dimension ref="{ref}"/>', text).encode()
    return members_rewritten(data, rewrite)


# -- echoed text, notes, problems -------------------------------------------------------------

def test_an_unread_columns_header_is_repeated_cut_and_such_notes_are_counted(workbook, other_club):
    def wide_header(book):
        sheet = book["Spiele"]
        for column in range(30, 130):
            sheet.cell(row=1, column=column, value="Kommentar " + "sehr lang " * 3000)
    data = changed(workbook, wide_header)
    report = import_season(data, club=other_club, dry_run=True)
    assert len(report.notes) <= NOTES_MAX + 1 and "weitere Hinweise" in report.notes[-1]
    assert all(len(note) < 200 for note in report.notes) and "…" in report.notes[0]


def test_a_long_cell_is_cut_where_a_problem_repeats_it(workbook, other_club):
    def long_trump(book):
        trump = [cell.value for cell in book["Spiele"][1]].index("Trumpf") + 1
        for row in range(2, 6):  # the four lines of the first Spiel
            book["Spiele"].cell(row=row, column=trump, value="Kreuz" * 20_000)
    data = changed(workbook, long_trump)
    report = import_season(data, club=other_club, dry_run=True)
    assert report.problems and all(len(problem.message) < 700 for problem in report.problems)
    assert any("Kreuz" * 5 in p.message and "…" in p.message for p in report.problems), report.problems


def test_a_workbook_with_very_many_problems_lists_a_screenful_and_counts_the_rest(workbook, other_club):
    def many_bad_rows(book):
        sheet = book["Partien"]
        for row in range(1300):
            sheet.append([5000 + row, "gestern"])
    report = import_season(changed(workbook, many_bad_rows), club=other_club, dry_run=True)
    assert len(report.problems) == PROBLEMS_MAX + 1 and "weitere Probleme" in report.problems[-1].message


# -- sizes: stated, counted, unpacked ---------------------------------------------------------

def test_a_sheet_stating_100000_rows_by_1000_columns_is_refused_before_it_is_read(workbook, other_club):
    data = stated(workbook, "Spiele", "A1:ALL100000")
    started = time.perf_counter()
    with pytest.raises(WorkbookTooLarge, match="„Spiele“ ist zu groß: 100.000 Zeilen × 1.000 Spalten"):
        import_season(data, club=other_club, dry_run=True)
    assert time.perf_counter() - started < 5


# Limits small enough to reach in a test (the real ones are a federation's season).
ROWS = Limits(rows={"matches": 100, "games": 8_000, "sanctions": 2_000, "table": 2_000}, columns=200,
              cells=200_000, unpacked=60 * 1024 * 1024)


@pytest.mark.parametrize("ref", [None, "A1:B2"])
def test_rows_beyond_the_limit_are_counted_when_the_stated_size_is_missing_or_lies(workbook, other_club, ref):
    def long_sheet(book):
        sheet = book["Spiele"]
        for _ in range(ROWS.rows["games"] + 5):
            sheet.append([1, "01.02.2026", 1, "Anna"])
    data = stated(changed(workbook, long_sheet), "Spiele", ref)
    with pytest.raises(WorkbookTooLarge, match="„Spiele“ ist zu groß: mehr als 8.000 Zeilen"):
        import_season(data, club=other_club, dry_run=True, limits=ROWS)


def test_a_row_beyond_the_last_column_is_refused_while_reading(workbook, other_club):
    data = stated(changed(workbook, lambda book: book["Partien"].cell(row=2, column=300, value="x")), "Partien",
                  "A1:B2")
    with pytest.raises(WorkbookTooLarge, match="Zeile 2 hat mehr als 200 Spalten"):
        import_season(data, club=other_club, dry_run=True)


def test_a_zip_bomb_is_refused_before_it_is_unpacked(workbook, other_club):
    def bomb(name, raw):
        return raw + b" " * (80 * 1024 * 1024) if name == "xl/sharedStrings.xml" or name.endswith("sheet1.xml") \
            else raw
    data = members_rewritten(workbook, bomb)
    assert len(data) < 2 * 1024 * 1024
    with pytest.raises(WorkbookTooLarge, match="entpackt"):
        import_season(data, club=other_club, dry_run=True)


# -- fuzz: generated oversized workbooks ------------------------------------------------------

SMALL = Limits(rows={"matches": 20, "games": 60, "sanctions": 20, "table": 20}, columns=24, cells=3_000,
               unpacked=2 * 1024 * 1024, advice="Bitte den Befehl nehmen.")


@pytest.mark.django_db
def test_generated_oversized_workbooks_are_refused_or_read_never_an_error(workbook, other_club):
    @settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
    @given(sheet=st.sampled_from(["Partien", "Spiele", "Strafen", "Tabelle", "Fremd"]),
           rows=st.integers(0, 90), columns=st.integers(1, 40), text=st.integers(0, 5_000),
           ref=st.sampled_from([None, "keep", "A1:B2", "A1:XFD1048576", "A1:Z70"]))
    def oversized(sheet, rows, columns, text, ref):
        def grow(book):
            target = book[sheet] if sheet in book.sheetnames else book.create_sheet(sheet)
            for _ in range(rows):
                target.append([("x" * text if column == 0 else column) for column in range(columns)])
        data = changed(workbook, grow)
        if ref != "keep" and sheet != "Fremd":
            data = stated(data, sheet, ref)
        try:
            report = import_season(data, club=other_club, dry_run=True, limits=SMALL)
        except WorkbookTooLarge as refused:
            message = str(refused)
            assert len(message) < 400 and "Bitte den Befehl nehmen." in message
            return
        assert not report.saved
        assert len(report.notes) <= NOTES_MAX + 1 and len(report.problems) <= PROBLEMS_MAX + 1
        assert all(len(note) < 300 for note in report.notes)
        assert all(len(p.message) <= 700 and len(p.header) <= ECHO_MAX + 1 for p in report.problems)
    oversized()
    assert not Match.objects.exists()
