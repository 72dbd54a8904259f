"""``manage.py check_protocol FILE`` on a protocol of each game with games recorded as points
only: each such game is named with the engine's words on what was not checked, and counted;
the totals are those of the protocol in full. ``python -m protocol.rules check`` answers the same."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from protocol.rules import evaluate
from tests.offline_documents import chaotentrumpf_documents, doppelkopf_documents, tarot_documents
from tests.unit.points_only_documents import as_points

ROOT = Path(__file__).resolve().parents[2]
DOCUMENTS = {"chaotentrumpf": chaotentrumpf_documents, "doppelkopf": doppelkopf_documents, "tarot": tarot_documents}
WORDS = {"chaotentrumpf": "nur Punkte: Augen, Stiche und Trümpfe nicht geprüft",
         "doppelkopf": "nur Punkte: Augen, Ansagen und Sonderpunkte nicht geprüft",
         "tarot": "nur Punkte: Bouts, Kartenpunkte und Prämien nicht geprüft"}


def run(command, document, tmp_path):
    path = tmp_path / "protokoll.json"
    path.write_text(json.dumps(document, ensure_ascii=False), encoding="utf-8")
    # A database that does not exist: the check must never need or create one.
    env = os.environ | {"DATABASE_URL": f"sqlite:///{tmp_path / 'never.sqlite3'}"}
    done = subprocess.run([sys.executable, *command, str(path)], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=60)
    assert not (tmp_path / "never.sqlite3").exists(), "the check wrote to the database"
    return done


def full_document(game):
    return next(document for _name, document in DOCUMENTS[game]() if evaluate(document).ok)


@pytest.mark.parametrize("game", sorted(DOCUMENTS))
def test_each_game_as_points_only_is_named_and_counted(game, tmp_path):
    full = full_document(game)
    typed = as_points(full, keep_facts=True, every=2)
    done = run(["manage.py", "check_protocol"], typed, tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    out = json.loads(done.stdout)
    numbers = [g["number"] for g in out["games"] if g.get("points_only")]
    assert numbers and len(numbers) < len(out["games"])
    assert out["points_only"] == {
        "count": len(numbers), "summary": f"{len(numbers)} Spiele nur als Punkte",
        "games": [{"number": n, "stage": 0, "explanation": WORDS[game]} for n in numbers]}
    assert out["totals"] == evaluate(full).match.as_json()["totals"]
    assert json.loads(run(["-m", "protocol.rules", "check"], typed, tmp_path).stdout) == out


def test_one_game_as_points_is_said_in_the_singular_and_a_full_protocol_says_nothing(tmp_path):
    full = full_document("doppelkopf")
    games = sum("game" in e for e in full["events"])
    one = as_points(full, every=games)  # only the first game
    out = json.loads(run(["manage.py", "check_protocol"], one, tmp_path).stdout)
    assert out["points_only"]["summary"] == "1 Spiel nur als Punkte"
    out = json.loads(run(["manage.py", "check_protocol"], full, tmp_path).stdout)
    assert "points_only" not in out


def test_a_refused_points_line_exits_1_naming_the_article(tmp_path):
    typed = as_points(full_document("chaotentrumpf"))
    body = next(e["game"] for e in typed["events"] if "game" in e)
    body["scores"] = dict.fromkeys(body["scores"], -200)  # everybody "kein Stich" (Art. 16a)
    done = run(["manage.py", "check_protocol"], typed, tmp_path)
    assert done.returncode == 1
    (error,) = json.loads(done.stdout)["errors"]
    assert error["field"] == "scores" and "Art. 7, 10, 16a" in error["message"]
