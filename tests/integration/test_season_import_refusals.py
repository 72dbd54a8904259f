"""league.spreadsheets.imports: what the engine and the date check refuse in a season workbook, named at its cell."""

import datetime

import pytest
from openpyxl.utils import get_column_letter

from league.spreadsheets.imports import import_season
from tests.season_workbooks import cell_of, counts, edited, values


@pytest.mark.parametrize("day", [datetime.date(9999, 12, 31), "31.12.9999", datetime.date(1949, 12, 31)])
def test_a_partie_dated_9999_or_before_1950_is_named_at_its_date_and_nothing_is_saved(workbook, empty_club, day):
    sheets = values(workbook)
    before = counts()
    report = import_season(edited(workbook, {("Partien", cell_of(sheets, "Partien", "Datum", 2)): day}),
                           club=empty_club)
    assert not report.saved and counts() == before
    (problem,) = [p for p in report.problems if "kann nicht stimmen" in p.message]
    assert (problem.sheet, problem.row) == ("Partien", 2)


def test_an_annulled_spiel_without_its_reason_is_refused_by_the_engine(workbook, empty_club):
    """The engine asks for the reason, not only the forms: a workbook must not store annulments without one."""
    spiele = values(workbook)["Spiele"]
    reasons = {("Spiele", f"{get_column_letter(j + 1)}{i + 1}"): None for i, row in enumerate(spiele)
               for j, value in enumerate(row) if value == "Karten falsch ausgeteilt"}
    assert reasons  # the simulated season has annulled Spiele
    before = counts()
    report = import_season(edited(workbook, reasons), club=empty_club)
    assert not report.saved and counts() == before and report.problems
    assert all(p.sheet == "Spiele" and "Ein annulliertes Spiel braucht einen Grund (SV 4)" in p.message
               for p in report.problems)
