"""Properties every Partie has, over many generated ones (hypothesis).

The generated Partien come from protocol.games.chaotentrumpf.simulation, which deals real Blätter: whatever
it produces a real table could have played, so the engine must accept it.
"""

import copy
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from protocol.games.chaotentrumpf.simulation import simulate_match
from protocol.rules import evaluate

NAMES = ["Anna", "Bernd", "Carla", "Dieter", "Erika", "Frank", "Gisela", "Hans"]
MAX_EVENTS = 150  # some settings make long Partien (NÜV 5 values drag every total down)
PROPERTY_SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def partien(draw, disqualify_rate=0.0):
    n = draw(st.integers(2, 8))
    players = NAMES[:n]
    table = {}
    if n > 4 and draw(st.booleans()):
        table["limit"] = 750
    if draw(st.booleans()):
        table["cards_per_deal"] = draw(st.sampled_from([3, 4]))
    if n > 3 and draw(st.booleans()):
        table["scorekeeper_skips_shuffling"] = True
    if draw(st.booleans()):
        table["no_trump_points"] = draw(st.integers(-300, 0))
    if draw(st.integers(0, 4)) == 0:
        table["max_games"] = draw(st.integers(1, 12))
    seed = draw(st.integers(0, 2**32))
    return simulate_match(players, random.Random(seed), scorekeeper=draw(st.sampled_from(players)),
                          settings=table, penalty_rate=0.05, warning_rate=0.03, annul_rate=0.05,
                          disqualify_rate=disqualify_rate, max_events=MAX_EVENTS)


@PROPERTY_SETTINGS
@given(partien())
def test_any_valid_partie_is_scored_and_decided_without_error(doc):
    result = evaluate(doc)
    assert result.errors == []
    match = result.match
    if match.status != "finished":
        assert len(doc["events"]) == MAX_EVENTS and match.status in ("running", "tiebreak")
    else:
        assert match.winner in doc["players"]


@PROPERTY_SETTINGS
@given(partien(disqualify_rate=0.03))
def test_totals_are_the_sum_of_counted_scores_minus_penalties(doc):
    match = evaluate(doc).match
    for stage in match.stages:
        expected = {p: 0 for p in stage.players}
        for g in match.games:
            if g.stage == stage.depth and not g.annulled:
                for p, s in g.scores.items():
                    expected[p] += s.points
        for s in match.sanctions:
            if s.stage == stage.depth:
                expected[s.player] -= s.points
        assert stage.totals == expected


@PROPERTY_SETTINGS
@given(partien())
def test_nobody_wins_without_exceeding_the_obergrenze_of_the_deciding_stage(doc):
    match = evaluate(doc).match
    deciding = match.stages[-1]
    if match.status != "finished":
        assert match.winner is None and all(t.winner is None for t in match.stages)
    elif match.ended_by in ("limit", "tiebreak"):
        assert deciding.totals[match.winner] > deciding.limit
        assert all(deciding.totals[p] <= deciding.limit for p in deciding.players if p != match.winner)
    else:
        assert match.ended_by == "games"
        assert deciding.totals[match.winner] == max(deciding.totals.values())


@PROPERTY_SETTINGS
@given(partien(disqualify_rate=0.03))
def test_a_stechen_has_at_least_two_players_and_50_points_per_player(doc):
    match = evaluate(doc).match
    for stechen in match.tiebreaks:
        assert len(stechen.players) >= 2 and stechen.limit == 50 * len(stechen.players)
        outer = match.stages[stechen.depth - 1]
        assert set(stechen.players) <= set(outer.players)


@PROPERTY_SETTINGS
@given(partien(disqualify_rate=0.03))
def test_every_spiel_is_shuffled_by_one_of_its_players(doc):
    match = evaluate(doc).match
    for g in match.games:
        assert g.shuffler in g.players
        if doc["settings"].get("scorekeeper_skips_shuffling") and len(g.players) > 3:
            assert g.shuffler != doc["scorekeeper"]


def _break(game, how, rng):
    results = game["results"]
    players = list(results)
    with_tricks = [p for p in players if results[p]["tricks"] > 0]
    p = rng.choice(with_tricks)
    n = len(players)
    if how == "tricks":
        results[p]["tricks"] += 1
    elif how == "negative":
        results[p][rng.choice(["tricks", "points", "trumps"])] = -1
    elif how == "missing":
        del results[rng.choice(players)]
    elif how == "stranger":
        results["Zora"] = {"tricks": 0, "points": 0, "trumps": 0}
    elif how == "too_many_trumps":
        results[p]["trumps"] = results[p]["tricks"] * n + 1
    elif how == "one_point":
        results[p]["points"] = 1
    elif how == "too_many_points":
        results[p]["points"] = 11 * results[p]["tricks"] * n + 1
    elif how == "no_trick_points":
        q = rng.choice(players)
        results[q] = {"tricks": 0, "points": 4, "trumps": 0}
    elif how == "trump":
        game["trump"] = {"level": "suit", "value": "Rot"}
    elif how == "no_trump":
        game["trump"] = None
        game.pop("selection", None)
    elif how == "not_a_number":
        results[p]["points"] = "viele"


BREAKS = ["tricks", "negative", "missing", "stranger", "too_many_trumps", "one_point",
          "too_many_points", "no_trick_points", "trump", "no_trump", "not_a_number"]


@PROPERTY_SETTINGS
@given(partien(), st.sampled_from(BREAKS), st.integers(0, 2**32))
def test_an_invalid_entry_is_always_rejected_with_an_error_for_it(doc, how, seed):
    rng = random.Random(seed)
    broken = copy.deepcopy(doc)
    games = [i for i, e in enumerate(broken["events"]) if "game" in e]
    index = rng.choice(games)
    _break(broken["events"][index]["game"], how, rng)
    result = evaluate(broken)
    assert any(e.event == index for e in result.errors), how
    assert all(e.message for e in result.errors)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.floats(allow_nan=False) | st.text(max_size=5),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=20,
)
event_kinds = st.sampled_from(["game", "penalty", "warning", "disqualification", "end", "annul_match", "x"])
field_names = st.sampled_from(["results", "trump", "selection", "inversions", "annulled", "player", "points",
                               "reason", "decided_by", "tricks", "trumps", "level", "value", "cards"])


@st.composite
def junk_events(draw):
    kind = draw(event_kinds)
    body = draw(st.dictionaries(field_names, json_values, max_size=5) | json_values)
    return {kind: body}


@settings(max_examples=300, deadline=None)
@given(st.lists(junk_events(), max_size=6), st.dictionaries(st.text(max_size=12), json_values, max_size=3))
def test_any_json_is_answered_with_errors_never_an_exception(events, settings_data):
    doc = {"format": "protocol/1", "ruleset": "chaotentrumpf", "players": ["Anna", "Bernd", "Carla"],
           "scorekeeper": "Anna", "settings": settings_data, "events": events}
    result = evaluate(doc)
    assert result.errors or result.match is not None
    for error in result.errors:
        assert isinstance(error.message, str) and error.message


@settings(max_examples=200, deadline=None)
@given(json_values)
def test_any_document_at_all_is_answered_without_an_exception(doc):
    result = evaluate(doc)
    assert result.errors


def _paths(node, path=()):
    yield path
    if isinstance(node, dict):
        for key, value in node.items():
            yield from _paths(value, path + (key,))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _paths(value, path + (i,))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(partien(), st.integers(0, 2**32), st.lists(json_values, min_size=1, max_size=3))
def test_a_corrupted_protocol_is_answered_without_an_exception(doc, seed, values):
    rng = random.Random(seed)
    broken = copy.deepcopy(doc)
    for value in values:
        path = rng.choice(list(_paths(broken))[1:])
        node = broken
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = value
    result = evaluate(broken)
    assert result.errors or result.match is not None
