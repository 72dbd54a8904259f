"""``manage.py check_protocol FILE`` on a French Tarot protocol, as a club secretary runs it."""

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PLAYERS = ["Anna", "Bernd", "Carla", "Dieter"]

# The FFT worked example (docs/tarot.md), then a lost Prise and a deal declared null.
WORKED_EXAMPLE = {"dealer": "Anna", "taker": "Bernd", "contract": "garde", "partner": None,
                  "oudlers": 2, "points": 49, "petit_au_bout": "attack",
                  "poignees": [{"player": "Bernd", "size": "simple"}], "chelem": None, "null": False}
LOST_PRISE = {"dealer": "Bernd", "taker": "Carla", "contract": "prise", "oudlers": 2, "points": 40.5}


def protocol(*events):
    return {"format": "protocol/1", "ruleset": "tarot", "club": "Tarot-Club Nürtingen",
            "date": "2026-11-20", "players": PLAYERS, "scorekeeper": "Anna", "settings": {},
            "events": list(events)}


def run_check(document, tmp_path):
    path = tmp_path / "tarot.json"
    path.write_text(json.dumps(document, ensure_ascii=False), encoding="utf-8")
    # A database that does not exist: the check must never need or create one.
    env = os.environ | {"DATABASE_URL": f"sqlite:///{tmp_path / 'never.sqlite3'}"}
    done = subprocess.run([sys.executable, "manage.py", "check_protocol", str(path)], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=60)
    assert not (tmp_path / "never.sqlite3").exists(), "the check wrote to the database"
    return done


def test_a_valid_tarot_protocol_exits_0_with_each_deal_and_its_defender_score(tmp_path):
    done = run_check(protocol(
        {"game": WORKED_EXAMPLE},
        {"game": LOST_PRISE},
        {"game": {"dealer": "Carla", "null": True}},
        {"warning": {"player": "Dieter", "reason": "Karte vorzeitig gezeigt"}},
        {"penalty": {"player": "Dieter", "points": 100, "reason": "wiederholt"}},
        {"end": {"reason": "time"}},
    ), tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    out = json.loads(done.stdout)
    first, second, null = out["games"]
    assert first["defender_score"] == 106
    assert first["scores"] == {"Anna": -106, "Bernd": 318, "Carla": -106, "Dieter": -106}
    assert first["explanation"] == ("Garde, 2 Bouts, 49 Punkte: 25 + 8 + 10 (Petit au bout) = 43, "
                                    "x 2 = 86, + 20 Poignée = 106 je Verteidiger")
    assert second["defender_score"] == -26 and second["scores"]["Carla"] == -78
    assert null["defender_score"] == 0 and set(null["scores"].values()) == {0}
    assert out["totals"] == {"Anna": -80, "Bernd": 344, "Carla": -184, "Dieter": -180}
    assert (out["ruleset"], out["status"], out["winner"]) == ("tarot", "finished", "Bernd")
    assert [p["kind"] for p in out["penalties"]] == ["warning", "penalty"]


def test_a_tarot_protocol_that_breaks_rules_exits_1_with_every_error(tmp_path):
    done = run_check(protocol(
        {"game": WORKED_EXAMPLE | {"oudlers": 3, "points": 12}},  # 3 bouts alone are 13.5
        {"game": WORKED_EXAMPLE | {"partner": "Carla", "contract": "grande"}},
        {"penalty": {"player": "Dieter", "points": 50, "reason": "wiederholt"}},
    ), tmp_path)
    assert done.returncode == 1, done.stdout + done.stderr
    errors = json.loads(done.stdout)["errors"]
    found = {(e["event"], e["player"], e["field"]) for e in errors}
    assert found == {(0, None, "points"), (1, None, "partner"), (1, None, "contract"), (2, "Dieter", "points")}
    assert all(set(e) == {"event", "player", "field", "message"} for e in errors)
    assert all("FFT" in e["message"] for e in errors)
