"""``manage.py check_protocol FILE`` end to end, as a club secretary runs it on a file."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data"


def run_check(path, tmp_path):
    # A database that does not exist: the check must never need or create one.
    env = os.environ | {"DATABASE_URL": f"sqlite:///{tmp_path / 'never.sqlite3'}"}
    done = subprocess.run([sys.executable, "manage.py", "check_protocol", str(path)], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=60)
    assert not (tmp_path / "never.sqlite3").exists(), "the check wrote to the database"
    return done


def test_a_valid_protocol_exits_0_with_the_computed_match(tmp_path):
    done = run_check(DATA / "first-spiel.json", tmp_path)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    game = out["games"][0]
    assert (out["decks"], out["cards_per_hand"]) == (3, 10)
    assert game["shuffler"] == "Bernd" and game["trump"] == {"level": "suit", "value": "Pik"}
    assert game["selected_trump"] == {"level": "suit", "value": "Herz"}
    assert game["scores"] == {"Anna": 71, "Bernd": 40, "Carla": -70, "Dieter": -200}
    assert out["penalties"][0]["after_game"] == 1 and out["penalties"][0]["kind"] == "penalty"
    assert out["totals"] == {"Anna": 71, "Bernd": 40, "Carla": -270, "Dieter": -200}
    assert (out["status"], out["winner"], out["tiebreaks"]) == ("running", None, [])


def test_the_spec_example_with_every_event_kind_ends_annulled(tmp_path):
    done = run_check(DATA / "spec-example.json", tmp_path)
    assert done.returncode == 0, done.stdout
    out = json.loads(done.stdout)
    assert out["status"] == "annulled" and out["winner"] is None
    assert [p["kind"] for p in out["penalties"]] == ["penalty", "warning", "disqualification"]


def test_a_partie_with_a_stechen_names_its_players_limit_and_winner(tmp_path):
    out = json.loads(run_check(DATA / "stechen.json", tmp_path).stdout)
    (stechen,) = out["tiebreaks"]
    assert stechen["players"] == ["Anna", "Bernd"] and stechen["limit"] == 100
    assert out["status"] == "finished" and out["winner"] == stechen["winner"] == "Bernd"
    assert {g["stage"] for g in out["games"]} == {0, 1}


def test_a_protocol_that_breaks_rules_exits_1_with_every_error(tmp_path):
    done = run_check(DATA / "invalid.json", tmp_path)
    assert done.returncode == 1
    errors = json.loads(done.stdout)["errors"]
    found = {(e["event"], e["player"], e["field"]) for e in errors}
    assert (0, "Carla", None) in found  # her line is missing
    assert (0, "Anna", "points") in found  # 1 Auge is impossible
    assert (1, "Carla", "points") in found  # a Strafe of 50 is below SV 3
    assert all(set(e) == {"event", "player", "field", "message"} for e in errors)
    assert all("Art." in e["message"] or "SV" in e["message"] for e in errors)


@pytest.mark.parametrize("name", ["not-json.json", "does-not-exist.json"])
def test_an_unreadable_file_exits_2_with_a_german_message(tmp_path, name):
    done = run_check(DATA / name, tmp_path)
    assert done.returncode == 2 and done.stdout == ""
    assert "JSON" in done.stderr or "gelesen" in done.stderr


def _first_spiel_with(replace, by):
    text = (DATA / "first-spiel.json").read_text()
    assert replace in text
    return text.replace(replace, by, 1)


@pytest.mark.parametrize("depth", [41, 700, 900, 100_000])
def test_a_deeply_nested_file_exits_2_naming_the_nesting_without_a_traceback(tmp_path, depth):
    path = tmp_path / "tief.json"
    path.write_text(_first_spiel_with('"agreed": false', '"agreed": ' + "[" * depth + "]" * depth))
    done = run_check(path, tmp_path)
    assert done.returncode == 2 and done.stdout == "", done.stderr
    assert "zu tief verschachtelt" in done.stderr and "Traceback" not in done.stderr


@pytest.mark.parametrize("number", ["9" * 5000, "-" + "9" * 5000, "9223372036854775808", "1e400", "NaN", "-Infinity"])
def test_a_number_no_protocol_can_hold_exits_2_with_a_german_message(tmp_path, number):
    path = tmp_path / "zahl.json"
    path.write_text(_first_spiel_with('"limit": 1000', f'"limit": {number}'))
    done = run_check(path, tmp_path)
    assert done.returncode == 2 and done.stdout == "", done.stderr
    assert "enthält" in done.stderr and "Traceback" not in done.stderr


def test_the_largest_number_a_file_may_hold_is_read_and_judged_by_the_rules(tmp_path):
    path = tmp_path / "gross.json"
    path.write_text(_first_spiel_with('"limit": 1000', '"limit": 9223372036854775807'))
    assert run_check(path, tmp_path).returncode in (0, 1)
