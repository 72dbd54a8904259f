"""The season as a spreadsheet: re-opened with openpyxl and checked cell by cell."""

import datetime
import io
import random
import tempfile
import tracemalloc
from collections import defaultdict

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse
from openpyxl import Workbook, load_workbook

from league.models import Season
from league.spreadsheets.exports import DATE, INTEGER, SIGNED, Column, Sheet, match_xlsx, season_xlsx, write_season
from league.standings.ranking import standings
from protocol import matches
from protocol.games.chaotentrumpf.simulation import simulate_match
from tests.standings_season import NAMES, play

HEADERS = {
    "Tabelle": ["Platz", "Mitglied", "Partien", "Siege", "Spiele", "Punkte", "Punkte je Spiel × 100",
                "Stechen", "Stechen gewonnen", "Strafen", "Strafpunkte", "Verwarnungen", "Disqualifikationen"],
    "Partien": ["Nr.", "Datum", "Ort", "Saison", "Spieler", "Protokollant", "Sieger", "Status", "Ergebnis",
                "Ausgang", "Spiele", "Vereinbarungen", "Ende", "Grund der Annullierung", "Spielart"],
    "Spiele": ["Partie", "Datum", "Spiel", "Stufe", "Spieler", "Stiche", "Augen", "Trümpfe", "Trumpf",
               "Trumpfwertung", "Punkte", "Stand", "Annulliert", "Aufgedeckte Karten", "Inversionen",
               "Grund der Annullierung"],
    "Strafen": ["Partie", "Datum", "Spieler", "Art", "Abzug", "Nach Spiel", "Stufe", "Grund",
                "Entschieden von", "Eintrag"],
}


def opened(data: bytes):
    return load_workbook(io.BytesIO(data))


def rows(sheet):
    """The data rows below the header, up to the first empty row."""
    result = []
    for row in sheet.iter_rows(min_row=2, values_only=True):
        if all(value is None for value in row):
            break
        result.append(list(row))
    return result


def dicts(sheet):
    header = [cell.value for cell in sheet[1]]
    return [dict(zip(header, row)) for row in rows(sheet)]


@pytest.fixture
def workbook(club, known_season):
    return opened(season_xlsx(club, known_season))


# ---------- The workbook and its sheets ----------

def test_the_season_workbook_has_four_sheets_with_german_headers(workbook):
    assert workbook.sheetnames == ["Tabelle", "Partien", "Spiele", "Strafen"]
    for name, header in HEADERS.items():
        assert [cell.value for cell in workbook[name][1]] == header, name


@pytest.mark.parametrize("name", list(HEADERS))
def test_every_sheet_has_a_bold_frozen_header_an_autofilter_and_column_widths(workbook, name):
    sheet = workbook[name]
    assert all(cell.font.b for cell in sheet[1])
    assert sheet.freeze_panes == "A2"
    last = chr(ord("A") + len(HEADERS[name]) - 1)
    assert sheet.auto_filter.ref == f"A1:{last}{len(rows(sheet)) + 1}"
    widths = [sheet.column_dimensions[chr(ord("A") + i)].width for i in range(len(HEADERS[name]))]
    assert all(5 <= width <= 45 for width in widths)


def test_the_table_sheet_is_the_table_as_shown_cell_by_cell(club, known_season, workbook):
    sheet = workbook["Tabelle"]
    expected = [[r.rank, r.name, r.played, r.won, r.games, r.points, r.ppg, r.tiebreaks, r.tiebreaks_won,
                 r.penalties, r.penalty_points, r.warnings, r.disqualifications]
                for r in standings(club, known_season)]
    assert rows(sheet) == expected
    assert rows(sheet)[0][:7] == [1, "Anna", 3, 2, 7, 2327, 33243]
    carla = rows(sheet)[3]
    assert carla[1] == "Carla" and carla[5] == -1379 and carla[9:11] == [1, 200]
    assert all(isinstance(value, int) for row in rows(sheet) for i, value in enumerate(row) if i != 1)
    assert sheet["F2"].number_format == "#,##0;[Red]-#,##0"
    note = sheet.cell(row=len(expected) + 3, column=1).value
    assert "Saison 2026 (01.01.2026 – 31.12.2026)" in note
    assert "Sortiert nach gewonnenen Partien, dann nach Punkten je Spiel × 100." in note


def test_the_partien_sheet_has_one_row_per_partie(club, known_season, workbook):
    sheet = workbook["Partien"]
    partien = dicts(sheet)
    assert len(partien) == 4
    first, stechen, annulled, last = partien
    match = club.matches.get(date=datetime.date(2026, 3, 1))
    assert first == {"Nr.": match.pk, "Datum": datetime.datetime(2026, 3, 1), "Ort": None, "Saison": "2026",
                     "Spieler": "Anna, Bernd, Carla, Dieter", "Protokollant": "Anna", "Sieger": "Anna",
                     "Status": "beendet", "Ergebnis": "vorläufig", "Ausgang": "Obergrenze überschritten (Art. 17a)",
                     "Spiele": 1,
                     "Vereinbarungen": None, "Ende": None, "Grund der Annullierung": None, "Spielart": "Chaotentrumpf"}
    assert sheet["B2"].number_format == "DD.MM.YYYY" and sheet["B2"].is_date
    assert (stechen["Sieger"], stechen["Ausgang"], stechen["Spiele"]) == ("Anna", "Stechen entschieden (Art. 17b)", 5)
    assert (annulled["Status"], annulled["Sieger"], annulled["Ausgang"]) == ("annulliert", None, "Partie annulliert (SV 4)")
    assert annulled["Grund der Annullierung"] == "Karten unvollständig"
    assert (last["Sieger"], last["Spiele"]) == ("Bernd", 2)


def test_the_spiele_sheet_has_one_row_per_player_per_spiel(club, known_season, workbook):
    games = dicts(workbook["Spiele"])
    first = club.matches.get(date=datetime.date(2026, 3, 1)).pk
    sweep = [g for g in games if g["Partie"] == first]
    assert sweep == [
        {"Partie": first, "Datum": datetime.datetime(2026, 3, 1), "Spiel": 1, "Stufe": "Partie", "Spieler": "Anna",
         "Stiche": 10, "Augen": 312, "Trümpfe": 12, "Trumpf": "Wert As", "Trumpfwertung": "ja", "Punkte": 1248,
         "Stand": 1248, "Annulliert": "nein", "Aufgedeckte Karten": None, "Inversionen": None,
         "Grund der Annullierung": None},
        *[{"Partie": first, "Datum": datetime.datetime(2026, 3, 1), "Spiel": 1, "Stufe": "Partie", "Spieler": name,
           "Stiche": 0, "Augen": 0, "Trümpfe": 0, "Trumpf": "Wert As", "Trumpfwertung": "nein", "Punkte": -200,
           "Stand": -200, "Annulliert": "nein", "Aufgedeckte Karten": None, "Inversionen": None,
           "Grund der Annullierung": None} for name in ("Bernd", "Carla", "Dieter")],
    ]
    stechen = club.matches.get(date=datetime.date(2026, 3, 2)).pk
    tiebreak = [g for g in games if g["Partie"] == stechen and g["Stufe"] != "Partie"]
    assert [(g["Spiel"], g["Stufe"], g["Spieler"], g["Punkte"], g["Stand"]) for g in tiebreak] == [
        (5, "1. Stechen", "Anna", 20 + 110, 130), (5, "1. Stechen", "Bernd", -200, -200)]
    # The Partie of 4 March: Dieter is disqualified after Spiel 1 and has no line in Spiel 2.
    last = club.matches.get(date=datetime.date(2026, 3, 4)).pk
    assert [g["Spieler"] for g in games if g["Partie"] == last and g["Spiel"] == 2] == ["Anna", "Bernd", "Carla"]


def test_the_strafen_sheet_lists_strafen_warnings_and_disqualifications(club, known_season, workbook):
    last = club.matches.get(date=datetime.date(2026, 3, 4)).pk
    assert dicts(workbook["Strafen"]) == [
        {"Partie": last, "Datum": datetime.datetime(2026, 3, 4), "Spieler": "Carla", "Art": "Strafe", "Abzug": 200,
         "Nach Spiel": 1, "Stufe": "Partie", "Grund": "getauscht", "Entschieden von": None, "Eintrag": 2},
        {"Partie": last, "Datum": datetime.datetime(2026, 3, 4), "Spieler": "Dieter", "Art": "Disqualifikation",
         "Abzug": 0, "Nach Spiel": 1, "Stufe": "Partie", "Grund": "wiederholt", "Entschieden von": None,
         "Eintrag": 3},
    ]


def test_every_point_in_the_table_is_the_sum_of_the_spiele_and_strafen_sheets(club, season, table):
    rng = random.Random(3)
    for day in range(1, 9):
        play(club, season, table, simulate_match(NAMES, rng, penalty_rate=0.06, annul_rate=0.05)["events"], day)
    book = opened(season_xlsx(club, season))
    counted = {p["Nr."] for p in dicts(book["Partien"]) if p["Status"] == "beendet"}
    points, games = defaultdict(int), defaultdict(int)
    for g in dicts(book["Spiele"]):
        if g["Partie"] in counted and g["Stufe"] == "Partie" and g["Annulliert"] == "nein":
            points[g["Spieler"]] += g["Punkte"]
            games[g["Spieler"]] += 1
    for s in dicts(book["Strafen"]):
        if s["Partie"] in counted and s["Stufe"] == "Partie":
            points[s["Spieler"]] -= s["Abzug"]
    table_rows = dicts(book["Tabelle"])
    assert len(table_rows) == 4
    for row in table_rows:
        assert (row["Punkte"], row["Spiele"]) == (points[row["Mitglied"]], games[row["Mitglied"]]), row["Mitglied"]


def test_all_seasons_give_the_all_time_table_and_every_partie(club, known_season, table):
    older = Season.objects.create(club=club, name="2025", start=datetime.date(2025, 1, 1),
                                  end=datetime.date(2025, 12, 31))
    play(club, older, table, [{"game": {"trump": {"level": "rank", "value": "A"}, "results": {
        "Carla": {"tricks": 10, "points": 312, "trumps": 12}, "Anna": {"tricks": 0, "points": 0, "trumps": 0},
        "Bernd": {"tricks": 0, "points": 0, "trumps": 0}, "Dieter": {"tricks": 0, "points": 0, "trumps": 0}}}}], 9)
    matches.create_match(club=club, date=datetime.date(2026, 5, 1), members=table, scorekeeper=table[0],
                         settings={})  # without a season
    book = opened(season_xlsx(club, None))
    assert [r[1] for r in rows(book["Tabelle"])] == [r.name for r in standings(club, None)]
    assert len(rows(book["Partien"])) == 6
    assert {p["Saison"] for p in dicts(book["Partien"])} == {"2025", "2026", None}
    assert "alle Saisons" in book["Tabelle"].cell(row=len(rows(book["Tabelle"])) + 3, column=1).value


def test_one_partie_has_its_own_workbook(club, known_season):
    match = club.matches.get(date=datetime.date(2026, 3, 4))
    book = opened(match_xlsx(match))
    assert book.sheetnames == ["Partien", "Spiele", "Strafen"]
    assert [p["Nr."] for p in dicts(book["Partien"])] == [match.pk]
    assert len(rows(book["Spiele"])) == 4 + 3
    assert len(rows(book["Strafen"])) == 2


def test_a_number_column_keeps_each_rows_own_value_and_its_empty_cells_empty():
    # A column writes its numbers and dates through one cell it keeps (a style per value was as slow as the writing): a row after
    # a row with a value has its own value, and an empty value stays an empty cell.
    workbook = Workbook(write_only=True)
    sheet = Sheet(workbook, "Spiele", [Column("Spiel", 7, INTEGER), Column("Datum", 11, DATE),
                                       Column("Punkte", 9, SIGNED)])
    sheet.append([1, datetime.date(2026, 3, 1), -200])
    sheet.append([None, None, None])
    sheet.append([3, datetime.date(2026, 3, 4), 1248])
    sheet.close()
    buffer = io.BytesIO()
    workbook.save(buffer)
    written = opened(buffer.getvalue())["Spiele"]
    assert [[c.value for c in row] for row in written.iter_rows(min_row=2)] == [
        [1, datetime.datetime(2026, 3, 1), -200], [None, None, None], [3, datetime.datetime(2026, 3, 4), 1248]]
    assert [c.number_format for c in written[4]] == [INTEGER, DATE, SIGNED]
    assert [c.has_style for c in written[3]] == [False, False, False]


# ---------- Memory stays flat ----------

def _peak(club, season):
    with tempfile.TemporaryFile() as file:
        tracemalloc.start()
        write_season(club, season, file)
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    return peak


def test_a_large_season_is_written_in_about_the_memory_of_a_small_one(club, season, table):
    rng = random.Random(21)
    for day in range(1, 4):
        play(club, season, table, simulate_match(NAMES, rng)["events"], day)
    _peak(club, season)  # imports and caches warm up once
    small = _peak(club, season)
    for day in range(4, 16):
        play(club, season, table, simulate_match(NAMES, rng)["events"], day)
    large = _peak(club, season)
    print(f"xlsx peak memory: 3 Partien {small / 1e6:.2f} MB, 15 Partien {large / 1e6:.2f} MB")
    assert large < 1.5 * small + 512 * 1024


# ---------- Downloads and the command ----------

@pytest.mark.django_db(transaction=True)
def test_the_season_export_runs_in_the_background_and_ends_in_an_xlsx_download(member_client, club, known_season,
                                                                                run_worker):
    response = member_client.post(reverse("export_season", kwargs={"slug": club.slug, "pk": known_season.pk}))
    job = club.jobs.get()
    assert response.status_code == 302 and response["Location"] == reverse("job", kwargs={"slug": club.slug,
                                                                                          "pk": job.pk})
    assert "Warten auf einen Worker" in member_client.get(response["Location"]).content.decode()
    run_worker()
    page = member_client.get(response["Location"]).content.decode()
    download = reverse("job_download", kwargs={"slug": club.slug, "pk": job.pk})
    assert download in page and "ctv-saison-2026.xlsx" in page
    response = member_client.get(download)
    assert response["Content-Type"] == "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
    assert response["Content-Disposition"] == 'attachment; filename="ctv-saison-2026.xlsx"'
    book = opened(b"".join(response.streaming_content))
    assert rows(book["Tabelle"])[0][:2] == [1, "Anna"]


@pytest.mark.django_db(transaction=True)
def test_the_club_and_match_downloads_name_their_files(member_client, club, known_season, run_worker):
    member_client.post(reverse("export_club", kwargs={"slug": club.slug}))
    run_worker()
    job = club.jobs.get()
    response = member_client.get(reverse("job_download", kwargs={"slug": club.slug, "pk": job.pk}))
    assert response["Content-Disposition"] == 'attachment; filename="ctv-alle-saisons.xlsx"'
    match = club.matches.first()
    response = member_client.get(reverse("export_match", kwargs={"slug": club.slug, "pk": match.pk}))
    assert response["Content-Disposition"] == f'attachment; filename="ctv-partie-{match.pk}.xlsx"'
    assert opened(b"".join(response.streaming_content)).sheetnames == ["Partien", "Spiele", "Strafen"]


def test_an_export_is_not_started_by_a_link(member_client, club, known_season):
    """Starting work is a POST (a prefetching browser or a crawler starts nothing)."""
    response = member_client.get(reverse("export_season", kwargs={"slug": club.slug, "pk": known_season.pk}))
    assert response.status_code == 405 and not club.jobs.exists()


def test_a_match_of_another_club_cannot_be_downloaded(member_client, club, known_season):
    from league.models import Club, Member

    other = Club.objects.create(name="Skatfreunde", slug="skat")
    players = [Member.objects.create(club=other, name=n) for n in NAMES]
    foreign = matches.create_match(club=other, date=datetime.date(2026, 3, 1), members=players,
                                   scorekeeper=players[0], settings={})
    response = member_client.get(reverse("export_match", kwargs={"slug": club.slug, "pk": foreign.pk}))
    assert response.status_code == 404


def test_the_command_writes_the_same_workbook(club, known_season, tmp_path, capsys):
    target = tmp_path / "saison.xlsx"
    call_command("export_season", "ctv", "2026", str(target))
    book = load_workbook(target)
    assert book.sheetnames == ["Tabelle", "Partien", "Spiele", "Strafen"]
    assert rows(book["Tabelle"]) == rows(opened(season_xlsx(club, known_season))["Tabelle"])
    assert "Saison 2026" in capsys.readouterr().out
    call_command("export_season", club.name, "alle", str(target))
    assert len(rows(load_workbook(target)["Partien"])) == 4


def test_the_command_draws_a_progress_bar_of_the_partien_on_the_terminal(club, known_season, tmp_path):
    bar, out = io.StringIO(), io.StringIO()
    call_command("export_season", "ctv", "2026", str(tmp_path / "s.xlsx"), "--progress", stderr=bar, stdout=out)
    drawn = bar.getvalue()
    assert "Partien werden geschrieben" in drawn and "] 4/4" in drawn and "#" * 30 in drawn
    assert "Saison 2026" in out.getvalue()  # the report stays on stdout
    quiet_bar = io.StringIO()
    call_command("export_season", "ctv", "2026", str(tmp_path / "s.xlsx"), stderr=quiet_bar)
    assert quiet_bar.getvalue() == ""  # not a terminal: no bar


def test_the_command_names_what_is_wrong(club, known_season, tmp_path):
    with pytest.raises(CommandError, match="keinen Verein 'nix'"):
        call_command("export_season", "nix", "2026", str(tmp_path / "a.xlsx"))
    with pytest.raises(CommandError, match=r"keine Saison '1999' \(vorhanden: 2026"):
        call_command("export_season", "ctv", "1999", str(tmp_path / "a.xlsx"))
    with pytest.raises(CommandError, match="kann nicht geschrieben werden"):
        call_command("export_season", "ctv", "2026", str(tmp_path / "fehlt" / "a.xlsx"))
