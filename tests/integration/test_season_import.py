"""league.spreadsheets.imports: a season workbook back into a club, cell by cell, all or nothing."""

import datetime
import functools
import io
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from openpyxl import Workbook
from openpyxl.utils import get_column_letter

from league.models import Club, Member, Season
from league.spreadsheets.exports import season_xlsx
from league.spreadsheets.imports import WorkbookUnreadable, import_season
from league.standings.ranking import standings
from protocol import reading
from protocol.games.chaotentrumpf.simulation import simulate_match
from protocol.models import Match, ScoreLine, Seat
from tests.season_workbooks import NAMES, cell_of, counts, edited, opened, played_season, record, saved, values
from tests.unit.builders import quiet

# -- workbooks as data ----------------------------------------------------------------------

def table(club, season):
    return [(r.rank, r.name, r.played, r.won, r.games, r.points, r.ppg, r.tiebreaks, r.tiebreaks_won,
             r.penalties, r.penalty_points, r.warnings, r.disqualifications, r.trump_bonuses)
            for r in standings(club, season)]


# -- a realistic season -------------------------------------------------------------------

# -- the round trip -----------------------------------------------------------------------

def without_ids(sheets: dict, club: Club) -> dict:
    """The cell values with the Partien numbered in order (ids differ between clubs), the
    note line without the club's name and today's date, and without the Partien's Ergebnis
    (vorläufig or endgültig says the time of the export, not a fact the workbook carries: an
    imported Partie of an earlier day comes in endgültig)."""
    numbers = {}
    result = sheets["Partien"][0].index("Ergebnis")
    for row in sheets["Partien"][1:]:
        numbers[row[0]] = len(numbers) + 1
        row[0] = numbers[row[0]]
        row[result] = None
    for name in ("Spiele", "Strafen"):
        for row in sheets[name][1:]:
            row[0] = numbers[row[0]]
    note = sheets["Tabelle"][-1]
    note[0] = note[0].replace(club.name, "CLUB").split(", Stand ")[0]
    return sheets


def test_export_import_export_gives_the_same_workbook_and_the_same_table(club, ppg_season, workbook, empty_club):
    report = import_season(workbook, club=empty_club)
    assert report.ok and report.saved, [str(p) for p in report.problems]
    imported = Season.objects.get(club=empty_club)
    assert (imported.name, imported.start, imported.end, imported.ranking_rule) == (
        "2026", ppg_season.start, ppg_season.end, Season.RankingRule.PPG)
    again = season_xlsx(empty_club, imported)
    assert without_ids(values(again), empty_club) == without_ids(values(workbook), club)
    assert table(empty_club, imported) == table(club, ppg_season)
    assert len(table(club, ppg_season)) >= 6


def test_the_round_trip_covers_what_the_added_columns_carry(workbook):
    sheets = values(workbook)
    header = {name: rows[0] for name, rows in sheets.items()}

    def column(sheet, title):
        index = header[sheet].index(title)
        return [row[index] for row in sheets[sheet][1:] if row[index] is not None]

    assert any("Obergrenze: 750" in text for text in column("Partien", "Vereinbarungen"))
    assert any("Karten je Austeilen: 4" in text for text in column("Partien", "Vereinbarungen"))
    assert "Zeitbegrenzung (Eintrag 3)" in column("Partien", "Ende")
    assert "Kartenmaterial unvollständig" in column("Partien", "Grund der Annullierung")
    assert any("→" in text and "inversion" in text for text in column("Spiele", "Inversionen"))
    assert any(text.endswith(")") for text in column("Spiele", "Aufgedeckte Karten"))  # an agreed Trumpfwahl
    assert column("Spiele", "Grund der Annullierung")
    assert {"Strafe", "Verwarnung", "Disqualifikation"} <= set(column("Strafen", "Art"))
    assert "1. Stechen" in column("Strafen", "Stufe")  # the Strafe after the end that opened the Stechen


def test_the_workbook_of_all_seasons_brings_every_season_and_the_all_time_table(club, ppg_season, members, empty_club):
    played_season(club, ppg_season, members, partien=3)
    older = Season.objects.create(club=club, name="2025", start=datetime.date(2025, 1, 1),
                                  end=datetime.date(2025, 12, 31))
    record(club, older, members, {"players": ["Carla", "Dieter", "Erika"], "scorekeeper": "Erika", "settings": {},
                                  "events": [quiet(["Carla", "Dieter", "Erika"])] * 3}, datetime.date(2025, 6, 1))
    report = import_season(season_xlsx(club, None), club=empty_club)
    assert report.ok, [str(p) for p in report.problems]
    assert report.seasons == {"2025": 1, "2026": 5}
    assert table(empty_club, None) == table(club, None)
    assert without_ids(values(season_xlsx(empty_club, None)), empty_club) == without_ids(
        values(season_xlsx(club, None)), club)


def test_the_workbook_of_one_partie_comes_in_without_a_table(club, ppg_season, members, empty_club):
    from league.spreadsheets.exports import match_xlsx
    played_season(club, ppg_season, members, partien=1)
    match = Match.objects.filter(club=club).exclude(status="running").first()
    report = import_season(match_xlsx(match), club=empty_club)
    assert report.ok and report.matches == 1
    copy = Match.objects.get(club=empty_club)
    assert reading.page(copy).evaluation.as_json() == reading.page(match).evaluation.as_json()


def test_an_imported_partie_is_the_same_match(club, ppg_season, members, empty_club):
    played_season(club, ppg_season, members, partien=4)
    import_season(season_xlsx(club, ppg_season), club=empty_club)
    originals = Match.objects.filter(club=club).order_by("date", "pk")
    copies = Match.objects.filter(club=empty_club).order_by("date", "pk")
    for original, copy in zip(originals, copies, strict=True):
        assert reading.page(copy).evaluation.as_json() == reading.page(original).evaluation.as_json()
        assert (copy.status, copy.winner.name if copy.winner else None) == (
            original.status, original.winner.name if original.winner else None)
        assert copy.changes.get().reason == "Import aus Datei"


def test_the_import_creates_the_members_and_the_season_and_names_them(workbook, empty_club):
    report = import_season(workbook, club=empty_club)
    assert sorted(report.new_members) == sorted(Member.objects.filter(club=empty_club).values_list("name", flat=True))
    assert report.new_seasons == ["2026 (01.01.2026 – 31.12.2026, Punkte je Spiel)"]
    assert report.matches == Match.objects.filter(club=empty_club).count() == 18
    assert report.seasons == {"2026": 18}
    lines = ScoreLine.objects.filter(match__club=empty_club)
    assert report.games == lines.values("match", "game_number").distinct().count()


def test_known_members_are_used_and_a_chosen_season_is_filled(club, ppg_season, workbook, empty_club):
    anna = Member.objects.create(club=empty_club, name="Anna")
    chosen = Season.objects.create(club=empty_club, name="2026", start=datetime.date(2026, 1, 1),
                                   end=datetime.date(2026, 12, 31), ranking_rule=Season.RankingRule.PPG)
    report = import_season(workbook, club=empty_club, season=chosen)
    assert report.ok and not report.new_seasons and "Anna" not in report.new_members
    assert Seat.objects.filter(member=anna).exists()
    assert table(empty_club, chosen) == table(club, ppg_season)


def test_the_dry_run_saves_nothing_and_says_what_it_would_create(workbook, empty_club):
    before = counts()
    report = import_season(workbook, club=empty_club, dry_run=True)
    assert report.ok and not report.saved and report.dry_run
    assert report.matches == 18 and report.new_seasons and len(report.new_members) >= 6
    assert counts() == before


def test_a_season_is_not_imported_twice(workbook, empty_club):
    assert import_season(workbook, club=empty_club).saved
    before = counts()
    report = import_season(workbook, club=empty_club)
    assert not report.saved and counts() == before
    assert len(report.problems) == 18
    assert all(p.sheet == "Partien" and p.column == "A" and "schon" in p.message for p in report.problems)


def test_an_old_workbook_without_the_added_columns_comes_in(club, ppg_season, members, empty_club, monkeypatch):
    """Hand-kept workbooks in the export's layout, before it had the last columns: without
    inversions and with the Strafen in order they are the same season. (Nor annulled Spiele:
    without the column of their reason the engine refuses them, SV 4.)"""
    from protocol.games.chaotentrumpf import simulation
    monkeypatch.setattr(simulation, "simulate_game", functools.partial(simulation.simulate_game, inversion_rate=0))
    rng = random.Random(3)
    for day in range(1, 6):
        doc = simulate_match(NAMES[:4], rng, penalty_rate=0.06, warning_rate=0.04, annul_rate=0)
        record(club, ppg_season, members, doc, datetime.date(2026, 4, day))
    book = opened(season_xlsx(club, ppg_season))
    for name, keep in (("Partien", 10), ("Spiele", 13), ("Strafen", 9)):
        book[name].delete_cols(keep + 1, 10)
    report = import_season(saved(book), club=empty_club)
    assert report.ok, [str(p) for p in report.problems]
    assert table(empty_club, Season.objects.get(club=empty_club)) == table(club, ppg_season)


def test_a_workbook_in_the_sheet_order_and_column_order_of_someone_else_comes_in(club, ppg_season, members, empty_club):
    played_season(club, ppg_season, members, partien=3)
    book = opened(season_xlsx(club, ppg_season))
    book.move_sheet("Tabelle", offset=3)
    spiele = book["Spiele"]
    spiele.insert_cols(1)
    spiele["A1"] = "Bemerkung"
    report = import_season(saved(book), club=empty_club)
    assert report.ok, [str(p) for p in report.problems]
    assert "Spiele, Spalte A (Bemerkung) wird nicht eingelesen." in report.notes


# -- a broken workbook: every problem named, nothing saved -----------------------------------

def rows_of(sheets, sheet, partie, **where):
    """The row numbers of a Partie in a sheet, where the columns have the given values."""
    header = sheets[sheet][0]
    return [number for number, row in enumerate(sheets[sheet][1:], start=2) if row[0] == partie
            and all(where[key](row[header.index(key)]) for key in where)]


def test_a_workbook_with_broken_rows_is_refused_with_every_problem_named_and_nothing_saved(workbook, empty_club):
    sheets = values(workbook)
    partien = [row[0] for row in sheets["Partien"][1:]]
    sanctioned = [row[0] for row in sheets["Strafen"][1:3]]
    lie, undated, keeper, limit, augen, stiche, trumpf = [n for n in partien if n not in sanctioned][:7]
    row_of = {n: i for i, n in enumerate(partien, start=2)}
    scored = rows_of(sheets, "Spiele", lie, Stufe=lambda v: v == "Partie", Stiche=lambda v: v and v > 0)[0]
    score = sheets["Spiele"][scored - 1][sheets["Spiele"][0].index("Punkte")]
    broken = {
        ("Spiele", cell_of(sheets, "Spiele", "Punkte", scored)): score + 10,  # a computed cell that lies
        ("Spiele", cell_of(sheets, "Spiele", "Augen", rows_of(sheets, "Spiele", augen,
                                                              Stiche=lambda v: v and v < 4)[0])): 999,
        ("Spiele", cell_of(sheets, "Spiele", "Stiche", rows_of(sheets, "Spiele", stiche)[0])): "zehn",
        ("Partien", cell_of(sheets, "Partien", "Datum", row_of[undated])): "gestern",
        ("Partien", cell_of(sheets, "Partien", "Protokollant", row_of[keeper])): "Zora",
        ("Partien", cell_of(sheets, "Partien", "Vereinbarungen", row_of[limit])): "Obergrenze: 500",
        ("Strafen", cell_of(sheets, "Strafen", "Art", 2)): "Rüge",
        ("Strafen", cell_of(sheets, "Strafen", "Partie", 3)): 999999,
    }
    pique = {("Spiele", cell_of(sheets, "Spiele", "Trumpf", row)): "Pique"  # the trump of a whole Spiel
             for row in rows_of(sheets, "Spiele", trumpf, Spiel=lambda v: v == 1)}
    before = counts()
    report = import_season(edited(workbook, broken | pique), club=empty_club)
    assert not report.saved and counts() == before
    places = {(p.sheet, p.row, p.column) for p in report.problems}
    for sheet, cell in [*broken, next(iter(pique))]:
        column = cell.rstrip("0123456789")
        assert (sheet, int(cell[len(column):]), column) in places, (sheet, cell, [str(p) for p in report.problems])
    text = "\n".join(str(p) for p in report.problems)
    assert (f"Spiele, Zeile {scored}, Spalte K (Punkte): im Blatt {score + 10}, nach den Regeln {score} (Art. 16)"
            in text)
    assert "Augen wert, nicht 999 (Art. 3, 13a)" in text  # the engine's own sentence
    assert "Stiche von" in text and "eine ganze Zahl ab 0 eintragen" in text
    assert "Obergrenze muss mindestens 1000 Punkte betragen (Art. 17a" in text
    assert "Der Protokollant muss einer der Spieler sein (Art. 4)" in text
    assert "„Pique“ ist kein Trumpf" in text and "„gestern“" not in text and "Das Datum fehlt" in text
    assert "„Rüge“ ist hier keine Art" in text and "Partie 999999 steht nicht im Blatt Partien" in text


def test_a_partie_of_another_game_is_named_once(workbook, empty_club):
    """Doppelkopf and Tarot tables export scores only: such a Partie can't be rebuilt."""
    sheets = values(workbook)
    first = sheets["Partien"][1][0]
    blank = {("Spiele", cell_of(sheets, "Spiele", header, row)): None
             for row in rows_of(sheets, "Spiele", first)
             for header in ("Stiche", "Augen", "Trümpfe", "Trumpf", "Aufgedeckte Karten", "Inversionen")}
    report = import_season(edited(workbook, blank), club=empty_club)
    assert [(p.sheet, p.row, p.column) for p in report.problems] == [("Partien", 2, "A")]
    assert "eine Partie von Doppelkopf / Tarot" in report.problems[0].message


def test_a_lying_table_is_named_cell_by_cell(workbook, empty_club):
    tabelle = values(workbook)["Tabelle"]
    points = tabelle[1][5]
    lies = {("Tabelle", "F2"): points + 1, ("Tabelle", "B3"): "Zora"}
    report = import_season(edited(workbook, lies), club=empty_club)
    assert not report.saved
    text = [str(p) for p in report.problems]
    assert f"Tabelle, Zeile 2, Spalte F (Punkte): im Blatt {points + 1}, nach den Regeln {points}" in text
    assert any(t.startswith("Tabelle, Zeile 3, Spalte B (Mitglied): Zora") for t in text)
    assert any(t.startswith(f"Tabelle, Spalte B (Mitglied): {tabelle[2][1]} fehlt") for t in text)


def test_an_empty_computed_cell_states_nothing(workbook, empty_club):
    report = import_season(edited(workbook, {("Spiele", "K2"): None, ("Spiele", "L2"): None,
                                             ("Partien", "G2"): None}), club=empty_club)
    assert report.ok, [str(p) for p in report.problems]


def test_a_partie_whose_strafe_moved_to_another_entry_is_refused(workbook, empty_club):
    strafen = values(workbook)["Strafen"]
    report = import_season(edited(workbook, {("Strafen", "J2"): 999}), club=empty_club)
    assert any(p.sheet == "Strafen" and p.row == 2 and p.column == "J" for p in report.problems)
    assert strafen[0][9] == "Eintrag"


@pytest.mark.parametrize("sheet, missing", [("Spiele", "Augen"), ("Partien", "Spieler")])
def test_a_missing_column_is_named_and_nothing_else_is_read(workbook, empty_club, sheet, missing):
    book = opened(workbook)
    headers = [cell.value for cell in book[sheet][1]]
    book[sheet].delete_cols(headers.index(missing) + 1)
    report = import_season(saved(book), club=empty_club)
    assert [str(p) for p in report.problems] == [f"{sheet}, Zeile 1: Die Spalte „{missing}“ fehlt."]


def test_a_missing_sheet_is_named(workbook, empty_club):
    book = opened(workbook)
    del book["Strafen"]
    report = import_season(saved(book), club=empty_club)
    assert [p.message for p in report.problems] == [
        "Das Blatt „Strafen“ fehlt (die Arbeitsmappe hat: Tabelle, Partien, Spiele)."]


def test_a_workbook_without_partien_is_refused(empty_club):
    book = Workbook()
    book.active.title = "Partien"
    book["Partien"].append(["Nr.", "Datum", "Spieler", "Protokollant"])
    for title, header in (("Spiele", ["Partie", "Spiel", "Spieler", "Stiche", "Augen", "Trümpfe"]),
                          ("Strafen", ["Partie", "Spieler", "Art", "Grund"])):
        book.create_sheet(title).append(header)
    report = import_season(saved(book), club=empty_club)
    assert [p.message for p in report.problems] == ["Die Arbeitsmappe enthält keine Partie."]


@pytest.mark.parametrize("raw, words", [
    (b"", "leer"),
    (b"Nr.;Datum;Spieler\n1;01.03.2026;Anna\n", "keine Excel-Arbeitsmappe"),
    (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 500, "alten Excel-Format (.xls)"),
    (b"PK\x03\x04" + b"\0" * 100, "keine Excel-Arbeitsmappe"),
])
def test_a_file_that_is_no_workbook_is_unreadable(empty_club, raw, words):
    with pytest.raises(WorkbookUnreadable, match=words.replace("(", r"\(").replace(")", r"\)").replace(".", r"\.")):
        import_season(raw, club=empty_club)


def test_an_ods_file_is_named_as_such(empty_club):
    import zipfile
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("mimetype", "application/vnd.oasis.opendocument.spreadsheet")
    with pytest.raises(WorkbookUnreadable, match="OpenDocument"):
        import_season(buffer.getvalue(), club=empty_club)


def with_entities(data: bytes, declarations: str, use: str) -> bytes:
    """The season workbook ``data`` with ``declarations`` in its first sheet's DOCTYPE and a
    row whose cell holds ``use``."""
    import zipfile
    original = zipfile.ZipFile(io.BytesIO(data))
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for item in original.infolist():
            data = original.read(item.filename)
            if item.filename == "xl/worksheets/sheet1.xml":
                text = data.decode()
                head, body = text.split("?>", 1) if text.startswith("<?xml") else ("", text)
                row = f'<row r="999"><c r="A999" t="inlineStr"><is><t>{use}</t></is></c></row></sheetData>'
                data = (f'{head}{"?>" if head else ""}<!DOCTYPE worksheet [{declarations}]>'
                        + body.replace("</sheetData>", row, 1)).encode()
            archive.writestr(item, data)
    return buffer.getvalue()


@pytest.mark.parametrize("declarations, use", [
    ('<!ENTITY who "Anna">', "&who;"),  # harmless-looking, still not read
    ('<!ENTITY l0 "ha">' + "".join(f'<!ENTITY l{n} "{f"&l{n - 1};" * 10}">' for n in range(1, 9)), "&l8;"),
], ids=["an entity", "billion laughs"])
def test_a_workbook_declaring_xml_entities_is_unreadable(club, ppg_season, members, empty_club, declarations, use):
    """An uploaded sheet whose XML declares entities is refused as damaged, with a message,
    before anything is expanded (openpyxl reads through defusedxml)."""
    played_season(club, ppg_season, members, partien=1)
    with pytest.raises(WorkbookUnreadable) as refused:
        import_season(with_entities(season_xlsx(club, ppg_season), declarations, use), club=empty_club, dry_run=True)
    assert str(refused.value)


FUZZ = settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck))
CELL_TEXT = st.text(st.characters(blacklist_categories=("Cs", "Cc")), max_size=12)  # what a cell can hold
CELL_VALUES = st.one_of(st.none(), CELL_TEXT, st.integers(-10**12, 10**12), st.floats(allow_nan=True),
                        st.booleans(), st.dates(), st.sampled_from(
                            ["Pik", "Wert As", "Karo Dame", "ja", "nein", "Strafe", "Anna", "X8 H8 (Einigung)",
                             "Herz → Pik (Anna, Ultrainversion)", "Obergrenze: x", "Zeitbegrenzung (Eintrag 99)",
                             "1. Stechen", "=1/0", "−200", "3.5"]))


def test_generated_cells_never_break_the_importer(club, ppg_season, members, empty_club):
    played_season(club, ppg_season, members, partien=2)
    data = season_xlsx(club, ppg_season)
    sheets = values(data)

    @FUZZ
    @given(st.lists(st.tuples(st.sampled_from(["Partien", "Spiele", "Strafen", "Tabelle"]), st.integers(1, 30),
                              st.integers(1, 17), CELL_VALUES), min_size=1, max_size=6))
    def change(cells):
        changes = {(sheet, f"{get_column_letter(column)}{row}"): value for sheet, row, column, value in cells
                   if row <= len(sheets[sheet]) + 1}
        before = counts()
        try:
            report = import_season(edited(data, changes), club=empty_club, dry_run=True)
        except WorkbookUnreadable:
            return
        assert not report.saved and counts() == before
        assert all(problem.message for problem in report.problems)
    change()


def test_damaged_files_are_unreadable_or_refused_never_an_error(club, ppg_season, members, empty_club):
    played_season(club, ppg_season, members, partien=1)
    data = season_xlsx(club, ppg_season)

    @FUZZ
    @given(st.integers(0, len(data) - 1), st.binary(min_size=1, max_size=16))
    def damage(cut, junk):
        try:
            report = import_season(data[:cut] + junk + data[cut + len(junk):], club=empty_club, dry_run=True)
        except WorkbookUnreadable as unreadable:
            assert str(unreadable)
        else:
            assert not report.saved
    damage()
