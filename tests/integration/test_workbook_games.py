"""The season workbook holds each game with its own columns: a game's Spiele sheet has the
columns every game has and the ones its plug-in names, asked of the registry when the workbook
is written; a workbook of several games has a Spiele sheet per game; the importer says which
games it can't bring back. Re-opened with openpyxl and read cell by cell."""

import datetime
import io

import pytest
from openpyxl import load_workbook

from league.models import Season
from league.spreadsheets.exports import match_xlsx, season_xlsx
from league.spreadsheets.imports import import_season
from protocol import games, matches, reading
from tests.integration.each_game import GAMES

COMMON = ["Partie", "Datum", "Spiel", "Stufe", "Spieler", "Punkte", "Stand", "Annulliert", "Grund der Annullierung"]
CHAOTENTRUMPF = ["Partie", "Datum", "Spiel", "Stufe", "Spieler", "Stiche", "Augen", "Trümpfe", "Trumpf",
                 "Trumpfwertung", "Punkte", "Stand", "Annulliert", "Aufgedeckte Karten", "Inversionen",
                 "Grund der Annullierung"]
YEAR = {"start": datetime.date(2026, 1, 1), "end": datetime.date(2026, 12, 31)}


def opened(data: bytes):
    return load_workbook(io.BytesIO(data))


def header(sheet) -> list:
    return list(next(sheet.iter_rows(max_row=1, values_only=True)))


def dicts(sheet) -> list[dict]:
    rows = sheet.iter_rows(values_only=True)
    names = next(rows)
    return [dict(zip(names, row, strict=True)) for row in rows if any(value is not None for value in row)]


def played(club, table, ruleset, season=None, deals=2, day=20, settings=None):
    """A Partie of ``ruleset`` of ``deals`` Spiele (each game's example), ended by time."""
    body = GAMES[ruleset]["game"]() if ruleset in GAMES else ruleset_game(table)
    return matches.create_match(club=club, date=datetime.date(2026, 11, day), members=table, scorekeeper=table[1],
                                settings=GAMES[ruleset]["settings"] if settings is None else settings,
                                season=season, ruleset=ruleset,
                                events=[{"game": body}] * deals + [{"end": {"reason": "time"}}])


def ruleset_game(table):
    return {"dealer": table[0].name, "points": {member.name: number for number, member in enumerate(table, start=3)}}


@pytest.fixture
def fourth():
    """The Zählspiel, the game kept under tests/ (tests/fourth_game/), listed for the test only."""
    games.install("zaehlspiel", "tests.fourth_game")
    yield "zaehlspiel"
    games.uninstall("zaehlspiel")


# -- a game without lines per player ------------------------------------------------------------

@pytest.mark.parametrize("ruleset", ["doppelkopf", "tarot"])
def test_a_season_of_a_game_without_lines_has_no_columns_of_another_game(club, table, ruleset):
    season = Season.objects.create(club=club, name="Abende", ruleset=ruleset, **YEAR)
    match = played(club, table, ruleset, season)
    book = opened(season_xlsx(club, season))
    assert book.sheetnames == ["Tabelle", "Partien", "Spiele", "Strafen"]
    assert header(book["Spiele"]) == COMMON
    rows = dicts(book["Spiele"])
    assert [(row["Spiel"], row["Spieler"]) for row in rows] == [(n, m.name) for n in (1, 2) for m in table]
    first = {row["Spieler"]: row["Punkte"] for row in rows if row["Spiel"] == 1}
    assert first == reading.BulkReading([match]).evaluation(match).match.games[0].points  # the engine's
    assert all(row["Stufe"] == "Partie" and row["Annulliert"] == "nein" for row in rows)
    assert [row["Stand"] for row in rows if row["Spiel"] == 2] == [2 * first[m.name] for m in table]


def test_one_partie_of_a_game_without_lines_has_its_own_workbook_of_its_columns(club, table):
    book = opened(match_xlsx(played(club, table, "tarot")))
    assert book.sheetnames == ["Partien", "Spiele", "Strafen"]
    assert header(book["Spiele"]) == COMMON and len(dicts(book["Spiele"])) == 8


# -- a club's workbook of several games --------------------------------------------------------

def test_a_club_workbook_of_two_games_has_a_spiele_sheet_for_each(club, table):
    liga = Season.objects.create(club=club, name="Liga", **YEAR)
    tarot = Season.objects.create(club=club, name="Tarot-Abende", ruleset="tarot", **YEAR)
    ours = played(club, table, "chaotentrumpf", liga, day=1)
    theirs = played(club, table, "tarot", tarot, day=2)
    book = opened(season_xlsx(club, None))
    assert [name for name in book.sheetnames if not name.startswith("Tabelle")] == [
        "Partien", "Spiele Chaotentrumpf", "Spiele Tarot", "Strafen"]  # the tables: one per game finished
    assert header(book["Spiele Chaotentrumpf"]) == CHAOTENTRUMPF
    assert header(book["Spiele Tarot"]) == COMMON
    assert {row["Partie"] for row in dicts(book["Spiele Chaotentrumpf"])} == {ours.pk}
    assert {row["Partie"] for row in dicts(book["Spiele Tarot"])} == {theirs.pk}
    assert all(row["Stiche"] is not None for row in dicts(book["Spiele Chaotentrumpf"]))


def test_a_season_of_one_game_keeps_the_one_spiele_sheet(club, table):
    season = Season.objects.create(club=club, name="Liga", **YEAR)
    played(club, table, "chaotentrumpf", season)
    book = opened(season_xlsx(club, season))
    assert book.sheetnames == ["Tabelle", "Partien", "Spiele", "Strafen"]
    assert header(book["Spiele"]) == CHAOTENTRUMPF


# -- a game installed: its columns are asked when the workbook is written ----------------------

def test_a_game_installed_later_brings_its_own_columns(club, table, fourth):
    match = played(club, table, fourth, settings={})
    book = opened(match_xlsx(match))
    assert header(book["Spiele"]) == COMMON[:8] + ["Geber"] + COMMON[8:]
    rows = dicts(book["Spiele"])
    assert [(row["Spieler"], row["Geber"], row["Punkte"]) for row in rows if row["Spiel"] == 1] == [
        (member.name, table[0].name, points) for points, member in enumerate(table, start=3)]
    assert dicts(book["Partien"])[0]["Spielart"] == "Zählspiel"


def test_a_club_workbook_names_the_installed_game_s_sheet_after_it(club, table, fourth):
    played(club, table, "chaotentrumpf", day=1)
    played(club, table, fourth, settings={}, day=2)
    book = opened(season_xlsx(club, None))
    assert "Spiele Zählspiel" in book.sheetnames and "Spiele Chaotentrumpf" in book.sheetnames
    assert "Geber" in header(book["Spiele Zählspiel"])
    assert "Geber" not in header(book["Spiele Chaotentrumpf"])


# -- the importer reads what it can and says what it can't --------------------------------------

def test_the_import_says_it_can_t_bring_in_a_game_kept_as_scores_only(club, table, empty_club):
    season = Season.objects.create(club=club, name="Tarot-Abende", ruleset="tarot", **YEAR)
    played(club, table, "tarot", season)
    report = import_season(season_xlsx(club, season), club=empty_club)
    assert not report.saved
    assert [str(problem) for problem in report.problems] == [
        "Partien, Zeile 2, Spalte O (Spielart): Eine Partie Tarot: Die Arbeitsmappe hält ihre Spiele nur als Punkte "
        "fest, nicht wie sie eingetragen wurden, daher kann sie nicht aus ihr importiert werden; aus einer "
        "Arbeitsmappe werden nur Partien Chaotentrumpf importiert."]
    assert not empty_club.matches.exists()


def test_the_import_says_it_can_t_read_an_installed_game_s_spiele(club, table, empty_club, fourth):
    report = import_season(match_xlsx(played(club, table, fourth, settings={})), club=empty_club)
    assert [problem.message for problem in report.problems] == [
        "Eine Partie Zählspiel, deren Spiele der Import aus einer Arbeitsmappe nicht lesen kann; aus einer "
        "Arbeitsmappe werden nur Partien Chaotentrumpf importiert."]


def test_the_import_reads_a_club_workbook_s_spiele_sheet_of_its_game(club, table, empty_club):
    played(club, table, "chaotentrumpf", day=1)
    played(club, table, "tarot", day=2)
    report = import_season(season_xlsx(club, None), club=empty_club, dry_run=True)
    # Spiele Chaotentrumpf is read as the Spiele sheet (nothing missing); the Tarot Partie (row 3) is named
    assert [(problem.sheet, problem.row, problem.column) for problem in report.problems] == [("Partien", 3, "O")]
    assert report.problems[0].message.startswith("Eine Partie Tarot: Die Arbeitsmappe hält ihre Spiele nur als Punkte")
    assert "Das Blatt „Spiele Tarot“ wird nicht eingelesen." in report.notes


def test_the_import_names_a_game_the_site_does_not_know(club, table, empty_club):
    from openpyxl import load_workbook as editable

    played(club, table, "chaotentrumpf")
    book = editable(io.BytesIO(season_xlsx(club, None)))
    book["Partien"]["O2"] = "Skat"
    buffer = io.BytesIO()
    book.save(buffer)
    report = import_season(buffer.getvalue(), club=empty_club)
    assert [str(problem) for problem in report.problems] == [
        "Partien, Zeile 2, Spalte O (Spielart): „Skat“ ist keine Spielart dieser Seite: Chaotentrumpf, Doppelkopf, "
        "Tarot."]
