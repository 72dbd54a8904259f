"""``manage.py import_season FILE.xlsx --club NAME [--season NAME] [--dry-run]``: exit 0, 1 or 2."""

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from league.models import Club, Season
from league.spreadsheets.exports import season_xlsx
from protocol.models import Match
from tests.season_workbooks import counts, edited, played_season

ROOT = Path(__file__).resolve().parents[2]


def run(*args):
    out, err = io.StringIO(), io.StringIO()
    call_command("import_season", *args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


@pytest.fixture
def workbook(club, ppg_season, members, tmp_path):
    played_season(club, ppg_season, members, partien=4)
    path = tmp_path / "saison-2026.xlsx"
    path.write_bytes(season_xlsx(club, ppg_season))
    return path


@pytest.fixture
def target(db):
    return Club.objects.create(name="Skatfreunde Wendlingen", slug="wendlingen")


def test_it_imports_the_season_and_prints_what_it_saved(workbook, target):
    out, err = run(str(workbook), "--club", "wendlingen")
    assert err == ""
    lines = out.splitlines()
    assert lines[0] == "Importiert in Skatfreunde Wendlingen:"
    assert lines[1] == "  Partien: 6 (2026: 6)"
    assert lines[4].startswith("  Neue Saisons: 2026 (01.01.2026 – 31.12.2026, Punkte je Spiel)")
    assert lines[5].startswith("  Neue Mitglieder: ")
    assert Match.objects.filter(club=target).count() == 6


def test_the_dry_run_saves_nothing(workbook, target):
    before = counts()
    out, _ = run(str(workbook), "--club", target.name, "--dry-run")
    assert out.startswith("Probelauf, nichts gespeichert. Der Import in Skatfreunde Wendlingen würde speichern:\n")
    assert "  Partien: 6 (2026: 6)" in out
    assert counts() == before


def test_it_draws_a_progress_bar_of_the_partien_on_the_terminal(workbook, target):
    out, err = run(str(workbook), "--club", "wendlingen", "--dry-run", "--progress")
    assert "Partien werden geprüft" in err and "Partien werden gespeichert" in err and "] 6/6" in err  # all six Partien
    assert out.startswith("Probelauf, nichts gespeichert.")


def test_it_fills_the_chosen_season(workbook, target):
    chosen = Season.objects.create(club=target, name="2026", start="2026-01-01", end="2026-12-31")
    run(str(workbook), "--club", "wendlingen", "--season", "2026")
    assert Match.objects.filter(club=target, season=chosen).count() == 6


def test_a_broken_workbook_prints_every_problem_and_exits_1(workbook, target, tmp_path):
    broken = tmp_path / "kaputt.xlsx"
    broken.write_bytes(edited(workbook.read_bytes(), {("Partien", "B2"): "gestern", ("Spiele", "F2"): -3,
                                                      ("Strafen", "D2"): "Rüge"}))
    before = counts()
    err = io.StringIO()
    with pytest.raises(CommandError) as refused:
        call_command("import_season", str(broken), "--club", "wendlingen", stdout=io.StringIO(), stderr=err)
    assert refused.value.returncode == 1
    assert "Nicht importiert, nichts gespeichert: 3 Probleme" in str(refused.value)
    assert err.getvalue().splitlines() == [
        "Partien, Zeile 2, Spalte B (Datum): Das Datum fehlt oder ist kein Datum (TT.MM.JJJJ).",
        f"Spiele, Zeile 2, Spalte F (Stiche): Stiche von {_first_player(workbook)}: eine ganze Zahl ab 0 eintragen.",
        "Strafen, Zeile 2, Spalte D (Art): „Rüge“ ist hier keine Art: Strafe, Verwarnung oder Disqualifikation.",
    ]
    assert counts() == before


def _first_player(path):
    from openpyxl import load_workbook
    return load_workbook(path)["Spiele"]["E2"].value


@pytest.mark.parametrize("args, words", [
    (["--club", "niemand"], "keinen Verein „niemand“"),
    (["--club", "wendlingen", "--season", "1999"], "keine Saison „1999“"),
])
def test_an_unknown_club_or_season_exits_1(workbook, target, args, words):
    with pytest.raises(CommandError) as refused:
        run(str(workbook), *args)
    assert refused.value.returncode == 1 and words in str(refused.value)


@pytest.mark.parametrize("content, words", [
    (None, "kann nicht gelesen werden"),
    (b"Nr.;Datum\n", "keine Excel-Arbeitsmappe"),
    (b"", "leer"),
])
def test_an_unreadable_file_exits_2(target, tmp_path, content, words):
    path = tmp_path / "saison.xlsx"
    if content is not None:
        path.write_bytes(content)
    with pytest.raises(CommandError) as refused:
        run(str(path), "--club", "wendlingen")
    assert refused.value.returncode == 2 and words in str(refused.value)


def manage(tmp_path, *args):
    env = os.environ | {"DATABASE_URL": f"sqlite:///{tmp_path / 'throwaway.sqlite3'}"}
    return subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=300)


def test_the_exit_codes_on_the_command_line(workbook, tmp_path):
    assert manage(tmp_path, "migrate", "--noinput").returncode == 0
    made = manage(tmp_path, "shell", "-c",
                  "from league.models import Club; Club.objects.create(name='Leer', slug='leer')")
    assert made.returncode == 0, made.stderr
    broken = tmp_path / "kaputt.xlsx"
    broken.write_bytes(edited(workbook.read_bytes(), {("Spiele", "G2"): 999}))
    refused = manage(tmp_path, "import_season", str(broken), "--club", "leer")
    assert refused.returncode == 1 and refused.stdout == "" and "Spiele, " in refused.stderr
    unreadable = manage(tmp_path, "import_season", str(tmp_path / "fehlt.xlsx"), "--club", "leer")
    assert unreadable.returncode == 2
    done = manage(tmp_path, "import_season", str(workbook), "--club", "leer")
    assert done.returncode == 0, done.stderr
    assert len(done.stdout.splitlines()) >= 5 and manage(tmp_path, "import_season", str(workbook), "--club",
                                                          "leer").returncode == 1  # not twice
