"""A document's keys are written in the format page's order and its players in seating order,
whatever order the database gave them back in (PostgreSQL's jsonb keeps none)."""

import json

from protocol.format_order import in_format_order


def test_a_partie_is_written_in_the_formats_order_with_its_players_in_seating_order():
    events = [
        {"game": {"results": {"Dieter": {"trumps": 1, "points": 20, "tricks": 2},
                              "Anna": {"trumps": 0, "tricks": 3, "points": 30}},
                  "trump": {"value": "rot", "level": "colour"},
                  "inversions": [{"target": {"value": "X7", "level": "card"}, "player": "Anna", "declared": "ultra"}]}},
        {"penalty": {"reason": "zu früh ausgespielt", "points": 100, "player": "Dieter", "zeta": 1, "alpha": 2}},
    ]
    before = json.dumps(events)
    ordered = in_format_order(events, ["Anna", "Bernd", "Carla", "Dieter"])
    assert json.dumps(events) == before  # the stored events stay as they were read
    game = ordered[0]["game"]
    assert list(game) == ["trump", "inversions", "results"]
    assert list(game["results"]) == ["Anna", "Dieter"]  # seating order, not the stored order
    assert [list(line) for line in game["results"].values()] == [["tricks", "points", "trumps"]] * 2
    assert list(game["trump"]) == ["level", "value"]
    assert list(game["inversions"][0]) == ["declared", "target", "player"]
    assert list(game["inversions"][0]["target"]) == ["level", "value"]
    # keys the format page does not list come after the listed ones, by name
    assert list(ordered[1]["penalty"]) == ["points", "player", "reason", "alpha", "zeta"]
    assert ordered == events  # the same data
