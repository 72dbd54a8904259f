"""The season workbook with Spiele recorded as points only: each is written with its Punkte and
"nur Punkte" where the facts behind them stand, and read back as a Spiel recorded as points only
(Chaotentrumpf: the same documents and totals in a new club). Doppelkopf and Tarot, whose
workbook holds every Spiel as its scores only and which the import does not bring back, are
written as before with their points. Re-opened with openpyxl and read cell by cell."""

import datetime

import pytest

from league.models import Member, Season
from league.spreadsheets.exports import match_xlsx, season_xlsx
from league.spreadsheets.imports import import_season
from league.standings.ranking import standings
from protocol import matches, reading
from protocol.rules import evaluate
from tests.offline_documents import chaotentrumpf_documents, doppelkopf_documents, tarot_documents
from tests.season_workbooks import edited, opened, values
from tests.unit.points_only_documents import as_points, partie_with_stechen

YEAR = {"start": datetime.date(2026, 1, 1), "end": datetime.date(2026, 12, 31)}
FACTS = ("Stiche", "Augen", "Trümpfe", "Trumpfwertung")
STECHEN_SEED = 218  # partie_with_stechen: 40 Spiele, a Strafe, a Stechen of Carla and Dieter
COMMON = ["Partie", "Datum", "Spiel", "Stufe", "Spieler", "Punkte", "Stand", "Annulliert", "Grund der Annullierung"]


def dicts(sheet) -> list[dict]:
    rows = sheet.iter_rows(values_only=True)
    names = next(rows)
    return [dict(zip(names, row, strict=True)) for row in rows if any(value is not None for value in row)]


def spiele_in_order(workbook: bytes) -> list[list]:
    """The Spiele sheet's rows, the Partien numbered in order (ids differ between clubs)."""
    numbers: dict = {}
    rows = values(workbook)["Spiele"][1:]
    return [[numbers.setdefault(row[0], len(numbers) + 1), *row[1:]] for row in rows]


def finished(documents):
    return [document for _name, document in documents if evaluate(document).ok
            and evaluate(document).match.status == "finished"]


def record(club, season, document, day):
    members = {name: Member.objects.get_or_create(club=club, name=name)[0] for name in document["players"]}
    return matches.create_match(club=club, season=season, date=datetime.date(2026, 3, day),
                                members=[members[n] for n in document["players"]],
                                scorekeeper=members[document["scorekeeper"]], settings=document.get("settings", {}),
                                ruleset=document["ruleset"], events=document["events"])


def mixed_partien(ruleset):
    """Partien of ``ruleset``: one in full, one all as points (facts noted), one mixed."""
    source = {"chaotentrumpf": chaotentrumpf_documents, "doppelkopf": doppelkopf_documents,
              "tarot": tarot_documents}[ruleset]
    first, second, *_ = finished(source(6))
    return [first, as_points(second, keep_facts=True), as_points(first, every=2)]


def games_of(club):
    """Each Partie's Spiele as the engine reads them, and its totals, in date order."""
    found = []
    for match in club.matches.order_by("date", "pk"):
        document = reading.document(match)
        found.append(([e for e in document["events"]], document["players"], match.status,
                      reading.page(match).evaluation.match.totals))
    return found


@pytest.fixture
def chaotentrumpf_season(club):
    season = Season.objects.create(club=club, name="2026", **YEAR)
    for day, document in enumerate(mixed_partien("chaotentrumpf") + [as_points(partie_with_stechen(STECHEN_SEED),
                                                                                every=3)], 1):
        record(club, season, document, day)
    return season


def test_a_points_only_spiel_is_written_with_its_points_and_nur_punkte(club, chaotentrumpf_season):
    rows = dicts(opened(season_xlsx(club, chaotentrumpf_season))["Spiele"])
    only = [row for row in rows if row["Stiche"] == "nur Punkte"]
    full = [row for row in rows if row["Stiche"] != "nur Punkte"]
    assert only and full
    assert all(row[fact] == "nur Punkte" for row in only for fact in FACTS)
    assert all(isinstance(row["Punkte"], int) and isinstance(row["Stand"], int) for row in only)
    assert any(row["Trumpf"] for row in only)  # a trump noted beside the points is written too
    assert all(isinstance(row["Stiche"], int) and row["Trumpfwertung"] in ("ja", "nein")
               for row in full if row["Punkte"] is not None)


def test_a_season_with_points_only_spiele_comes_back_the_same(club, chaotentrumpf_season, empty_club):
    workbook = season_xlsx(club, chaotentrumpf_season)
    report = import_season(workbook, club=empty_club)
    assert report.ok and report.saved, [str(p) for p in report.problems]
    assert games_of(empty_club) == games_of(club)  # the same documents (points only as points only) and totals
    imported = Season.objects.get(club=empty_club)
    assert ([(r.name, r.games, r.points, r.won, r.tiebreaks, r.trump_bonuses, r.points_only_games)
             for r in standings(empty_club, imported)]
            == [(r.name, r.games, r.points, r.won, r.tiebreaks, r.trump_bonuses, r.points_only_games)
                for r in standings(club, chaotentrumpf_season)])
    assert any(r.points_only_games for r in standings(empty_club, imported))
    assert spiele_in_order(season_xlsx(empty_club, imported)) == spiele_in_order(workbook)


def only_row(workbook):
    """The sheet row number and cells of the first line of a Spiel written as points only."""
    sheet = values(workbook)["Spiele"]
    head = sheet[0]
    number = next(n for n, row in enumerate(sheet[1:], start=2) if row[head.index("Stiche")] == "nur Punkte")
    return number, {title: chr(ord("A") + i) for i, title in enumerate(head)}


def test_a_changed_point_of_a_points_only_spiel_is_checked_by_the_rules(club, chaotentrumpf_season, empty_club):
    workbook = season_xlsx(club, chaotentrumpf_season)
    number, letter = only_row(workbook)
    spoiled = edited(workbook, {("Spiele", f"{letter['Punkte']}{number}"): 2001})
    report = import_season(spoiled, club=empty_club)
    assert not report.saved and not empty_club.matches.exists()
    assert any(f"Spalte {letter['Punkte']} (Punkte)" in str(p) and "Art. 13a, 16a, 16b" in str(p)
               for p in report.problems), [str(p) for p in report.problems]


def test_a_line_half_as_points_only_is_named_at_its_cell(club, chaotentrumpf_season, empty_club):
    workbook = season_xlsx(club, chaotentrumpf_season)
    number, letter = only_row(workbook)
    report = import_season(edited(workbook, {("Spiele", f"{letter['Augen']}{number}"): 40}), club=empty_club)
    assert not report.saved
    assert any(f"Zeile {number}, Spalte {letter['Augen']} (Augen)" in str(p) and "nur Punkte" in str(p)
               for p in report.problems), [str(p) for p in report.problems]


def test_a_spiel_half_as_points_only_is_refused(club, chaotentrumpf_season, empty_club):
    workbook = season_xlsx(club, chaotentrumpf_season)
    number, letter = only_row(workbook)
    row = number + 1  # the next player of the same Spiel, as a full line
    report = import_season(edited(workbook, {("Spiele", f"{letter[title]}{row}"): value for title, value in
                                             (("Stiche", 2), ("Augen", 20), ("Trümpfe", 0), ("Trumpfwertung", "nein"))}),
                           club=empty_club)
    assert not report.saved
    assert any("nicht beides" in str(p) for p in report.problems), [str(p) for p in report.problems]


def test_the_trumpfwertung_of_a_points_only_spiel_is_not_stated(club, chaotentrumpf_season, empty_club):
    workbook = season_xlsx(club, chaotentrumpf_season)
    number, letter = only_row(workbook)
    report = import_season(edited(workbook, {("Spiele", f"{letter['Trumpfwertung']}{number}"): "ja"}), club=empty_club)
    assert not report.saved
    assert any(f"Spalte {letter['Trumpfwertung']}" in str(p) and "nur Punkte" in str(p) for p in report.problems)


@pytest.mark.parametrize("ruleset", ["doppelkopf", "tarot"])
def test_a_game_without_lines_writes_its_points_only_spiele_with_their_points(club, ruleset, empty_club):
    season = Season.objects.create(club=club, name="Abende", ruleset=ruleset, **YEAR)
    recorded = [record(club, season, document, day) for day, document in enumerate(mixed_partien(ruleset), 1)]
    workbook = season_xlsx(club, season)
    rows = dicts(opened(workbook)["Spiele"])
    assert next(opened(workbook)["Spiele"].iter_rows(max_row=1, values_only=True)) == tuple(COMMON)
    for match in recorded:
        computed = reading.page(match).evaluation.match
        written = [(row["Spiel"], row["Spieler"], row["Punkte"]) for row in rows if row["Partie"] == match.pk]
        assert written == [(game.number, player, game.points[player] if game.points else None)
                           for game in computed.games for player in computed.players]
    assert all(row["Punkte"] is not None for row in rows)
    assert opened(match_xlsx(recorded[1]))["Spiele"].max_row > 1
    report = import_season(workbook, club=empty_club)  # as before: the import does not bring these back
    assert not report.saved and "Spielart" in str(report.problems[0])


def test_a_club_workbook_of_the_three_games_writes_each_games_points_only_spiele(club):
    seasons = {}
    for day, ruleset in enumerate(("chaotentrumpf", "doppelkopf", "tarot"), 1):
        seasons[ruleset] = Season.objects.create(club=club, name=f"Abende {ruleset}", ruleset=ruleset, **YEAR)
        record(club, seasons[ruleset], mixed_partien(ruleset)[2], day)
    book = opened(season_xlsx(club, None))
    assert {"Spiele Chaotentrumpf", "Spiele Doppelkopf", "Spiele Tarot"} <= set(book.sheetnames)
    assert any(row["Augen"] == "nur Punkte" for row in dicts(book["Spiele Chaotentrumpf"]))
    for ruleset in ("doppelkopf", "tarot"):
        match = club.matches.get(ruleset=ruleset)
        rows = dicts(book[f"Spiele {ruleset.capitalize()}"])
        assert [row["Stand"] for row in rows][-len(match.seats.all()):] == [
            reading.page(match).evaluation.match.totals[seat.name] for seat in match.seats.order_by("position")]
