"""league.spreadsheets.points_import: a club's own points lists (a row per Spiel, a column per
player) into a season, every Partie checked by the engine as points only, all or nothing;
and the command ``import_points_list`` with the same mapping as options."""

import datetime
import io

import pytest
from django.core.management import CommandError, call_command

from league.models import Member, Season
from league.spreadsheets.points_import import import_points_list
from league.spreadsheets.points_mapping import Mapping
from league.spreadsheets.workbook import WorkbookTooLarge, WorkbookUnreadable
from league.standings.ranking import standings
from protocol.models import Match
from tests.offline_documents import doppelkopf_documents, tarot_documents
from tests.points_workbooks import (
    PLAYERS,
    chaotentrumpf_partien,
    chaotentrumpf_with_stechen,
    scores,
    sheet_rows,
    three_partien_workbook,
    totals,
    workbook,
)
from tests.unit.points_only_documents import as_points

DAY = datetime.date(2026, 3, 6)


@pytest.fixture(scope="module")
def partien():
    return chaotentrumpf_partien(3)


@pytest.fixture
def four(club):
    return {name: Member.objects.get_or_create(club=club, name=name)[0] for name in PLAYERS}


def summed(documents) -> dict[str, int]:
    found: dict[str, int] = {}
    for document in documents:
        for name, total in totals(document).items():
            found[name] = found.get(name, 0) + total
    return found


def addresses(report) -> dict[str, str]:
    return {problem.address: problem.message for problem in report.problems}


def test_three_partien_come_in_and_the_standings_are_the_lists_totals(club, season, four, partien, secretary):
    data = three_partien_workbook(partien)
    checked = import_points_list(data, club=club, game="chaotentrumpf", season=season, dry_run=True)
    assert checked.ok, checked.problems[:3]
    assert not Match.objects.exists()  # a dry run saves nothing
    assert [p["title"] for p in checked.partien] == ["Partie 1", "Partie 2", "Partie 3"]
    assert [dict(p["totals"]) for p in checked.partien] == [totals(d) for d in partien]
    assert checked.mappings[0] | {"sheet": ""} == {"sheet": "", "header_row": "5", "players": "B-E", "date": "B1",
                                                   "place": "B2", "number": "A", "ignore": "",
                                                   "running_totals": "nein"}
    report = import_points_list(data, club=club, game="chaotentrumpf", season=season, user=secretary)
    assert report.saved and Match.objects.filter(club=club, season=season).count() == 3
    assert report.season == season.pk and all(p["match"] for p in report.partien)
    table = {row.name: row.points for row in standings(club, season, season.ranking_rule)}
    assert table == summed(partien)
    match = Match.objects.get(date=DAY)
    assert match.place == "Vereinsheim" and match.settings == {"limit": 1000}


def test_a_list_comes_in_once(club, season, four, partien):
    data = three_partien_workbook(partien[:1])
    assert import_points_list(data, club=club, game="chaotentrumpf", season=season).saved
    again = import_points_list(data, club=club, game="chaotentrumpf", season=season)
    assert not again.saved and "schon" in addresses(again)["Partie 1!5"]
    assert Match.objects.count() == 1


def test_names_match_members_by_case_and_lookalikes_and_others_are_problems_or_guests(club, season, four, partien):
    document = partien[0]
    rows = sheet_rows(document, DAY)
    rows[4] = ["Nr", "anna", "BERND", "Carla", "Xaver"]  # Dieter's column written as Xaver
    data = workbook({"Partie 1": rows})
    refused = import_points_list(data, club=club, game="chaotentrumpf", season=season)
    assert list(addresses(refused)) == ["Partie 1!E5"] and "kein Mitglied" in refused.problems[0].message
    assert not Match.objects.exists() and not Member.objects.filter(name="Xaver").exists()
    report = import_points_list(data, club=club, game="chaotentrumpf", season=season, guests=True)
    assert report.saved
    assert Member.objects.get(club=club, name="Xaver").is_guest
    assert {n["written"]: n["member"] for n in report.names} == {"anna": "Anna", "BERND": "Bernd", "Carla": "Carla",
                                                                "Xaver": "Xaver"}
    assert [seat.member.name for seat in Match.objects.get().seats.order_by("position")] == [
        "Anna", "Bernd", "Carla", "Xaver"]


def test_spiele_after_the_obergrenze_are_refused_at_their_row(club, season, four, partien):
    document = partien[0]
    rows = sheet_rows(document, DAY, limit=1000)
    rows.append([len(rows) - 4] + [10, 10, 10, 10])  # one more Spiel after the Partie was decided
    report = import_points_list(workbook({"Partie 1": rows}), club=club, game="chaotentrumpf", season=season)
    last = len(rows)
    assert not report.saved and f"Partie 1!B{last}" in addresses(report), addresses(report)
    assert "Art. 17" in addresses(report)[f"Partie 1!B{last}"]


def test_a_stechen_comes_in_and_a_player_outside_it_with_points_is_refused_at_his_cell(club, season, four):
    document = chaotentrumpf_with_stechen()
    rows = sheet_rows(document, DAY, limit=1000)
    report = import_points_list(workbook({"Partie 1": rows}), club=club, game="chaotentrumpf", season=season,
                                dry_run=True)
    assert report.ok, report.problems[:3]
    assert report.partien[0]["winner"] == max(totals(document).items(), key=lambda item: item[1])[0]
    last = rows[-1]
    outside = next(column for column, value in enumerate(last) if value is None)  # sits the Stechen out
    last[outside] = 20
    report = import_points_list(workbook({"Partie 1": rows}), club=club, game="chaotentrumpf", season=season)
    cell = f"Partie 1!{'ABCDE'[outside]}{len(rows)}"
    assert not report.saved and "Art. 17b" in addresses(report)[cell], addresses(report)


def test_a_header_row_of_numbers_is_said_to_be_no_header(club, season, four, partien):
    data = workbook({"Partie 1": sheet_rows(partien[0], DAY)})
    report = import_points_list(data, club=club, game="chaotentrumpf", season=season,
                                mapping=Mapping(header_row=5, players=("B", "C", "D", "E")))
    assert "steht die Kopfzeile" in addresses(report)["Partie 1!B5"]
    report = import_points_list(data, club=club, game="chaotentrumpf", season=season, mapping=Mapping(header_row=5))
    assert "keine zwei Spieler" in addresses(report)["Partie 1!5"]


def test_partien_one_below_the_other_in_one_sheet_are_blocks(club, season, four, partien):
    first = sheet_rows(partien[0], DAY)
    second = sheet_rows(partien[1], DAY + datetime.timedelta(days=7), place="Krone")
    report = import_points_list(workbook({"Saison": first + [[]] + second}), club=club, game="chaotentrumpf",
                                season=season)
    assert report.saved, report.problems[:3]
    assert [(p["title"], p["date"], p["place"]) for p in report.partien] == [
        ("Saison, Partie 1", "06.03.2026", "Vereinsheim"), ("Saison, Partie 2", "13.03.2026", "Krone")]


def test_points_below_an_empty_row_without_a_header_are_no_partie_of_their_own(club, season, four, partien):
    rows = sheet_rows(partien[0], DAY)
    rows.insert(8, [])  # the Partie goes on below an empty row
    report = import_points_list(workbook({"Partie 1": rows}), club=club, game="chaotentrumpf", season=season)
    assert "gehört aber zu keiner Partie" in addresses(report)["Partie 1!10"] and not Match.objects.exists()


def test_a_date_column_gives_each_partie_its_date_and_one_partie_has_one(club, season, four, partien):
    def block(document, day):
        return [["Datum"] + PLAYERS] + [[day] + [line[p] for p in PLAYERS] for line in scores(document)]

    rows = block(partien[0], DAY) + [[]] + block(partien[1], DAY + datetime.timedelta(days=1))
    report = import_points_list(workbook({"Liste": rows}), club=club, game="chaotentrumpf", season=season,
                                dry_run=True)
    assert report.ok, report.problems[:3]
    assert [p["date"] for p in report.partien] == ["06.03.2026", "07.03.2026"]
    assert report.mappings[0]["date"] == "A" and report.mappings[0]["number"] == "-"
    rows[3][0] = DAY + datetime.timedelta(days=2)
    report = import_points_list(workbook({"Liste": rows}), club=club, game="chaotentrumpf", season=season)
    assert "Eine Partie hat ein Datum; Zeile 2 sagt „06.03.2026“" in addresses(report)["Liste!A4"]


def test_running_totals_are_said_and_read_when_chosen(club, season, four, partien):
    document = partien[0]
    rows = sheet_rows(document, DAY)
    stand = dict.fromkeys(PLAYERS, 0)
    for number, line in enumerate(scores(document)):
        for column, name in enumerate(PLAYERS, 1):
            stand[name] += line[name]
            rows[len(rows) - len(scores(document)) + number][column] = stand[name]
    positive = all(v >= 0 for line in scores(document) for v in line.values())
    data = workbook({"Partie 1": rows})
    refused = import_points_list(data, club=club, game="chaotentrumpf", season=season)
    assert not refused.saved
    if positive:  # only points that never fall can look like running totals by themselves
        assert "Zwischensummen" in refused.problems[0].message
    report = import_points_list(data, club=club, game="chaotentrumpf", season=season,
                                mapping=Mapping(running_totals=True))
    assert report.saved and dict(report.partien[0]["totals"]) == totals(document)


def test_the_lists_own_totals_row_is_compared(club, season, four, partien):
    document = partien[0]
    rows = sheet_rows(document, DAY)
    right = totals(document)
    rows.append(["Summe"] + [right[p] + (5 if p == "Carla" else 0) for p in PLAYERS])
    report = import_points_list(workbook({"Partie 1": rows}), club=club, game="chaotentrumpf", season=season)
    assert list(addresses(report)) == [f"Partie 1!D{len(rows)}"]
    assert f"nach den Regeln {right['Carla']}" in report.problems[0].message


def without_end(document):
    return document | {"events": [e for e in document["events"] if "end" not in e]}


def test_a_doppelkopf_list_whose_game_does_not_sum_to_zero_is_refused_at_its_row(club, season, four):
    document = as_points(without_end(dict(doppelkopf_documents())["doppelkopf-2"]))
    rows = sheet_rows(document, DAY)
    assert import_points_list(workbook({"Doko": rows}), club=club, game="doppelkopf", dry_run=True).ok
    rows[7][1] += 1  # the third Spiel: Anna one point more, the game no longer sums to zero
    report = import_points_list(workbook({"Doko": rows}), club=club, game="doppelkopf")
    assert not report.saved and not Match.objects.exists()
    assert list(addresses(report)) and all(address.startswith("Doko!") and address.endswith("8")
                                           for address in addresses(report)), addresses(report)
    assert "TCG 6" in report.problems[0].message


def test_a_tarot_sheet_comes_in_with_the_engines_totals(club, season, four):
    document = as_points(dict(tarot_documents())["tarot-1"])
    report = import_points_list(workbook({"Tarot": sheet_rows(document, DAY)}), club=club, game="tarot",
                                season=Season.objects.create(club=club, name="Tarot 2026", ruleset="tarot",
                                                             start=DAY, end=DAY))
    assert report.saved, report.problems[:3]
    assert dict(report.partien[0]["totals"]) == totals(document)
    assert "vereinbartes Ende" in report.partien[0]["end"]


@pytest.mark.parametrize("cell, value, expected", [
    ("C7", "=B7*2", "Formel"), ("C7", "zwölf", "keine Zahl"), ("C7", 12.5, "keine ganze Zahl"),
    ("C7", datetime.date(2026, 1, 1), "Datum")])
def test_a_bad_point_cell_is_said_at_the_cell(club, season, four, partien, cell, value, expected):
    from openpyxl import load_workbook

    book = load_workbook(io.BytesIO(three_partien_workbook(partien[:1])))
    book["Partie 1"][cell] = value
    out = io.BytesIO()
    book.save(out)
    report = import_points_list(out.getvalue(), club=club, game="chaotentrumpf", season=season)
    assert expected in addresses(report)[f"Partie 1!{cell}"] and not Match.objects.exists()


def test_merged_cells_among_the_points_are_refused(club, season, four, partien):
    from openpyxl import load_workbook

    book = load_workbook(io.BytesIO(three_partien_workbook(partien[:1])))
    book["Partie 1"].merge_cells("B6:C6")
    out = io.BytesIO()
    book.save(out)
    report = import_points_list(out.getvalue(), club=club, game="chaotentrumpf", season=season)
    assert "verbunden" in addresses(report)["Partie 1!B6"]


@pytest.mark.parametrize("raw, refusal", [(b"", WorkbookUnreadable), (b"kein Excel", WorkbookUnreadable),
                                          (b"PK\x03\x04 kaputt", WorkbookUnreadable)])
def test_a_file_that_is_no_workbook_gets_a_german_message(club, raw, refusal):
    with pytest.raises(refusal) as refused:
        import_points_list(raw, club=club, game="chaotentrumpf")
    assert "Datei" in str(refused.value)


def test_a_huge_sheet_and_an_empty_workbook_are_refused(club, season):
    rows = [[None]] * 6000 + [["x"]]
    with pytest.raises(WorkbookTooLarge, match="Zeile 6001"):
        import_points_list(workbook({"Riesig": rows}), club=club, game="chaotentrumpf")
    report = import_points_list(workbook({"Leer": []}), club=club, game="chaotentrumpf", season=season)
    assert not report.ok and "keine Partie" in report.problems[0].message


def test_the_command_checks_and_imports_with_the_mapping_as_options(club, season, four, partien, tmp_path):
    path = tmp_path / "alt.xlsx"
    rows = sheet_rows(partien[0], DAY, extra=("Kreide", "x"))  # a column of notes, headed like a player
    path.write_bytes(workbook({"Partie 1": rows}))
    with pytest.raises(CommandError) as refused:
        call_command("import_points_list", str(path), "--club", club.slug, "--season", season.name,
                     stdout=io.StringIO(), stderr=io.StringIO())
    assert refused.value.returncode == 1
    out = io.StringIO()
    call_command("import_points_list", str(path), "--club", club.slug, "--season", season.name, "--ignore", "F",
                 "--dry-run", stdout=out, stderr=io.StringIO())
    assert "Probelauf" in out.getvalue() and "Spieler B-E" in out.getvalue() and not Match.objects.exists()
    out = io.StringIO()
    call_command("import_points_list", str(path), "--club", club.slug, "--season", season.name, "--ignore", "F",
                 stdout=out, stderr=io.StringIO())
    winner = max(totals(partien[0]).items(), key=lambda item: item[1])[0]
    assert f"Sieger {winner}" in out.getvalue() and Match.objects.count() == 1


def test_the_command_names_each_problem_at_its_cell(club, season, four, partien, tmp_path):
    rows = sheet_rows(partien[0], DAY)
    rows[6][2] = "zwölf"
    path = tmp_path / "alt.xlsx"
    path.write_bytes(workbook({"Partie 2": rows}))
    err = io.StringIO()
    with pytest.raises(CommandError, match="nichts gespeichert"):
        call_command("import_points_list", str(path), "--club", club.slug, "--game", "chaotentrumpf",
                     stdout=io.StringIO(), stderr=err)
    assert "Partie 2!C7: „zwölf“ ist keine Zahl" in err.getvalue()
    with pytest.raises(CommandError, match="Spalte"):
        call_command("import_points_list", str(path), "--club", club.slug, "--game", "chaotentrumpf",
                     "--players", "B-", stdout=io.StringIO(), stderr=io.StringIO())
    (tmp_path / "kaputt.xlsx").write_bytes(b"kein Excel")
    with pytest.raises(CommandError) as unreadable:
        call_command("import_points_list", str(tmp_path / "kaputt.xlsx"), "--club", club.slug, "--game",
                     "chaotentrumpf", stdout=io.StringIO(), stderr=io.StringIO())
    assert unreadable.value.returncode == 2
