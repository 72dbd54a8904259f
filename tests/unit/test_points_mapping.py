"""league.spreadsheets.points_mapping: the columns of a club's own points list, as the
secretary writes them and as they are guessed from the sheet (no database)."""

import datetime

import pytest

from league.spreadsheets.points_lists import Line, ListedPartie, as_differences, points, running_totals_hint
from league.spreadsheets.points_mapping import (
    Mapping,
    MappingError,
    columns_text,
    effective,
    guess_header,
    parse_columns,
    parse_spot,
)

SHEET = [("Punkteliste Herbst", None, None, None, None),
         ("Datum:", datetime.datetime(2026, 3, 6), None, "Ort:", "Krone"),
         (None, None, None, None, None),
         ("Spiel", "Anna", "Bernd", "Carla", "Bemerkung"),
         (1, 20, -200, 55, "Geber Anna"),
         (2, 31, 12, 0, None)]


def test_columns_are_read_as_letters_and_ranges():
    assert parse_columns("b-d, G;h", "Spieler") == ("B", "C", "D", "G", "H")
    assert columns_text(("B", "C", "D", "G", "H")) == "B-D, G-H"
    assert parse_spot(" b1 ", "Datum") == "B1" and parse_spot("c", "Ort") == "C"
    assert parse_spot("-", "Nr", none_allowed=True) == "-"


@pytest.mark.parametrize("text", ["B-", "1", "E-B", "Anna", "ZZ"])
def test_a_wrong_column_is_said_in_german(text):
    with pytest.raises(MappingError, match="Spalte"):
        parse_columns(text, "Spieler")


def test_a_wrong_spot_is_said_in_german():
    with pytest.raises(MappingError, match="weder eine Spalte"):
        parse_spot("B1:C2", "Datum")


def test_a_typical_sheet_needs_no_answer():
    assert guess_header(SHEET) == 4
    layout = effective(Mapping(), SHEET)
    assert layout.as_mapping(False).shown() == {"header_row": "4", "players": "B-D", "date": "B2", "place": "E2",
                                                 "number": "A", "ignore": "E", "running_totals": "nein"}


def test_an_answer_wins_over_the_guess():
    layout = effective(Mapping(players=("B", "C")), SHEET)
    assert layout.players == [1, 2] and "players" not in layout.guessed
    assert effective(Mapping(number="-", date="A", header_row=4), SHEET).as_mapping(False).shown()["date"] == "A"


@pytest.mark.parametrize("value, read", [(12, (12, None)), ("-20", (-20, None)), (" +5 ", (5, None)), (None, (None, None)),
                                         (3.0, (3, None))])
def test_points_as_typed(value, read):
    assert points(value) == read


@pytest.mark.parametrize("value, said", [("zwölf", "keine Zahl"), (2.5, "keine ganze Zahl"), (True, "keine Zahl")])
def test_points_that_are_none(value, said):
    number, problem = points(value)
    assert number is None and said in problem


def partie(rows):
    names = {1: "Anna", 2: "Bernd"}
    return ListedPartie("Blatt", 0, "Blatt", 1, names,
                        [Line(n, dict(zip(names.values(), row)), {}) for n, row in enumerate(rows, 2)])


def test_rows_that_only_grow_look_like_running_totals():
    assert running_totals_hint(partie([(10, 5), (30, 5), (45, 20)]))
    assert not running_totals_hint(partie([(10, 5), (30, 5)]))  # two rows say nothing
    assert not running_totals_hint(partie([(10, 5), (3, 50), (45, 20)]))


def test_running_totals_become_the_points_of_each_spiel():
    listed = partie([(10, 5), (30, None), (45, 20)])
    as_differences(listed)
    assert [line.points for line in listed.lines] == [{"Anna": 10, "Bernd": 5}, {"Anna": 20, "Bernd": None},
                                                      {"Anna": 15, "Bernd": 15}]


def test_the_mapping_loads_no_openpyxl():
    """The page imports the mapping while the site loads; reading a workbook (openpyxl) waits for the job."""
    import subprocess
    import sys
    from pathlib import Path

    code = "import sys, league.spreadsheets.points_mapping; assert 'openpyxl' not in sys.modules"
    subprocess.run([sys.executable, "-c", code], check=True, cwd=Path(__file__).resolve().parents[2])


def test_loading_the_site_loads_no_openpyxl():
    """The apps register their workbook jobs without reading or writing a workbook."""
    import subprocess
    import sys
    from pathlib import Path

    code = ("import os, sys, django; os.environ.setdefault('DJANGO_SETTINGS_MODULE', 'config.settings'); "
            "django.setup(); assert 'openpyxl' not in sys.modules, 'openpyxl loaded'")
    subprocess.run([sys.executable, "-c", code], check=True, cwd=Path(__file__).resolve().parents[2])
