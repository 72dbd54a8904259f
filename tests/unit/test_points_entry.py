"""The entry form's "points only" mode (protocol/entry_form/points.py): the fields of a Spiel
recorded as the points per player, typed back, give the very same body in every game; the
engine's errors of the scores sit at the player's points input; the switch means nothing to
a game whose Spiel is points already. Pure Python, the same code the offline page runs."""

import pytest

from protocol import entry_form, games
from protocol.entry_form import points, state
from protocol.rules import evaluate
from tests.offline_documents import chaotentrumpf_documents, doppelkopf_documents, tarot_documents
from tests.unit.points_only_documents import as_points

DOCUMENTS = {"chaotentrumpf": lambda: chaotentrumpf_documents(2), "doppelkopf": lambda: doppelkopf_documents(2),
             "tarot": lambda: tarot_documents(2)}


def typed(fields: dict) -> dict:
    """The fields as the browser's form data holds them: every value a string ("on" a ticked box)."""
    return {k: ("on" if v else "") if isinstance(v, bool) else v if isinstance(v, list) else
            ("" if v is None else str(v)) for k, v in fields.items()}


def options(document):
    return state.game_options(document["ruleset"], document)


@pytest.mark.parametrize("ruleset", sorted(DOCUMENTS))
def test_every_points_only_spiel_comes_back_from_its_typed_fields(ruleset):
    """Each points-only Spiel as its correction form shows it (the switch on, its points and
    noted facts), typed back: the same points and facts, so the engine's answer is the same
    (a Trumpfwahl is typed as its cards, the trump it gives is the engine's)."""
    for _name, document in DOCUMENTS[ruleset]():
        if not evaluate(document).ok:
            continue
        converted = as_points(document, keep_facts=True, every=2)
        seats = converted["players"]
        events = []
        for index, event in enumerate(converted["events"]):
            body = event.get("game")
            if points.recorded(body):
                players = [p for p in seats if p in body["scores"]]
                fields = entry_form.game_initial(ruleset, body, players, seats)
                assert fields[points.SWITCH] is True, index
                event = {"game": entry_form.game_body(ruleset, typed(fields), players, seats, **options(converted))}
                assert event["game"]["scores"] == body["scores"], index
            events.append(event)
        assert evaluate(converted | {"events": events}).as_json() == evaluate(converted).as_json()
        assert any(points.recorded(e.get("game")) for e in events)


def test_a_full_spiel_opens_without_the_switch_and_the_switch_off_gives_a_full_body():
    document = next(d for _n, d in chaotentrumpf_documents(1) if evaluate(d).ok)
    body = next(e["game"] for e in document["events"] if "game" in e and "results" in e["game"])
    seats = document["players"]
    fields = entry_form.game_initial("chaotentrumpf", body, list(body["results"]), seats)
    assert not fields.get(points.SWITCH)
    assert "results" in entry_form.game_body("chaotentrumpf", typed(fields), list(body["results"]), seats)


@pytest.mark.parametrize("ruleset, facts", [("chaotentrumpf", {"trump": "suit:Herz"}), ("doppelkopf", {"dealer": "Anna"}),
                                            ("tarot", {"dealer": "Anna", "taker": "Bernd", "contract": "prise"})])
def test_the_check_the_offline_page_runs_puts_a_players_error_at_his_points(ruleset, facts):
    """protocol.entry_form.state.check, as static/js/offline/entry.js calls it: Dieter's points
    missing is the engine's German message, at Dieter's input; typed, the Spiel is scored."""
    seats = ["Anna", "Bernd", "Carla", "Dieter"]
    document = {"format": "protocol/1", "ruleset": ruleset, "players": seats, "scorekeeper": "Bernd",
                "settings": {"rules": "tcg"} if ruleset == "doppelkopf" else {}, "events": []}
    line = {"chaotentrumpf": [31, 31, 21, 21], "doppelkopf": [2, 2, -2, -2], "tarot": [-25, 75, -25, -25]}[ruleset]
    fields = {"points_only": "on", "trump_mode": "direct", **facts} | {f"p{i}_score": str(n) for i, n in enumerate(line)}
    missing = fields | {"p3_score": ""}
    assert not entry_form.is_complete(ruleset, missing, seats, seats, **options(document))
    answer = state.check(document, "game", missing)
    assert [(e["field"], e["player"]) for e in answer["errors"]] == [("p3_score", "Dieter")]
    assert "Für Dieter fehlen die Punkte" in answer["errors"][0]["message"] and answer["errors"][0]["article"]
    assert entry_form.is_complete(ruleset, fields, seats, seats, **options(document))
    answer = state.check(document, "game", fields)
    assert not answer["errors"] and answer["body"]["scores"] == dict(zip(seats, line))
    assert [s["points"] for s in answer["preview"]["scores"]] == line


def test_a_sum_names_the_points_as_a_whole_and_every_slot_is_named():
    seats = ["Anna", "Bernd", "Carla", "Dieter"]
    mapping = games.entry_form("doppelkopf")
    assert {"scores", "p0_score", "p3_score"} <= set(entry_form.slots_of(mapping, seats, seats, rules="tcg"))
    assert entry_form.groups_of(mapping, seats, seats, rules="tcg")["scores"] == [f"p{i}_score" for i in range(4)]
    document = {"format": "protocol/1", "ruleset": "doppelkopf", "players": seats, "scorekeeper": "Bernd",
                "settings": {"rules": "tcg"}, "events": []}
    fields = {"points_only": "on", "p0_score": "2", "p1_score": "2", "p2_score": "-2", "p3_score": "-1"}
    assert [e["field"] for e in state.check(document, "game", fields)["errors"]] == ["scores"]


def test_the_next_spiel_opens_in_the_mode_of_the_partys_last_spiel():
    seats = ["Anna", "Bernd", "Carla", "Dieter"]
    document = {"format": "protocol/1", "ruleset": "tarot", "players": seats, "scorekeeper": "Bernd",
                "settings": {}, "events": []}
    full = {"dealer": "Anna", "taker": "Bernd", "contract": "garde", "oudlers": 2, "points": 49}
    only = {"scores": {"Anna": -25, "Bernd": 75, "Carla": -25, "Dieter": -25}}
    assert not points.remembered(evaluate(document).match)
    penalty = {"penalty": {"player": "Anna", "points": 100, "reason": "Karte gezeigt", "decided_by": seats[1:]}}
    assert points.remembered(evaluate(document | {"events": [{"game": full}, {"game": only}, penalty]}).match)
    assert not points.remembered(evaluate(document | {"events": [{"game": only}, {"game": full}]}).match)


def test_a_game_whose_spiel_is_points_already_has_no_switch():
    games.install("zaehlspiel", "tests.fourth_game")
    try:
        mapping = games.entry_form("zaehlspiel")
        assert not points.offered(mapping)
        seats = ["Anna", "Bernd", "Carla"]
        fields = {"points_only": "on", "dealer": "Anna", "p0_points": "10", "p1_points": "20", "p2_points": "30"}
        assert entry_form.game_body("zaehlspiel", fields, seats, seats) == {
            "dealer": "Anna", "points": {"Anna": 10, "Bernd": 20, "Carla": 30}}
        assert "p0_score" not in entry_form.slots_of(mapping, seats, seats)
    finally:
        games.uninstall("zaehlspiel")


def test_an_error_of_an_input_points_only_hides_goes_to_the_forms_top():
    class Error:
        def __init__(self, player, field):
            self.player, self.field = player, field

    seats = ["Anna", "Bernd", "Carla", "Dieter"]
    mapping = games.entry_form("chaotentrumpf")
    on = {"points_only": "on"}
    assert entry_form.field_of(mapping, Error("Anna", None), on, seats, seats) is None  # not the hidden p0_tricks
    assert entry_form.field_of(mapping, Error("Anna", None), {}, seats, seats) == "p0_tricks"
    assert entry_form.field_of(mapping, Error(None, "trump"), on, seats, seats) == "trump"  # noted beside the points
    assert entry_form.field_of(mapping, Error("Carla", "scores"), on, seats, seats) == "p2_score"
