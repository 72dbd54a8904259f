"""``manage.py check_protocol`` on Doppelkopf files: the command is the same for every ruleset."""

import json

from .test_check_protocol import run_check

PLAYERS = ["Anna", "Bernd", "Carla", "Dieter", "Erika"]


def protocol(*events, rules="tcg"):
    return {"format": "protocol/1", "ruleset": "doppelkopf", "club": "Doko-Runde Nürtingen",
            "date": "2026-11-20", "players": PLAYERS, "scorekeeper": "Anna",
            "settings": {"rules": rules}, "events": list(events)}


SEED_EXAMPLE = {"game": {"type": "normal", "dealer": "Erika", "re": ["Anna", "Carla"], "re_points": 180,
                         "schwarz": None, "announcements": {"re": ["re", "keine 90", "keine 60"]},
                         "extras": {"re": {"doppelkopf": 1}, "kontra": {"fuchs": 1}}, "revoke": None}}


def write(tmp_path, document):
    path = tmp_path / "doppelkopf.json"
    path.write_text(json.dumps(document, ensure_ascii=False), encoding="utf-8")
    return path


def test_a_valid_doppelkopf_protocol_exits_0_with_the_computed_match(tmp_path):
    events = [SEED_EXAMPLE, {"penalty": {"player": "Bernd", "points": 3, "reason": "Karten gezeigt"}},
              {"end": {"reason": "time"}}]
    done = run_check(write(tmp_path, protocol(*events)), tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    out = json.loads(done.stdout)
    (game,) = out["games"]
    assert (game["winner"], game["value"]) == ("kontra", 10)  # TCG 3 and 5, the seed's example
    assert game["scores"] == {"Anna": -10, "Bernd": 10, "Carla": -10, "Dieter": 10, "Erika": 0}
    assert out["penalties"][0]["kind"] == "penalty" and out["totals"]["Bernd"] == 7
    assert (out["ruleset"], out["status"], out["winner"]) == ("doppelkopf", "finished", "Dieter")


def test_a_doppelkopf_protocol_that_breaks_rules_exits_1_with_every_error(tmp_path):
    bad_game = {"game": {"type": "normal", "dealer": "Erika", "re": ["Anna", "Erika"], "re_points": 250,
                         "announcements": {"kontra": ["keine 90"]}}}
    events = [bad_game, {"penalty": {"player": "Carla", "points": 500, "reason": "x"}}]
    done = run_check(write(tmp_path, protocol(*events, rules="ddv")), tmp_path)
    assert done.returncode == 1
    errors = json.loads(done.stdout)["errors"]
    found = {(e["event"], e["player"], e["field"]) for e in errors}
    assert found == {(0, "Erika", "re"), (0, None, "re_points"), (0, None, "announcements"), (1, "Carla", "points")}
    assert all(set(e) == {"event", "player", "field", "message"} for e in errors)
    assert all("TCG" in e["message"] or "DDV" in e["message"] for e in errors)
