"""protocol/entry_form: the entry forms' fields -> the engine's body, an error -> its field, and
the entry page's state of a document: pure Python, the same code the offline page runs."""

import json
from pathlib import Path

import pytest

from protocol import entry_form
from protocol.entry_form import state
from protocol.games.chaotentrumpf import entry_form as chaotentrumpf
from protocol.games.doppelkopf import entry_form as doppelkopf
from protocol.games.tarot import entry_form as tarot
from protocol.rules import evaluate
from tests.unit.builders import PLAYERS, document, game, quiet, twins

DATA = Path(__file__).resolve().parents[1] / "data"


def typed(fields: dict) -> dict:
    """The fields as the browser's form data holds them: every value a string."""
    return {k: v if isinstance(v, (list, bool)) else ("" if v is None else str(v)) for k, v in fields.items()}


@pytest.mark.parametrize("name", ["first-spiel.json", "stechen.json", "spec-example.json"])
def test_every_stored_spiel_comes_back_from_its_typed_fields(name):
    """Each Spiel of a document as its correction form shows it, typed back: the engine's
    answer for the whole document is the same."""
    doc = json.loads((DATA / name).read_text())
    computed = evaluate(doc).match
    played = {g.event: g for g in computed.games}
    events = []
    for index, event in enumerate(doc["events"]):
        if "game" in event:
            fields = chaotentrumpf.initial(event["game"], played[index].players, doc["players"])
            if event["game"].get("annulled"):
                fields |= {"annulled": "on", "annul_reason": event["game"].get("annul_reason", "")}
            event = {"game": entry_form.game_body("chaotentrumpf", typed(fields), played[index].players,
                                               doc["players"])}
        events.append(event)
    assert evaluate(doc | {"events": events}).as_json() == evaluate(doc).as_json()


def test_doppelkopf_and_tarot_bodies_from_typed_fields():
    players = ["Anna", "Bernd", "Carla", "Dieter"]
    fields = {"type": "normal", "dealer": "Anna", "re": ["Anna", "Bernd"], "re_points": "151",
              "re_announcement": "2", "kontra_announcement": "", "re_fuchs": "1"}
    body = entry_form.game_body("doppelkopf", fields, players, players, rules="tcg")
    assert body["re_points"] == 151 and body["announcements"] == {"re": ["re", "keine 90"]}
    assert body["extras"]["re"]["fuchs"] == 1 and "herzstich" not in entry_form.game_body(
        "doppelkopf", fields, players, players, rules="ddv")["extras"]["re"]
    deal = entry_form.game_body("tarot", {"dealer": "Anna", "taker": "Bernd", "contract": "garde", "oudlers": "2",
                                       "points": "40,5", "p1_poignee": "simple", "null": ""}, players, players)
    assert deal["points"] == 40.5 and deal["oudlers"] == 2 and deal["null"] is False
    assert deal["poignees"] == [{"player": "Bernd", "size": "simple"}] and deal["partner"] is None


def test_the_state_names_the_next_spiel_its_mischer_and_the_leader():
    doc = json.loads((DATA / "first-spiel.json").read_text())
    facts = state.state(doc)
    assert facts["number"] == 2 and facts["dealer"] == "Carla" and facts["leader"] == "Anna"
    assert facts["open"] and facts["stechen"] is None and facts["players"] == doc["players"]


def test_the_state_of_a_stechen_plays_only_the_tied_players():
    doc = json.loads((DATA / "stechen.json").read_text())
    computed = evaluate(doc).match
    opened = next(t for t in computed.tiebreaks)
    cut = document(players=doc["players"], scorekeeper=doc["scorekeeper"], **doc["settings"])
    cut["events"] = doc["events"][: opened.opened_by_event + 1]
    facts = state.state(cut)
    assert facts["stechen"] == {"players": opened.players, "limit": opened.limit}
    assert facts["players"] == opened.players
    assert [t["player"] for t in facts["totals"]] == opened.players


def test_a_checked_spiel_gives_the_preview_and_the_state_after_it():
    doc = document([quiet()])
    fields = typed(chaotentrumpf.initial(game({"Anna": (3, 56, 2), "Bernd": (4, 40, 1), "Carla": (3, 30, 0),
                                                       "Dieter": (0, 0, 0)})["game"], PLAYERS, PLAYERS))
    answer = state.check(doc, "game", fields)
    assert answer["errors"] == []
    anna = next(s for s in answer["preview"]["scores"] if s["player"] == "Anna")
    assert anna["points"] == 71 and "Art. 16b" in anna["explanation"]
    assert answer["state"]["number"] == 3 and answer["state"]["events"] == 2


def test_a_rule_error_marks_its_field_and_names_its_article():
    doc = document([quiet()])
    fields = typed(chaotentrumpf.initial(game({"Anna": (3, 56, 2), "Bernd": (4, 40, 1), "Carla": (3, 30, 0),
                                                       "Dieter": (0, 0, 0)})["game"], PLAYERS, PLAYERS))
    fields["p3_trumps"] = "2"  # no trick, yet two trumps in them
    errors = state.check(doc, "game", fields)["errors"]
    assert errors and errors[0]["field"] and errors[0]["field"].startswith("p3_")
    assert all(e["article"] for e in errors)


def test_a_strafe_outside_the_bounds_marks_the_points():
    doc = document([quiet()])
    answer = state.check(doc, "penalty", {"kind": "penalty", "player": "Carla", "points": "7", "reason": "zu spät",
                                         "decided_by": ["Anna", "Bernd", "Dieter"]})
    assert [(e["field"], e["article"]) for e in answer["errors"]] == [("points", "SV 3")]
    fine = state.check(doc, "penalty", {"kind": "penalty", "player": "Carla", "points": "200", "reason": "zu spät",
                                       "decided_by": ["Anna", "Bernd", "Dieter"]})
    assert fine["errors"] == [] and fine["body"]["points"] == 200
    before = next(t["total"] for t in state.state(doc)["totals"] if t["player"] == "Carla")
    assert next(t["total"] for t in fine["state"]["totals"] if t["player"] == "Carla") == before - 200


def test_a_doppelkopf_game_is_checked_from_its_fields_with_the_rotation_dealer():
    players = ["Anna", "Bernd", "Carla", "Dieter"]
    doc = {"format": "protocol/1", "ruleset": "doppelkopf", "players": players, "scorekeeper": "Anna",
           "settings": {"rules": "tcg"}, "events": []}
    assert state.state(doc)["dealer"] == "Anna"
    fields = {"type": "normal", "dealer": "Anna", "re": ["Anna", "Bernd"], "re_points": "151"}
    answer = state.check(doc, "game", fields)
    assert answer["errors"] == [] and answer["state"]["dealer"] == "Bernd" and answer["state"]["number"] == 2
    assert {s["player"] for s in answer["preview"]["scores"]} == set(players)
    refused = state.check(doc, "game", fields | {"re_points": "300"})
    assert [e["field"] for e in refused["errors"]] == ["re_points"]


def test_a_tarot_deal_is_checked_from_its_fields():
    players = ["Anna", "Bernd", "Carla", "Dieter"]
    doc = {"format": "protocol/1", "ruleset": "tarot", "players": players, "scorekeeper": "Anna",
           "settings": {}, "events": []}
    fields = {"dealer": "Anna", "taker": "Bernd", "contract": "garde", "oudlers": "2", "points": "49",
              "petit_au_bout": "attack", "p1_poignee": "simple"}
    answer = state.check(doc, "game", fields)
    assert answer["errors"] == [] and answer["state"]["dealer"] == "Bernd"
    assert sum(s["points"] for s in answer["preview"]["scores"]) == 0  # Tarot scores sum to zero
    refused = state.check(doc, "game", fields | {"points": "95"})
    assert refused["errors"] and refused["errors"][0]["field"] == "points"


def test_a_correction_replaces_its_entry_and_checks_what_follows():
    doc = document([quiet(), quiet()])
    fields = typed(chaotentrumpf.initial(twins()["game"], PLAYERS, PLAYERS))
    answer = state.check_correction(doc, 1, "game", fields)
    assert answer["errors"] == [] and answer["kind"] == "game" and answer["body"] == twins()["game"]
    assert answer["preview"]["number"] == 2 and answer["state"]["number"] == 3  # nothing appended
    assert answer["state"] == state.state(doc | {"events": [quiet(), twins()]})  # as the server would store it
    fields["p3_trumps"] = "2"  # Dieter: no trick, yet two trumps
    refused = state.check_correction(doc, 1, "game", fields)
    assert refused["errors"] and refused["errors"][0]["field"].startswith("p3_") and refused["state"] is None


def test_a_correction_keeps_the_kind_of_its_entry():
    doc = document([quiet()])
    answer = state.check_correction(doc, 0, "warning", {"kind": "warning", "player": "Carla", "reason": "zu spät"})
    assert [(e["field"], e["message"][:21]) for e in answer["errors"]] == [("kind", "Die Art eines Eintrag")]
    assert "keinen Eintrag an Stelle 4" in state.check_correction(doc, 4, "game", {})["errors"][0]["message"]


def test_a_sum_of_a_column_marks_every_players_input_of_that_column():
    """"Die Stiche ergeben zusammen 11" names no player: it marks the column, every
    player's Stiche (Art. 7, 10); the offline page gets the same field from the same code."""
    doc = document([quiet()])
    fields = typed(chaotentrumpf.initial(game({"Anna": (3, 56, 2), "Bernd": (4, 40, 1), "Carla": (4, 30, 0),
                                                       "Dieter": (0, 0, 0)})["game"], PLAYERS, PLAYERS))
    errors = state.check(doc, "game", fields)["errors"]
    column = [e for e in errors if "Die Stiche ergeben zusammen 11" in e["message"]]
    assert column and column[0]["field"] == "tricks"
    columns = chaotentrumpf.groups(PLAYERS, PLAYERS)
    assert columns["tricks"] == ["p0_tricks", "p1_tricks", "p2_tricks", "p3_tricks"]
    assert "tricks" in chaotentrumpf.slot_names(PLAYERS, PLAYERS)


def test_the_groups_of_doppelkopf_and_tarot_name_their_inputs():
    players = ["Anna", "Bernd", "Carla", "Dieter"]
    doc = {"format": "protocol/1", "ruleset": "tarot", "players": players, "scorekeeper": "Anna",
           "settings": {}, "events": []}
    fields = {"dealer": "Anna", "taker": "Bernd", "contract": "garde", "oudlers": "2", "points": "49",
              **{f"p{i}_poignee": "triple" for i in range(3)}}  # 3 x 15 trumps at four: more than there are
    errors = state.check(doc, "game", fields)["errors"]
    assert [e["field"] for e in errors] == ["poignees"]
    assert tarot.groups(players, players)["poignees"] == [f"p{i}_poignee" for i in range(4)]
    extras = doppelkopf.groups(players, players, rules="ddv")["extras"]
    assert "re_fuchs" in extras and "kontra_karl" in extras and "re_herzstich" not in extras
