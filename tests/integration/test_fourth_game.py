"""A fourth game, kept in one folder under tests/ (tests/fourth_game/) and added with the one
line a game has in the registry, is played through the whole site: a new Partie, its Spiele
with the live preview and the engine's refusal at the field, the sheet and the blank sheet as
PDF, the season's table, the season's workbook, the offline pack's engine, and the contract
tests every game passes. Nothing else of the site names it; no migration is needed."""

import io
import json
import subprocess
import sys
import zipfile

import pytest
from django.core.management import call_command
from django.urls import reverse
from openpyxl import load_workbook

from jobs.models import Job
from league.models import Member, Season
from protocol import games
from protocol.models import Match
from protocol.offline import pack
from tests.conftest import saved
from tests.integration.pages import url

KEY, FOLDER = "zaehlspiel", "tests.fourth_game"
PLAYERS = ["Anna", "Bernd", "Carla", "Dieter"]


@pytest.fixture
def fourth_game():
    games.install(KEY, FOLDER)
    pack.current.cache_clear()
    yield games.plugin(KEY)
    games.uninstall(KEY)
    pack.current.cache_clear()


def pdf_text(data: bytes) -> str:
    assert data.startswith(b"%PDF")
    return subprocess.run(["pdftotext", "-layout", "-", "-"], input=data, capture_output=True, check=True).stdout.decode()


def points(match, values, version=None):
    seats = [s.name for s in match.seats.all()]
    data = {"version": match.version if version is None else version}
    for player, value in values.items():
        data[f"p{seats.index(player)}_points"] = value
    return data


@pytest.mark.django_db(transaction=True)
def test_a_fourth_game_in_one_folder_is_played_through_the_site(
        fourth_game, club, secretary, secretary_client, run_worker):
    members = {name: Member.objects.create(club=club, name=name) for name in PLAYERS}
    season = Season.objects.create(club=club, name="Zählsaison", start="2026-01-01", end="2026-12-31", ruleset=KEY)

    # the new-Partie page offers it, and a Partie of it is created
    page = secretary_client.get(reverse("protocol:new", kwargs={"slug": club.slug})).content.decode()
    assert f'value="{KEY}"' in page and "Zählspiel" in page
    data = {"ruleset": KEY, "date": "2026-11-20", "place": "Nürtingen", "season": season.pk, "scorekeeper": "Bernd",
            **{f"seat{i}": members[name].pk for i, name in enumerate(PLAYERS)}}
    response = secretary_client.post(reverse("protocol:new", kwargs={"slug": club.slug}), data)
    match = Match.objects.get(club=club)
    assert response.status_code == 302 and match.ruleset == KEY and match.season == season

    # the Spiel form: its own inputs, the live preview, a refusal at the field citing its rule
    form = secretary_client.get(url(match, "game_new")).content.decode()
    assert 'name="p0_points"' in form and 'name="p3_points"' in form
    preview = secretary_client.post(url(match, "game_preview"), points(match, {"Anna": 30, "Bernd": 10, "Carla": 5,
                                                                              "Dieter": 0})).content.decode()
    assert "Anna 30" in preview
    refused = secretary_client.post(url(match, "game_new"), points(match, {"Anna": 130, "Bernd": 10, "Carla": 5,
                                                                           "Dieter": 0}))
    assert refused.status_code == 200 and "Zählspiel-Regel 1" in refused.content.decode()
    assert not match.events.exists()  # nothing saved half-way
    for values in ({"Anna": 30, "Bernd": 10, "Carla": 5, "Dieter": 0}, {"Anna": 0, "Bernd": 50, "Carla": 5, "Dieter": 0}):
        match.refresh_from_db()
        assert saved(secretary_client.post(url(match, "game_new"), points(match, values)), match)
    match.refresh_from_db()
    assert secretary_client.post(url(match, "end"), {"reason": "agreed", "version": match.version}).status_code == 302
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    page = secretary_client.get(url(match)).content.decode()
    assert "Anna 30, Bernd 10" in page and "Bernd" in page

    # the printed sheet and the blank sheet of the game
    sheet = pdf_text(secretary_client.get(url(match, "pdf")).getvalue())
    assert "Zählspiel" in sheet and "Dieter" in sheet and "60" in sheet  # Bernd's total
    blank = secretary_client.get(reverse("protocol:blank_pdf", kwargs={"slug": club.slug}),
                                 {"spiel": KEY, "count": 4})
    assert blank.status_code == 200 and "Zählspiel" in pdf_text(blank.content)

    # the season's table: Bernd won with 60
    table = secretary_client.get(reverse("standings_season", kwargs={"slug": club.slug,
                                                                            "season_pk": season.pk})).content.decode()
    assert table.index("Bernd") < table.index("Anna")

    # the season's workbook, made in the background
    secretary_client.post(reverse("export_season", kwargs={"slug": club.slug, "pk": season.pk}))
    job = Job.objects.get()
    run_worker()
    response = secretary_client.get(reverse("job_download", kwargs={"slug": club.slug, "pk": job.pk}))
    workbook = load_workbook(io.BytesIO(b"".join(response.streaming_content)))
    spiele = [[cell for cell in row] for row in workbook["Spiele"].iter_rows(values_only=True)]
    assert any(30 in row and "Anna" in row for row in spiele[1:])


ENGINE = """
import json, sys
sys.path.insert(0, sys.argv[1])
from protocol.offline import bridge
document = {"format": "protocol/1", "ruleset": "zaehlspiel", "players": ["Anna", "Bernd", "Carla"],
            "scorekeeper": "Anna", "events": [{"game": {"points": {"Anna": 10, "Bernd": 20, "Carla": 30}}}]}
typed = {"p0_points": "5", "p1_points": "101", "p2_points": "0"}
print(json.dumps([json.loads(bridge.call("protocol.rules.check", "evaluate_document", json.dumps([document]))),
                  json.loads(bridge.call("protocol.entry_form.state", "check", json.dumps([document, "game", typed])))]))
"""


def test_the_offline_pack_carries_the_fourth_game_and_its_engine_runs_without_django(fourth_game, tmp_path):
    names = zipfile.ZipFile(io.BytesIO(pack.build().data)).namelist()
    assert {"tests/__init__.py", "tests/fourth_game/__init__.py", "tests/fourth_game/rules.py",
            "tests/fourth_game/entry_form.py"} <= set(names)
    assert "tests/fourth_game/plugin.py" not in names and "tests/fourth_game/forms.py" not in names
    zipfile.ZipFile(io.BytesIO(pack.build().data)).extractall(tmp_path)
    # -S: no site-packages, so no Django: only the standard library and the pack, as in the browser
    run = subprocess.run([sys.executable, "-S", "-c", ENGINE, str(tmp_path)], capture_output=True, text=True,
                         check=True, cwd=tmp_path)
    evaluated, checked = json.loads(run.stdout)
    assert evaluated["value"]["totals"] == {"Anna": 10, "Bernd": 20, "Carla": 30}
    assert [(e["field"], e["article"]) for e in checked["value"]["errors"]] == [("p1_points", "Zählspiel-Regel 1")]


def test_the_contract_every_game_passes_runs_on_the_fourth_game_from_its_own_examples():
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:randomly",
                          f"--with-game={KEY}:{FOLDER}", "tests/unit/test_match_engine.py", "-k", KEY],
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stdout[-3000:]
    assert " passed" in run.stdout and "deselected" in run.stdout


def test_adding_the_fourth_game_needs_no_migration(fourth_game, db):
    call_command("makemigrations", "--check", "--dry-run", verbosity=0)  # exits non-zero on a change
