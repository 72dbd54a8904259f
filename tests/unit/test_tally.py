"""The generic tally match (protocol/rules/tally.py), run with a toy ruleset.

The toy game is ``{"scores": {...}}``: the scores as given, which must sum to 0; players
left out score 0. That is enough to see every rule of the match itself.
"""

import pytest

from protocol.rules.base import Problems
from protocol.rules.tally import GameResult, TallyRuleset, evaluate_tally, read_annulment

PLAYERS = ["Anna", "Bernd", "Carla", "Dieter"]


class Toy(TallyRuleset):
    key = "toy"
    name = "Spielzeug"
    min_players = 3
    max_players = 5
    penalty_bounds = (10, 100)
    penalty_step = 10
    penalty_article = "Toy 9"

    def read_settings(self, data, players, problems):
        if data not in (None, {}):
            problems.add(None, None, "settings", "Keine Einstellungen (Toy 1).")
            return None
        return {}

    def read_game(self, event_index, data, players, settings, problems):
        if not isinstance(data, dict) or not isinstance(data.get("scores"), dict):
            problems.add(event_index, None, "scores", "Die Punkte fehlen (Toy 2).")
            return None
        before = len(problems)
        annulled, _ = read_annulment(data, event_index, problems)
        scores = data["scores"]
        for name in scores:
            if name not in players:
                problems.add(event_index, None, "scores", f"{name} spielt nicht mit (Toy 3).")
        if sum(scores.values()) != 0:
            problems.add(event_index, None, "scores", "Die Summe ist nicht 0 (Toy 4).")
        if len(problems) > before:
            return None
        return GameResult({p: scores.get(p, 0) for p in players}, "so", {"toy": True}, annulled)


TOY = Toy()


def doc(*events, players=PLAYERS, settings=None):
    return {"format": "protocol/1", "ruleset": "toy", "players": list(players),
            "scorekeeper": players[0], "settings": settings, "events": list(events)}


def game(anna=0, bernd=0, carla=0, dieter=0, **extra):
    scores = {"Anna": anna, "Bernd": bernd, "Carla": carla, "Dieter": dieter}
    return {"game": {"scores": {p: s for p, s in scores.items() if s}, **extra}}


def penalty(player="Carla", points=20, **extra):
    return {"penalty": {"player": player, "points": points, "reason": "Karten gezeigt", **extra}}


END = {"end": {"reason": "time"}}


def check(*events, **kwargs):
    result = TOY.evaluate(doc(*events, **kwargs))
    return result.match, result.errors


def test_totals_run_game_by_game():
    match, errors = check(game(10, -10), game(0, 5, -5))
    assert errors == []
    assert [g.totals for g in match.games] == [
        {"Anna": 10, "Bernd": -10, "Carla": 0, "Dieter": 0},
        {"Anna": 10, "Bernd": -5, "Carla": -5, "Dieter": 0},
    ]
    assert match.totals == match.games[-1].totals and match.status == "running" and match.winner is None


def test_an_annulled_game_keeps_its_scores_but_no_total_includes_them():
    match, errors = check(game(10, -10), game(50, -50, annulled=True, annul_reason="vergeben"), game(1, -1))
    assert errors == []
    annulled = match.games[1]
    assert annulled.annulled and annulled.scores["Anna"] == 50 and annulled.annul_reason == "vergeben"
    assert annulled.totals == match.games[0].totals
    assert match.totals["Anna"] == 11 and len(match.counted_games) == 2


def test_a_penalty_deducts_from_the_players_total_after_its_game():
    match, errors = check(game(10, -10), penalty("Carla", 30, decided_by=["Anna", "Bernd"]), game(0, 0, 5, -5))
    assert errors == []
    (sanction,) = match.sanctions
    assert (sanction.after_game, sanction.player, sanction.points, sanction.decided_by) == (1, "Carla", 30, ["Anna", "Bernd"])
    assert match.games[1].totals["Carla"] == -25 and match.totals["Carla"] == -25


@pytest.mark.parametrize("points", [0, 5, 110, 25, "20", 20.0, True])
def test_a_penalty_outside_the_rulesets_bounds_is_an_error_naming_its_rule(points):
    match, errors = check(penalty(points=points))
    assert [(e.event, e.player, e.field) for e in errors] == [(0, "Carla", "points")]
    assert "10 bis 100" in errors[0].message and "Schritten von 10" in errors[0].message and "Toy 9" in errors[0].message
    assert match.sanctions == []


@pytest.mark.parametrize("deciders", [["Carla"], ["Anna", "Anna"], ["Zora"], "Anna"])
def test_the_accused_does_not_decide_and_deciders_are_players_once(deciders):
    _, errors = check(penalty(decided_by=deciders))
    assert [(e.event, e.field) for e in errors] == [(0, "decided_by")]


def test_sanctions_need_a_known_player_and_a_reason():
    _, errors = check({"warning": {"player": "Zora", "reason": "x"}},
                      {"warning": {"player": "Anna", "reason": " "}},
                      {"penalty": {"player": "Anna", "points": 20}},
                      {"warning": {"player": "Anna", "reason": "x", "points": 3}})
    assert [(e.event, e.field) for e in errors] == [(0, "player"), (1, "reason"), (2, "reason"), (3, None)]


def test_a_warning_costs_nothing_but_is_listed():
    match, errors = check(game(10, -10), {"warning": {"player": "Bernd", "reason": "zu langsam"}})
    assert errors == [] and match.totals["Bernd"] == -10
    assert match.sanctions[0].kind == "warning" and match.sanctions[0].points == 0


def test_a_disqualified_player_is_left_out_of_later_games():
    events = [game(10, -10), {"disqualification": {"player": "Dieter", "reason": "gezinkt"}},
              game(5, -5), game(0, 0, -5, 5)]
    match, errors = check(*events)
    assert [(e.event, e.field) for e in errors] == [(3, "scores")] and "Dieter" in errors[0].message
    assert match.disqualified == ["Dieter"] and match.games[1].scores["Dieter"] == 0


def test_with_too_few_players_left_no_game_can_be_played():
    events = [{"disqualification": {"player": "Dieter", "reason": "a"}},
              {"disqualification": {"player": "Carla", "reason": "b"}}, game(5, -5)]
    _, errors = check(*events)
    assert [(e.event, e.field) for e in errors] == [(2, None)] and "mindestens 3" in errors[0].message


def test_a_player_is_disqualified_once():
    d = {"disqualification": {"player": "Dieter", "reason": "a"}}
    _, errors = check(d, d)
    assert [(e.event, e.field) for e in errors] == [(1, "player")]


def test_the_end_finishes_the_match_and_the_highest_total_wins():
    match, errors = check(game(10, -10), game(-3, 6, -3), END)
    assert errors == [] and match.status == "finished" and match.ended_by == "time"
    assert match.winner == "Anna" and match.ended_by_label == "Zeitbegrenzung"


def test_a_tie_for_first_has_no_winner():
    match, errors = check(game(10, 10, -20), END)
    assert errors == [] and match.status == "finished" and match.winner is None


def test_penalties_after_the_end_still_count_for_the_winner():
    match, errors = check(game(10, 5, -15), END, penalty("Anna", 10))
    assert errors == [] and match.winner == "Bernd"


def test_a_disqualified_player_does_not_win():
    match, errors = check(game(10, 5, -15), {"disqualification": {"player": "Anna", "reason": "x"}}, END)
    assert errors == [] and match.winner == "Bernd" and match.totals["Anna"] == 10


def test_nothing_is_played_after_the_end_and_it_ends_once():
    _, errors = check(END, game(1, -1), END)
    assert [e.event for e in errors] == [1, 2]


@pytest.mark.parametrize("body", [{}, {"reason": "lunch"}, {"reason": "time", "by": "x"}, "time"])
def test_the_end_needs_a_known_reason(body):
    _, errors = check({"end": body})
    assert [(e.event, e.field) for e in errors] == [(0, "reason")] and '"time"' in errors[0].message


def test_an_annulled_match_has_no_winner_and_takes_no_more_events():
    match, errors = check(game(10, -10), {"annul_match": {"reason": "Karten fehlten"}}, game(1, -1))
    assert [e.event for e in errors] == [2]
    assert match.status == "annulled" and match.winner is None and match.annulment_reason == "Karten fehlten"


def test_unknown_or_doubled_events_are_errors():
    _, errors = check({"deal": {}}, {"end": {"reason": "time"}, "game": {}}, "game")
    assert [e.event for e in errors] == [0, 1, 2]


def test_an_invalid_game_is_numbered_but_scores_nothing_and_every_error_is_kept():
    match, errors = check(game(10, -5), game(10, -10, 0, 0), game(10, -10))
    assert [(e.event, e.field) for e in errors] == [(0, "scores")]
    assert [g.number for g in match.games] == [1, 2, 3] and match.games[0].scores is None
    assert match.totals["Anna"] == 20


def test_a_game_reporting_an_error_counts_as_invalid_even_if_it_returns_a_result():
    def sloppy(index, data, players, settings, problems):
        problems.add(index, None, None, "falsch")
        return GameResult({p: 0 for p in players}, "", {})

    result = evaluate_tally(doc(game()), key="toy", min_players=3, max_players=5,
                            read_settings=lambda d, p, pr: {}, read_game=sloppy, penalty_bounds=(1, 2))
    assert len(result.errors) == 1 and result.match.games[0].scores is None


def test_bad_settings_or_envelope_stop_before_the_events():
    result = TOY.evaluate(doc(game(1, -1), settings={"x": 1}))
    assert [e.field for e in result.errors] == ["settings"] and result.match is None
    result = TOY.evaluate(doc(game(1, -1), players=["Anna", "Bernd"]))
    assert [e.field for e in result.errors] == ["players"] and result.match is None
    result = TOY.evaluate({**doc(), "ruleset": "chaotentrumpf"})
    assert [e.field for e in result.errors] == ["ruleset"]


def test_read_annulment_checks_its_types():
    problems = Problems()
    assert read_annulment({"annulled": "ja", "annul_reason": 3}, 4, problems) == (False, "")
    assert [(e.event, e.field) for e in problems.errors] == [(4, "annulled"), (4, "annul_reason")]
    assert read_annulment({"annulled": True, "annul_reason": " vergeben "}, 0, Problems()) == (True, "vergeben")


def test_the_json_output_has_the_shared_shape():
    result = TOY.evaluate(doc(game(10, -10), penalty("Carla", 20), {"warning": {"player": "Anna", "reason": "x"}}, END))
    out = result.as_json()
    assert {"ruleset", "games", "penalties", "totals", "status", "winner"} <= set(out)
    (g,) = out["games"]
    assert g == {"number": 1, "scores": {"Anna": 10, "Bernd": -10, "Carla": 0, "Dieter": 0},
                 "totals": {"Anna": 10, "Bernd": -10, "Carla": 0, "Dieter": 0},
                 "annulled": False, "explanation": "so", "toy": True}
    assert out["penalties"][0] == {"after_game": 1, "player": "Carla", "points": 20, "kind": "penalty",
                                   "reason": "Karten gezeigt", "stage": 0}
    assert out["penalties"][1]["kind"] == "warning" and out["penalties"][1]["points"] == 0
    assert (out["ruleset"], out["status"], out["winner"], out["totals"]["Carla"]) == ("toy", "finished", "Anna", -20)
    assert out["settings"] == {}


def test_start_feeds_the_documents_events_and_takes_more_one_at_a_time():
    tally, problems = TOY.start(doc(game(10, -10)))
    tally.feed(game(0, 5, -5))
    tally.feed(END)
    match = tally.finish()
    assert len(problems) == 0 and [g.number for g in match.games] == [1, 2]
    assert match.status == "finished" and match.winner == "Anna"
    tally, problems = TOY.start(doc(settings={"x": 1}))
    assert tally is None and [e.field for e in problems.errors] == ["settings"]
