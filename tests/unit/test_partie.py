"""The Partie derived from its events: Art. 4, 5, 17 and the SV."""

import pytest

from .builders import PLAYERS, check, document, game, quiet, sweep, twins

STECHEN_WIN = game({"Anna": (10, 110, 5), "Bernd": (0, 0, 0)}, trump=("suit", "Kreuz"))  # 130 > 100


def shufflers(match):
    return [g.shuffler for g in match.games]


def test_the_player_left_of_the_protokollant_shuffles_first_then_clockwise():
    match, errors = check(document([quiet()] * 6, scorekeeper="Carla"))
    assert errors == [] and shufflers(match) == ["Dieter", "Anna", "Bernd", "Carla", "Dieter", "Anna"]
    assert match.next_shuffler == "Bernd"


def test_annulled_spiele_pass_the_shuffling_duty_too():
    events = [quiet(), quiet(annulled=True, annul_reason="vergeben"), quiet()]
    match, errors = check(document(events))
    assert errors == [] and shufflers(match) == ["Bernd", "Carla", "Dieter"]


def test_the_exempted_protokollant_is_skipped_art_5c():
    match, errors = check(document([quiet()] * 5, scorekeeper_skips_shuffling=True))
    assert errors == [] and shufflers(match) == ["Bernd", "Carla", "Dieter", "Bernd", "Carla"]


def test_the_exemption_needs_more_than_three_players():
    _, errors = check(document([], players=["Anna", "Bernd", "Carla"], scorekeeper_skips_shuffling=True))
    assert [e.field for e in errors] == ["settings.scorekeeper_skips_shuffling"] and "Art. 5c" in errors[0].message


def test_disqualified_players_are_skipped_and_play_no_more():
    events = [quiet(), {"disqualification": {"player": "Carla", "reason": "gezinkt"}},
              quiet(players=["Anna", "Bernd", "Dieter"]), quiet(players=["Anna", "Bernd", "Dieter"])]
    match, errors = check(document(events))
    assert errors == [] and shufflers(match) == ["Bernd", "Dieter", "Anna"]
    assert match.disqualified == ["Carla"] and match.totals["Carla"] == 21  # his totals stay


def test_a_disqualified_player_has_no_line_any_more():
    events = [{"disqualification": {"player": "Carla", "reason": "gezinkt"}}, quiet()]
    _, errors = check(document(events))
    assert [(e.event, e.player) for e in errors] == [(1, "Carla")] and "SV 3" in errors[0].message


def test_the_first_to_exceed_the_obergrenze_wins():
    match, errors = check(document([sweep()]))
    assert errors == [] and match.status == "finished" and match.winner == "Anna"
    assert match.ended_by == "limit" and match.totals == {"Anna": 1248, "Bernd": -200, "Carla": -200, "Dieter": -200}


def test_exactly_reaching_the_obergrenze_is_not_enough():
    # Anna: 20 Augen x 1 ... build 1000 exactly: limit 1248 reached, not exceeded.
    match, _ = check(document([sweep()], limit=1248))
    assert match.status == "running" and match.winner is None
    match, _ = check(document([sweep()], limit=1247))
    assert match.winner == "Anna"


def test_no_spiel_after_the_partie_is_decided():
    _, errors = check(document([sweep(), quiet()]))
    assert [e.event for e in errors] == [1] and "Art. 17a" in errors[0].message


def test_several_over_the_obergrenze_in_the_same_spiel_play_a_stechen():
    match, errors = check(document([twins()] * 4))
    assert errors == [] and match.status == "tiebreak" and match.winner is None
    assert match.totals["Anna"] == match.totals["Bernd"] == 1248
    (stechen,) = match.tiebreaks
    assert stechen.players == ["Anna", "Bernd"] and stechen.limit == 100 and stechen.depth == 1
    assert match.next_players == ["Anna", "Bernd"]


def test_the_stechen_starts_from_zero_and_its_winner_wins_the_partie():
    match, errors = check(document([twins()] * 4 + [STECHEN_WIN]))
    assert errors == []
    assert match.games[-1].stage == 1 and match.games[-1].totals == {"Anna": 130, "Bernd": -200}
    assert match.status == "finished" and match.winner == "Anna" and match.ended_by == "tiebreak"
    assert match.tiebreaks[0].winner == "Anna" and match.totals["Anna"] == 1248


def test_a_stechen_is_played_with_the_blaetter_for_its_players():
    match, _ = check(document([twins()] * 4 + [STECHEN_WIN]))
    assert match.games[0].decks == 3 and match.games[-1].decks == 2  # Art. 3b for two players


def test_only_the_stechen_players_have_lines_in_it():
    bad = game({"Anna": (5, 50, 2), "Bernd": (5, 50, 1), "Carla": (0, 0, 0)}, trump=("suit", "Kreuz"))
    _, errors = check(document([twins()] * 4 + [bad]))
    assert [(e.event, e.player) for e in errors] == [(4, "Carla")] and "Art. 17b" in errors[0].message


def test_the_shuffling_goes_on_clockwise_among_the_stechen_players():
    match, _ = check(document([twins()] * 4 + [game({"Anna": (5, 40, 1), "Bernd": (5, 40, 1)}, trump=("colour", "rot"))] * 2))
    # Spiele 1-4: Bernd, Carla, Dieter, Anna; the Stechen goes on after Anna: Bernd, Anna.
    assert shufflers(match) == ["Bernd", "Carla", "Dieter", "Anna", "Bernd", "Anna"]


def test_a_stechen_inside_a_stechen_follows_the_same_rule():
    three = ["Anna", "Bernd", "Carla"]
    tie3 = game({"Anna": (3, 100, 3), "Bernd": (3, 100, 3), "Carla": (3, 100, 3), "Dieter": (1, 12, 0)}, trump=("suit", "Kreuz"))
    # Stage 0: 106 each per Spiel for three of them (Kreuz 20 // 3 = 6): 10 Spiele -> 1060.
    inner = game({"Anna": (5, 60, 2), "Bernd": (5, 60, 2), "Carla": (0, 0, 0)}, trump=("suit", "Pik"))  # 67 each, x3 > 150
    match, errors = check(document([tie3] * 10 + [inner] * 3))
    assert errors == []
    first, second = match.tiebreaks
    assert first.players == three and first.limit == 150
    assert second.players == ["Anna", "Bernd"] and second.limit == 100 and second.depth == 2
    match, errors = check(document([tie3] * 10 + [inner] * 3 + [STECHEN_WIN]))
    assert errors == [] and match.winner == "Anna" and [t.winner for t in match.tiebreaks] == ["Anna", "Anna"]


def test_a_limit_by_number_of_spiele_ends_the_partie_with_the_highest_total():
    events = [game({"Anna": (3, 30, 1), "Bernd": (3, 30, 0), "Carla": (2, 20, 0), "Dieter": (2, 20, 0)}, trump=("colour", "rot"))] * 3
    match, errors = check(document(events, max_games=3))
    assert errors == [] and match.status == "finished" and match.winner == "Anna" and match.ended_by == "games"


def test_annulled_spiele_do_not_count_for_the_limit_by_number():
    events = [quiet(annulled=True, annul_reason="vergeben"), quiet(), quiet()]
    match, _ = check(document(events, max_games=3))
    assert match.status == "running"


def test_a_tie_at_the_end_by_time_is_settled_by_a_stechen():
    match, errors = check(document([quiet(), {"end": {"reason": "time"}}]))
    assert errors == [] and match.status == "tiebreak"
    assert match.tiebreaks[0].players == ["Anna", "Bernd"] and match.tiebreaks[0].limit == 100


def test_the_end_by_time_needs_a_known_reason():
    _, errors = check(document([{"end": {"reason": "müde"}}]))
    assert errors[0].field == "reason" and "Art. 17c" in errors[0].message


def test_a_penalty_deducts_from_the_stage_under_way_if_the_player_plays_in_it():
    def pen(p):
        return {"penalty": {"player": p, "points": 100, "reason": "nicht bedient", "decided_by": []}}

    match, errors = check(document([twins()] * 4 + [pen("Anna"), pen("Carla")]))
    assert errors == []
    assert match.tiebreaks[0].totals["Anna"] == -100  # Anna plays the Stechen
    assert match.totals["Carla"] == -800 - 100 and match.totals["Anna"] == 1248
    assert [(s.player, s.stage, s.after_game) for s in match.sanctions] == [("Anna", 1, 4), ("Carla", 0, 4)]


@pytest.mark.parametrize("points", [99, 1001, 0, -100, "200", None])
def test_a_strafe_is_100_to_1000_points_sv_3(points):
    _, errors = check(document([{"penalty": {"player": "Carla", "points": points, "reason": "x"}}]))
    assert [e.field for e in errors] == ["points"] and "SV 3" in errors[0].message


def test_the_accused_does_not_decide_on_his_own_strafe():
    event = {"penalty": {"player": "Carla", "points": 200, "reason": "x", "decided_by": ["Anna", "Carla"]}}
    _, errors = check(document([event]))
    assert errors[0].field == "decided_by" and "SV 3" in errors[0].message


def test_a_strafe_needs_a_reason():
    _, errors = check(document([{"penalty": {"player": "Carla", "points": 200, "reason": " "}}]))
    assert errors[0].field == "reason"


def test_a_warning_costs_nothing_but_is_recorded():
    match, errors = check(document([quiet(), {"warning": {"player": "Dieter", "reason": "falsch bedient"}}]))
    assert errors == [] and match.totals["Dieter"] == 21
    assert [(s.kind, s.player, s.points) for s in match.sanctions] == [("warning", "Dieter", 0)]


def test_a_strafe_cannot_undo_a_win_that_already_happened():
    events = [sweep(), {"penalty": {"player": "Anna", "points": 1000, "reason": "Nachtrag"}}]
    match, errors = check(document(events))
    assert errors == [] and match.winner == "Anna" and match.totals["Anna"] == 248


def test_the_last_player_left_after_disqualifications_wins():
    events = [{"disqualification": {"player": p, "reason": "x"}} for p in ("Bernd", "Carla", "Dieter")]
    match, errors = check(document(events))
    assert errors == [] and match.winner == "Anna" and match.ended_by == "disqualification"


def test_a_disqualified_player_cannot_win_a_stechen_and_the_end_names_sv_3():
    # ruling (docs/chaotentrumpf.md): the one left of a Stechen wins it, and the end names the
    # disqualification (SV 3), not Art. 17b
    events = [twins()] * 4 + [{"disqualification": {"player": "Anna", "reason": "x"}}]
    match, errors = check(document(events))
    assert errors == [] and match.winner == "Bernd" and match.ended_by == "disqualification"
    assert match.tiebreaks[0].winner == "Bernd" and match.ended_by_label.endswith("(SV 3)")


def test_a_disqualification_in_a_stechen_keeps_the_obergrenze_it_started_with():
    # ruling (docs/chaotentrumpf.md): 50 x its participants when it starts, Art. 17b
    three = game({"Anna": (3, 30, 1), "Bernd": (3, 30, 1), "Carla": (3, 30, 1), "Dieter": (1, 10, 0)},
                 trump=("colour", "rot"))  # 31, 31, 31, -90
    two = game({"Anna": (5, 60, 1), "Bernd": (5, 60, 1)}, trump=("colour", "rot"))  # 62 each
    events = [three, {"end": {"reason": "time"}}, {"disqualification": {"player": "Carla", "reason": "x"}}, two, two]
    match, errors = check(document(events))
    assert errors == [] and match.tiebreaks[0].players == ["Anna", "Bernd", "Carla"]
    assert match.tiebreaks[0].limit == 150 and match.status == "tiebreak"  # 124 each: over 100, not 150


def test_an_annulled_spiel_stays_on_the_sheet_and_counts_for_nothing():
    annulled = {"game": sweep()["game"] | {"annulled": True, "annul_reason": "Karten vertauscht"}}
    match, errors = check(document([quiet(), annulled]))
    assert errors == [] and match.status == "running"
    assert match.games[1].annulled and match.games[1].scores["Anna"].points == 1248
    assert match.games[1].totals == match.games[0].totals == match.totals


def test_if_the_deciding_spiel_is_annulled_the_partie_goes_on():
    annulled = {"game": sweep()["game"] | {"annulled": True, "annul_reason": "Karten vertauscht"}}
    match, errors = check(document([annulled, quiet()]))
    assert errors == [] and match.status == "running" and len(match.games) == 2


def test_an_annulled_spiel_may_be_recorded_without_results():
    match, errors = check(document([{"game": {"trump": {"level": "colour", "value": "rot"}, "annulled": True, "annul_reason": "vergeben"}}]))
    assert errors == [] and match.games[0].scores is None


def test_an_annulled_partie_has_no_winner_and_takes_no_more_events():
    events = [sweep(), {"annul_match": {"reason": "Kartenmaterial unvollständig"}}, quiet()]
    match, errors = check(document(events))
    assert match.status == "annulled" and match.winner is None and match.ended_by == "annulled"
    assert [e.event for e in errors] == [2] and "SV 4" in errors[0].message


def test_unknown_events_are_errors():
    _, errors = check(document([{"bonus": {}}, {"game": {}, "penalty": {}}, "game"]))
    assert [e.event for e in errors] == [0, 1, 2]


def test_the_running_totals_include_the_penalties_so_far():
    events = [quiet(), {"penalty": {"player": "Anna", "points": 300, "reason": "x"}}, quiet()]
    match, _ = check(document(events))
    assert [g.totals["Anna"] for g in match.games] == [31, 31 - 300 + 31]


def test_the_spec_example_computes_as_documented():
    events = [
        {"game": {
            "selection": {"cards": ["X8", "H8", "P7"], "agreed": False},
            "trump": {"level": "suit", "value": "Herz"},
            "inversions": [{"player": "Bernd", "declared": "normal", "target": {"level": "suit", "value": "Pik"}}],
            "results": {"Anna": {"tricks": 3, "points": 56, "trumps": 2}, "Bernd": {"tricks": 4, "points": 40, "trumps": 1},
                        "Carla": {"tricks": 3, "points": 30, "trumps": 0}, "Dieter": {"tricks": 0, "points": 0, "trumps": 0}},
            "annulled": False}},
        {"penalty": {"player": "Carla", "points": 200, "reason": "Karte verdeckt getauscht", "decided_by": ["Anna", "Bernd", "Dieter"]}},
    ]
    match, errors = check(document(events))
    out = match.as_json()
    assert errors == [] and out["games"][0]["shuffler"] == "Bernd"
    assert out["games"][0]["inversions"][0]["recognised"] == "normal"
    assert out["totals"] == {"Anna": 71, "Bernd": 40, "Carla": -270, "Dieter": -200}
    assert out["penalties"][0] | {} == {"after_game": 1, "player": "Carla", "points": 200, "kind": "penalty",
                                        "reason": "Karte verdeckt getauscht", "stage": 0}
    assert (out["status"], out["winner"], out["tiebreaks"]) == ("running", None, [])


def test_the_shuffling_order_of_a_blank_sheet_follows_art_5():
    from protocol.games.chaotentrumpf.rules.partie import shuffling_order
    assert shuffling_order(PLAYERS, "Carla", 6) == ["Dieter", "Anna", "Bernd", "Carla", "Dieter", "Anna"]
    assert shuffling_order(PLAYERS, "Anna", 4, scorekeeper_skips=True) == ["Bernd", "Carla", "Dieter", "Bernd"]


def test_the_points_still_needed_are_those_to_exceed_the_obergrenze():
    match, _ = check(document([sweep()], limit=1248))
    assert match.stages[0].points_to_win("Anna") == 1 and match.stages[0].points_to_win("Bernd") == 1449


# -- the rulings of docs/chaotentrumpf.md that the texts leave open --------------------------

def test_the_exemption_lapses_when_a_disqualification_leaves_three_art_5c():
    # Anna keeps the protocol and is exempted while four play; Carla's disqualification leaves
    # three, so Anna shuffles in turn again ("bei mehr als 3 Spielern").
    three = ["Anna", "Bernd", "Dieter"]
    events = [quiet(), {"disqualification": {"player": "Carla", "reason": "gezinkt"}}] + [quiet(players=three)] * 3
    match, errors = check(document(events, scorekeeper_skips_shuffling=True))
    assert errors == [] and shufflers(match) == ["Bernd", "Dieter", "Anna", "Bernd"]


def test_the_exemption_lapses_in_a_stechen_of_three_or_fewer_art_5c():
    level = game({"Anna": (5, 40, 1), "Bernd": (5, 40, 1)}, trump=("colour", "rot"))
    match, errors = check(document([twins()] * 4 + [level] * 2, scorekeeper_skips_shuffling=True))
    # Stage 0 skips Anna: Bernd, Carla, Dieter, Bernd; the Stechen of Anna and Bernd: Anna, Bernd.
    assert errors == [] and shufflers(match) == ["Bernd", "Carla", "Dieter", "Bernd", "Anna", "Bernd"]


def test_a_disqualification_leaves_the_blaetter_of_the_partie_as_they_are():
    five = ["Anna", "Bernd", "Carla", "Dieter", "Erika"]
    four = five[:4]
    events = [quiet(players=five), {"disqualification": {"player": "Erika", "reason": "gezinkt"}}, quiet(players=four)]
    match, errors = check(document(events, players=five))
    assert errors == [] and [g.decks for g in match.games] == [4, 4]  # Art. 3b: five play with 4; four with 3


def test_an_end_by_time_during_a_stechen_is_decided_by_the_stechen_s_totals():
    ahead = game({"Anna": (5, 60, 2), "Bernd": (5, 40, 1)}, trump=("colour", "rot"))
    match, errors = check(document([twins()] * 4 + [ahead, {"end": {"reason": "time"}}]))
    assert errors == [] and match.status == "finished" and match.winner == "Anna"


def test_a_tie_in_a_stechen_ended_by_time_starts_a_new_stechen_among_the_tied():
    level = game({"Anna": (5, 40, 1), "Bernd": (5, 40, 1)}, trump=("colour", "rot"))
    match, errors = check(document([twins()] * 4 + [level, {"end": {"reason": "time"}}]))
    assert errors == [] and match.status == "tiebreak"
    assert [t.players for t in match.tiebreaks] == [["Anna", "Bernd"], ["Anna", "Bernd"]]
