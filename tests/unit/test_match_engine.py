"""The rules every game's match shares: the engine refuses the same input for every game of
the registry, whatever way the document came in. Each game brings its own cases
(``Ruleset.examples``, ``Ruleset.article``, ``Ruleset.penalties``), so a new game passes these
tests without an edit here."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from protocol.rules import RULESETS, evaluate

PLAYERS = ["Anna", "Bernd", "Carla", "Dieter"]


def document(ruleset, *events):
    return {"format": "protocol/1", "ruleset": ruleset, "players": PLAYERS, "scorekeeper": "Anna",
            "events": list(events)}


def fields(doc):
    return [(e.event, e.field) for e in evaluate(doc).errors]


def a_valid_penalty(ruleset):
    return RULESETS[ruleset].penalties.low


@pytest.mark.parametrize("ruleset", sorted(RULESETS))
def test_every_game_refuses_its_own_refused_example_at_its_field_citing_its_rule(ruleset):
    examples = RULESETS[ruleset].examples
    errors = evaluate(document(ruleset, {"game": examples.refused_game})).errors
    assert errors and {(e.event, e.field) for e in errors} == {(0, examples.refused_field)}
    assert all(f"({examples.refused_article}" in e.message or f"; {examples.refused_article}" in e.message
               for e in errors)


@pytest.mark.parametrize("ruleset", sorted(RULESETS))
def test_an_annulled_game_needs_its_reason_in_every_game(ruleset):
    annulled = RULESETS[ruleset].examples.annulled_game
    with_reason = {"game": annulled | {"annul_reason": "falsch gegeben"}}
    assert evaluate(document(ruleset, with_reason)).ok
    for reason in (None, "", "   "):
        body = dict(annulled)
        if reason is not None:
            body["annul_reason"] = reason
        errors = evaluate(document(ruleset, {"game": body})).errors
        assert [(e.event, e.field) for e in errors] == [(0, "annul_reason")]
        assert "braucht einen Grund" in errors[0].message
    article = f"({RULESETS[ruleset].article('annul')})"  # each game's own rule
    assert article in evaluate(document(ruleset, {"game": annulled})).errors[0].message


@pytest.mark.parametrize("ruleset", sorted(RULESETS))
@pytest.mark.parametrize("body", [{}, {"reason": ""}, {"reason": "  "}, {"reason": 3}])
def test_an_annulled_match_needs_its_reason_in_every_game(ruleset, body):
    assert fields(document(ruleset, {"annul_match": body})) == [(0, "reason")]


@pytest.mark.parametrize("kind", ["penalty", "disqualification"])
@pytest.mark.parametrize("deciders", [["Bernd", "Bernd"], ["Carla"], ["Anna", "Erika"], "Bernd"])
def test_every_game_refuses_the_same_deciders(kind, deciders):
    """Decided by distinct players of the match, never the accused (a
    Chaotentrumpf disqualification once took ["Bernd", "Bernd"], Tarot refused it)."""
    answers = {}
    for ruleset in RULESETS:
        body = {"player": "Carla", "reason": "Falschspiel", "decided_by": deciders}
        if kind == "penalty":
            body["points"] = a_valid_penalty(ruleset)
        errors = evaluate(document(ruleset, {kind: body})).errors
        answers[ruleset] = [(e.event, e.player, e.field) for e in errors]
    assert set(map(tuple, answers.values())) == {((0, "Carla", "decided_by"),)}, answers


@pytest.mark.parametrize("ruleset", sorted(RULESETS))
def test_a_disqualified_player_decides_no_more(ruleset):
    out = {"disqualification": {"player": "Dieter", "reason": "Falschspiel", "decided_by": ["Anna", "Bernd"]}}
    later = {"warning": {"player": "Carla", "reason": "zu früh"}}
    vote = {"disqualification": {"player": "Carla", "reason": "wieder", "decided_by": ["Anna", "Dieter"]}}
    assert fields(document(ruleset, out, later)) == []
    assert fields(document(ruleset, out, vote)) == [(1, "decided_by")]


@pytest.mark.parametrize("ruleset", sorted(RULESETS))
def test_every_game_names_its_penalty_bounds_and_refuses_outside_them(ruleset):
    penalties = RULESETS[ruleset].penalties
    def penalty(points):
        return {"penalty": {"player": "Carla", "points": points, "reason": "x", "decided_by": ["Anna"]}}
    assert fields(document(ruleset, penalty(penalties.low))) == []
    assert fields(document(ruleset, penalty(penalties.high))) == []
    for points in (penalties.low - 1, penalties.high + 1):
        errors = evaluate(document(ruleset, penalty(points))).errors
        assert [(e.event, e.field) for e in errors] == [(0, "points")]
        assert f"{penalties.low} bis {penalties.high}" in errors[0].message


@given(kind=st.sampled_from(["penalty", "disqualification"]),
       deciders=st.one_of(st.lists(st.sampled_from(PLAYERS + ["Erika", ""]), max_size=5),
                          st.none(), st.text(max_size=3), st.integers()),
       earlier=st.sampled_from([None, "Dieter", "Anna"]))
def test_every_game_answers_alike_on_any_deciders(kind, deciders, earlier):
    """One sanction reader for every game: whatever ``decided_by`` holds (after an earlier
    disqualification or not), the three games accept or refuse it alike."""
    answers = set()
    for ruleset in RULESETS:
        events = []
        if earlier:
            events.append({"disqualification": {"player": earlier, "reason": "Betrug", "decided_by": []}})
        body = {"player": "Carla", "reason": "Falschspiel", "decided_by": deciders}
        if kind == "penalty":
            body["points"] = a_valid_penalty(ruleset)
        events.append({kind: body})
        answers.add(tuple((e.event, e.player, e.field) for e in evaluate(document(ruleset, *events)).errors))
    assert len(answers) == 1


@pytest.mark.parametrize("ruleset", sorted(RULESETS))
def test_every_game_takes_a_spiel_recorded_as_points_only_and_says_what_was_not_checked(ruleset):
    examples = RULESETS[ruleset].examples
    if examples.points_game is None:  # the game's record is the points list itself
        assert examples.refused_points is None
        return
    outcome = evaluate(document(ruleset, {"game": examples.points_game}))
    assert outcome.ok, outcome.errors
    game = outcome.as_json()["games"][0]
    assert game["points_only"] is True
    assert game["scores"] == examples.points_game["scores"]
    assert "nur Punkte" in str(game.get("explanation") or game.get("explanations"))


@pytest.mark.parametrize("ruleset", sorted(RULESETS))
def test_every_game_refuses_points_its_rules_cannot_produce_citing_its_rule(ruleset):
    examples = RULESETS[ruleset].examples
    if examples.refused_points is None:
        return
    errors = evaluate(document(ruleset, {"game": examples.refused_points})).errors
    assert errors and {(e.event, e.field) for e in errors} == {(0, "scores")}
    assert all(examples.refused_points_article in e.message for e in errors)
