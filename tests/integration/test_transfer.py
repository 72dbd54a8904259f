"""protocol.documents.transfer and its commands: a protocol/1 file in and out, whole or not at all."""

import datetime
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from league.models import Club, Member, Season
from protocol.documents.transfer import ImportRefused, export_bytes, export_document, import_bytes, import_document
from protocol.models import Change, Event, Match, Seat
from protocol.rules import evaluate

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data"
VALID = ["first-spiel.json", "stechen.json", "spec-example.json"]


def sample(name):
    return json.loads((DATA / name).read_text(encoding="utf-8"))


def stored_counts():
    return {model.__name__: model.objects.count() for model in (Match, Seat, Event, Change, Member)}


@pytest.fixture
def season_2026(club):
    return Season.objects.create(club=club, name="2026", start=datetime.date(2026, 1, 1),
                                 end=datetime.date(2026, 12, 31))


# -- round trip ---------------------------------------------------------------------------

@pytest.mark.parametrize("name", VALID)
def test_an_imported_sample_exports_as_the_same_document(club, name):
    doc = sample(name)
    imported = import_document(doc, club=club)
    assert export_document(Match.objects.get(pk=imported.match.pk)) == doc


@pytest.mark.parametrize("name", VALID)
def test_the_exported_file_is_indented_utf8_json_with_a_trailing_newline(club, name):
    raw = (DATA / name).read_bytes()
    match = import_bytes(raw, club=club).match
    exported = export_bytes(match)
    assert json.loads(exported.decode("utf-8")) == json.loads(raw)
    assert exported.endswith(b"}\n") and not exported.endswith(b"\n\n")
    assert exported.startswith(b'{\n  "format": "protocol/1",\n  "ruleset": "chaotentrumpf",')
    assert "Nürtingen".encode() in exported  # not \u00fc


def test_the_exported_keys_come_in_the_order_of_the_format(club, season_2026):
    doc = sample("first-spiel.json") | {"season": "2026"}
    match = import_document(doc, club=club).match
    assert list(export_document(match)) == ["format", "ruleset", "club", "season", "date", "place",
                                            "players", "scorekeeper", "settings", "events"]


def test_partial_settings_stay_partial(club):
    doc = sample("first-spiel.json") | {"settings": {"limit": 1500}}
    match = import_document(doc, club=club).match
    match.refresh_from_db()
    assert match.settings == {"limit": 1500}
    assert export_document(match)["settings"] == {"limit": 1500}


def test_a_season_the_file_names_is_kept_and_exported_again(club, season_2026):
    doc = sample("stechen.json") | {"season": "2026"}
    match = import_document(doc, club=club).match
    assert match.season == season_2026
    assert export_document(match) == doc


def test_without_a_season_the_clubs_season_of_the_date_is_taken(club, season_2026):
    Season.objects.create(club=club, name="2025", start=datetime.date(2025, 1, 1), end=datetime.date(2025, 12, 31))
    match = import_document(sample("first-spiel.json"), club=club).match
    assert match.season == season_2026
    assert export_document(match)["season"] == "2026"


def test_without_any_season_of_the_date_the_match_has_none(club):
    Season.objects.create(club=club, name="2025", start=datetime.date(2025, 1, 1), end=datetime.date(2025, 12, 31))
    match = import_document(sample("first-spiel.json"), club=club).match
    assert match.season is None and "season" not in export_document(match)


def test_the_import_is_recorded_in_the_history_with_its_reason_and_user(club, secretary):
    match = import_document(sample("first-spiel.json"), club=club, user=secretary).match
    change = match.changes.get()
    assert (change.action, change.reason, change.user) == (Change.Action.IMPORT_MATCH, "Import aus Datei", secretary)
    assert match.created_by == secretary


def test_the_cache_is_derived_from_the_imported_events(club):
    match = import_document(sample("stechen.json"), club=club).match
    match.refresh_from_db()
    assert (match.status, match.winner.name) == ("finished", "Bernd")
    assert match.events.count() == len(sample("stechen.json")["events"])


# -- members ------------------------------------------------------------------------------

def test_unknown_players_become_members_of_the_club_and_are_reported(club):
    anna = Member.objects.create(club=club, name="Anna", active=False)
    bernd = Member.objects.create(club=club, name="Bernd")
    imported = import_document(sample("first-spiel.json"), club=club)
    assert [m.name for m in imported.created_members] == ["Carla", "Dieter"]
    assert all(m.club == club and not m.is_guest and m.active for m in imported.created_members)
    seats = {seat.name: seat.member for seat in imported.match.seats.all()}
    assert seats["Anna"] == anna and seats["Bernd"] == bernd  # the inactive member is found, not doubled
    assert Member.objects.filter(club=club).count() == 4


def test_known_players_create_no_members(club):
    for name in ["Anna", "Bernd", "Carla", "Dieter"]:
        Member.objects.create(club=club, name=name)
    assert import_document(sample("first-spiel.json"), club=club).created_members == []
    assert Member.objects.count() == 4


def test_members_of_another_club_are_not_used(club):
    other = Club.objects.create(name="Skatfreunde Wendlingen", slug="skat")
    stranger = Member.objects.create(club=other, name="Anna")
    imported = import_document(sample("first-spiel.json"), club=club)
    assert "Anna" in [m.name for m in imported.created_members]
    assert imported.match.seats.get(name="Anna").member != stranger


# -- refusals -----------------------------------------------------------------------------

def test_an_invalid_file_saves_nothing_and_lists_every_error(club):
    doc = sample("invalid.json")
    before = stored_counts()
    with pytest.raises(ImportRefused) as refused:
        import_document(doc, club=club)
    assert refused.value.errors == evaluate(doc).errors
    found = {(e.event, e.player, e.field) for e in refused.value.errors}
    assert found == {(0, "Carla", None), (0, "Anna", "points"), (1, "Carla", "points")}
    assert stored_counts() == before


@pytest.mark.parametrize("body", [{"annulled": True}, {"annulled": True, "annul_reason": " "}])
def test_an_imported_annulled_spiel_without_its_reason_is_refused_and_nothing_saved(club, body):
    """The engine asks for the reason, not only the forms: a file must not store annulments without one."""
    doc = sample("first-spiel.json")
    doc["events"][0]["game"] |= body
    before = stored_counts()
    with pytest.raises(ImportRefused) as refused:
        import_document(doc, club=club)
    errors = refused.value.errors
    assert [(e.event, e.field) for e in errors] == [(0, "annul_reason")] and "(SV 4)" in errors[0].message
    assert stored_counts() == before


def test_the_importers_own_errors_come_together_with_the_rule_errors(club):
    other = Club.objects.create(name="Skatfreunde Wendlingen", slug="skat")
    season = Season.objects.create(club=other, name="2025", start=datetime.date(2025, 1, 1),
                                   end=datetime.date(2025, 12, 31))
    before = stored_counts()
    with pytest.raises(ImportRefused) as refused:
        import_document(sample("invalid.json"), club=other, season=season)
    fields = [(e.event, e.field) for e in refused.value.errors]
    assert (None, "club") in fields and (None, "date") in fields
    assert len(refused.value.errors) == 2 + 3
    assert stored_counts() == before


def test_a_file_of_another_club_is_refused(club):
    other = Club.objects.create(name="Skatfreunde Wendlingen", slug="skat")
    before = stored_counts()
    with pytest.raises(ImportRefused) as refused:
        import_document(sample("first-spiel.json"), club=other)
    (error,) = refused.value.errors
    assert (error.event, error.field) == (None, "club")
    assert "1. CTV gegen alles!" in error.message and "Skatfreunde Wendlingen" in error.message
    assert stored_counts() == before


def test_a_file_without_a_club_goes_into_the_chosen_club(club):
    doc = sample("first-spiel.json")
    del doc["club"]
    match = import_document(doc, club=club).match
    assert match.club == club and export_document(match) == sample("first-spiel.json")


def test_a_date_outside_the_chosen_season_is_refused(club):
    season = Season.objects.create(club=club, name="2025", start=datetime.date(2025, 1, 1),
                                   end=datetime.date(2025, 12, 31))
    before = stored_counts()
    with pytest.raises(ImportRefused) as refused:
        import_document(sample("first-spiel.json"), club=club, season=season)
    (error,) = refused.value.errors
    assert (error.event, error.field) == (None, "date")
    assert "20.11.2026" in error.message and "2025" in error.message
    assert stored_counts() == before


def test_a_date_outside_the_season_the_file_names_is_refused(club):
    Season.objects.create(club=club, name="2025", start=datetime.date(2025, 1, 1), end=datetime.date(2025, 12, 31))
    with pytest.raises(ImportRefused) as refused:
        import_document(sample("first-spiel.json") | {"season": "2025"}, club=club)
    assert [e.field for e in refused.value.errors] == ["date"]
    assert not Match.objects.exists()


@pytest.mark.parametrize("day", [datetime.date(2026, 1, 1), datetime.date(2026, 12, 31)])
def test_the_first_and_last_day_of_a_season_belong_to_it(club, season_2026, day):
    doc = sample("first-spiel.json") | {"date": day.isoformat()}
    assert import_document(doc, club=club, season=season_2026).match.season == season_2026


def test_a_season_the_club_does_not_have_is_refused(club):
    with pytest.raises(ImportRefused) as refused:
        import_document(sample("first-spiel.json") | {"season": "1999"}, club=club)
    (error,) = refused.value.errors
    assert error.field == "season" and "1999" in error.message
    assert not Match.objects.exists()


def test_a_season_name_that_differs_from_the_chosen_season_is_refused(club, season_2026):
    with pytest.raises(ImportRefused) as refused:
        import_document(sample("first-spiel.json") | {"season": "Herbst 2026"}, club=club, season=season_2026)
    (error,) = refused.value.errors
    assert error.field == "season" and "Herbst 2026" in error.message
    assert not Match.objects.exists()


def test_a_season_of_another_club_is_refused(club):
    other = Club.objects.create(name="Skatfreunde Wendlingen", slug="skat")
    foreign = Season.objects.create(club=other, name="2026", start=datetime.date(2026, 1, 1),
                                    end=datetime.date(2026, 12, 31))
    with pytest.raises(ImportRefused) as refused:
        import_document(sample("first-spiel.json"), club=club, season=foreign)
    assert [e.field for e in refused.value.errors] == ["season"]
    assert not Match.objects.exists()


def test_a_file_without_a_date_is_refused(club):
    doc = sample("first-spiel.json")
    del doc["date"]
    with pytest.raises(ImportRefused) as refused:
        import_document(doc, club=club)
    assert [e.field for e in refused.value.errors] == ["date"]
    assert not Match.objects.exists()


def test_a_refused_file_creates_none_of_its_new_members(club):
    doc = sample("first-spiel.json")
    doc["events"][1]["penalty"]["points"] = 50  # SV 3: at least 100
    with pytest.raises(ImportRefused):
        import_document(doc, club=club)
    assert not Member.objects.exists() and not Match.objects.exists()


@pytest.mark.parametrize("raw", [b'{"format": "protocol/1", "players": [', "Überschrift".encode("latin-1")])
def test_bytes_that_are_not_json_are_refused_with_a_german_message(club, raw):
    with pytest.raises(ImportRefused) as refused:
        import_bytes(raw, club=club, name="protokoll.json")
    (error,) = refused.value.errors
    assert error.event is None and error.message.startswith("protokoll.json ist kein")
    assert not Match.objects.exists()


def test_a_document_that_is_not_an_object_is_refused(club):
    with pytest.raises(ImportRefused) as refused:
        import_document(["Anna", "Bernd"], club=club)
    assert refused.value.errors and not Match.objects.exists()


# -- the commands -------------------------------------------------------------------------

def run(*args):
    out, err = io.StringIO(), io.StringIO()
    call_command(*args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def test_import_protocol_prints_a_one_line_summary(club):
    Member.objects.create(club=club, name="Anna")
    out, _ = run("import_protocol", str(DATA / "stechen.json"), "--club", "ctv")
    match = Match.objects.get()
    assert out == (f"Partie {match.pk} eingetragen: {match.game_count} Spiele, Sieger: Bernd; "
                   "neue Mitglieder: Bernd, Carla, Dieter, Erika.\n")


def test_import_protocol_finds_the_club_by_name_and_the_season_by_name(club, season_2026):
    out, _ = run("import_protocol", str(DATA / "first-spiel.json"), "--club", club.name, "--season", "2026")
    match = Match.objects.get()
    assert match.season == season_2026
    assert out == f"Partie {match.pk} eingetragen: 1 Spiel, läuft noch; neue Mitglieder: Anna, Bernd, Carla, Dieter.\n"


def test_import_protocol_prints_every_error_and_exits_1(club):
    err = io.StringIO()
    with pytest.raises(CommandError) as refused:
        call_command("import_protocol", str(DATA / "invalid.json"), "--club", "ctv", stdout=io.StringIO(), stderr=err)
    assert refused.value.returncode == 1
    lines = err.getvalue().splitlines()
    assert len(lines) == 3
    assert lines[0].startswith("Ereignis 0, Carla: Für Carla fehlt die Zeile")
    assert lines[1].startswith("Ereignis 0, Anna, points: Anna: 1 Augen")
    assert lines[2].startswith("Ereignis 1, Carla, points: Eine Strafe")
    assert not Match.objects.exists() and not Member.objects.exists()


def test_import_protocol_names_the_whole_document_for_an_error_of_the_header(club):
    Club.objects.create(name="Skatfreunde Wendlingen", slug="skat")
    err = io.StringIO()
    with pytest.raises(CommandError):
        call_command("import_protocol", str(DATA / "first-spiel.json"), "--club", "skat",
                     stdout=io.StringIO(), stderr=err)
    assert err.getvalue().startswith("Protokoll, club: Das Protokoll gehört zum Verein „1. CTV gegen alles!“")


@pytest.mark.parametrize("args, words", [
    (["--club", "niemand"], "keinen Verein „niemand“"),
    (["--club", "ctv", "--season", "1999"], "keine Saison „1999“"),
])
def test_import_protocol_refuses_an_unknown_club_or_season(club, args, words):
    with pytest.raises(CommandError) as refused:
        run("import_protocol", str(DATA / "first-spiel.json"), *args)
    assert refused.value.returncode == 1 and words in str(refused.value)
    assert not Match.objects.exists()


@pytest.mark.parametrize("name", ["not-json.json", "does-not-exist.json"])
def test_import_protocol_exits_2_for_an_unreadable_file(club, name):
    with pytest.raises(CommandError) as refused:
        run("import_protocol", str(DATA / name), "--club", "ctv")
    assert refused.value.returncode == 2
    assert "JSON" in str(refused.value) or "gelesen" in str(refused.value)


def test_export_protocol_writes_the_document_to_stdout(club):
    match = import_document(sample("spec-example.json"), club=club).match
    out, _ = run("export_protocol", str(match.pk))
    assert out == export_bytes(match).decode("utf-8")
    assert json.loads(out) == sample("spec-example.json")


def test_export_protocol_writes_the_document_to_a_file(club, tmp_path):
    match = import_document(sample("stechen.json"), club=club).match
    target = tmp_path / "partie.json"
    out, _ = run("export_protocol", str(match.pk), "--output", str(target))
    assert target.read_bytes() == export_bytes(match)
    assert json.loads(target.read_text(encoding="utf-8")) == sample("stechen.json")
    assert str(target) in out


def test_export_protocol_refuses_an_unknown_match(db):
    with pytest.raises(CommandError) as refused:
        run("export_protocol", "4711")
    assert refused.value.returncode == 1 and "keine Partie mit der Nummer 4711" in str(refused.value)


def test_a_file_exported_and_imported_again_is_the_same_match(club, tmp_path):
    first = import_document(sample("stechen.json"), club=club).match
    target = tmp_path / "partie.json"
    run("export_protocol", str(first.pk), "--output", str(target))
    run("import_protocol", str(target), "--club", "ctv")
    second = Match.objects.exclude(pk=first.pk).get()
    assert export_document(second) == export_document(first)


# -- the commands as a secretary runs them ------------------------------------------------

def manage(tmp_path, *args):
    env = os.environ | {"DATABASE_URL": f"sqlite:///{tmp_path / 'throwaway.sqlite3'}"}
    return subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)


def test_the_commands_exit_0_1_and_2_on_the_command_line(tmp_path):
    assert manage(tmp_path, "migrate", "--noinput").returncode == 0
    made = manage(tmp_path, "shell", "-c", "from league.models import Club; "
                                           "Club.objects.create(name='1. CTV gegen alles!', slug='ctv')")
    assert made.returncode == 0, made.stderr

    done = manage(tmp_path, "import_protocol", str(DATA / "first-spiel.json"), "--club", "ctv")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("Partie 1 eingetragen: 1 Spiel, läuft noch;")

    refused = manage(tmp_path, "import_protocol", str(DATA / "invalid.json"), "--club", "ctv")
    assert refused.returncode == 1 and refused.stdout == ""
    assert "Ereignis 0, Anna, points: " in refused.stderr

    unreadable = manage(tmp_path, "import_protocol", str(DATA / "not-json.json"), "--club", "ctv")
    assert unreadable.returncode == 2 and "kein gültiges JSON" in unreadable.stderr

    exported = manage(tmp_path, "export_protocol", "1")
    assert exported.returncode == 0, exported.stderr
    assert json.loads(exported.stdout) == sample("first-spiel.json")
    assert manage(tmp_path, "export_protocol", "2").returncode == 1  # the refused file saved nothing
