"""French Tarot (FFT): one deal read, checked and scored (docs/tarot.md), and the match.

The worked example of the FFT (Garde, 2 bouts, 49 points, petit au bout and a simple
poignée for the attack: D = 106) anchors the scoring; every validation error is checked
for its field and the rule its message names.
"""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from protocol.games.tarot.rules import RULESET
from protocol.games.tarot.rules.deal import read_deal
from protocol.games.tarot.rules.scoring import POIGNEE_TRUMPS, score_deal
from protocol.games.tarot.rules.tournament import POSITIONS, minutes_per_position, total_deals
from protocol.rules import evaluate, get_ruleset
from protocol.rules.vocabulary import number
from tests.unit.tarot_deals import game, plain

THREE = ["Anna", "Bernd", "Carla"]
FOUR = ["Anna", "Bernd", "Carla", "Dieter"]
FIVE = ["Anna", "Bernd", "Carla", "Dieter", "Erika"]
SEED = "FFT-Regeln"
OFFICIAL = "Règlement officiel"


def scored(body, players=FOUR):
    checked = read_deal(body, players)
    assert checked.errors == []
    return score_deal(checked.deal, players)


def errors(body, players=FOUR):
    return read_deal(body, players).errors


# -- the score of a deal ---------------------------------------------------------------------

def test_the_fft_worked_example_scores_106_per_defender_and_318_for_the_taker():
    score = scored(game())
    assert score.defender_score == 106
    assert score.scores == {"Anna": -106, "Bernd": 318, "Carla": -106, "Dieter": -106}
    assert score.explanation == (
        "Garde, 2 Bouts, 49 Punkte: 25 + 8 + 10 (Petit au bout) = 43, x 2 = 86, "
        "+ 20 Poignée = 106 je Verteidiger")


@pytest.mark.parametrize("points, d, text", [
    (40.5, -26, "Prise, 2 Bouts, 40,5 Punkte: −(25 + 1) = −26 je Verteidiger"),
    (41, 25, "Prise, 2 Bouts, 41 Punkte: 25 + 0 = 25 je Verteidiger"),
    (41.5, 26, "Prise, 2 Bouts, 41,5 Punkte: 25 + 1 = 26 je Verteidiger"),
    (40, -26, "Prise, 2 Bouts, 40 Punkte: −(25 + 1) = −26 je Verteidiger"),
    (39.5, -27, "Prise, 2 Bouts, 39,5 Punkte: −(25 + 2) = −27 je Verteidiger"),
])
def test_the_difference_is_rounded_up_whichever_way_the_contract_goes(points, d, text):
    score = scored(plain(contract="prise", points=points))
    assert (score.defender_score, score.explanation) == (d, text)


@pytest.mark.parametrize("oudlers, needed", [(0, 56), (1, 51), (2, 41), (3, 36)])
def test_the_points_needed_depend_on_the_oudlers_of_the_attack(oudlers, needed):
    assert scored(plain(contract="prise", oudlers=oudlers, points=needed)).defender_score == 25
    assert scored(plain(contract="prise", oudlers=oudlers, points=needed - 0.5)).defender_score == -26


@pytest.mark.parametrize("contract, name, multiplier", [
    ("prise", "Prise", 1), ("garde", "Garde", 2), ("garde_sans", "Garde sans", 4),
    ("garde_contre", "Garde contre", 6)])
def test_each_contract_multiplies_the_base_and_the_petit_au_bout(contract, name, multiplier):
    score = scored(game(contract=contract, poignees=[]))
    assert score.defender_score == 43 * multiplier
    times = f", x {multiplier} = {43 * multiplier}" if multiplier > 1 else ""
    assert score.explanation == f"{name}, 2 Bouts, 49 Punkte: 25 + 8 + 10 (Petit au bout) = 43{times} je Verteidiger"


def test_the_petit_au_bout_counts_for_its_side_whatever_the_result():
    lost = scored(plain(oudlers=1, points=45, petit_au_bout="attack"))
    assert lost.defender_score == (-(25 + 6) + 10) * 2
    assert lost.explanation == "Garde, 1 Bout, 45 Punkte: −(25 + 6) + 10 (Petit au bout) = −21, x 2 = −42 je Verteidiger"
    made = scored(plain(petit_au_bout="defence"))
    assert made.defender_score == (25 + 8 - 10) * 2


@pytest.mark.parametrize("size, bonus, name", [
    ("simple", 20, "Poignée"), ("double", 30, "Doppelte Poignée"), ("triple", 40, "Dreifache Poignée")])
def test_a_poignee_is_not_multiplied_and_goes_to_the_side_that_wins(size, bonus, name):
    by_defender_taker_wins = scored(plain(poignees=[{"player": "Carla", "size": size}]))
    assert by_defender_taker_wins.defender_score == 66 + bonus
    assert by_defender_taker_wins.explanation.endswith(f"x 2 = 66, + {bonus} {name} = {66 + bonus} je Verteidiger")
    by_taker_taker_loses = scored(plain(points=40, poignees=[{"player": "Bernd", "size": size}]))
    assert by_taker_taker_loses.defender_score == -52 - bonus
    assert by_taker_taker_loses.explanation.endswith(f"x 2 = −52, − {bonus} {name} = −{52 + bonus} je Verteidiger")


def test_two_poignees_both_go_to_the_winning_side():
    score = scored(plain(points=40, poignees=[{"player": "Bernd", "size": "simple"},
                                              {"player": "Dieter", "size": "simple"}]))
    assert score.defender_score == -52 - 40
    assert score.explanation.endswith("x 2 = −52, − 20 Poignée − 20 Poignée = −92 je Verteidiger")


@pytest.mark.parametrize("chelem, oudlers, points, d, text", [
    ("announced_made", 3, 91, 80 + 400, "25 + 55 = 80, + 400 Chelem angesagt und gewonnen = 480"),
    ("unannounced_made", 2, 86.5, 71 + 200, "25 + 46 = 71, + 200 Chelem ohne Ansage gewonnen = 271"),
    ("announced_failed", 3, 60, 49 - 200, "25 + 24 = 49, − 200 Chelem angesagt, nicht gewonnen = −151"),
    ("announced_failed", 0, 20, -61 - 200, "−(25 + 36) = −61, − 200 Chelem angesagt, nicht gewonnen = −261"),
    ("defence", 0, 0, -81 - 200, "−(25 + 56) = −81, − 200 Chelem der Verteidigung = −281"),
])
def test_each_chelem_adds_its_bonus_unmultiplied(chelem, oudlers, points, d, text):
    score = scored(plain(contract="prise", chelem=chelem, oudlers=oudlers, points=points))
    assert score.defender_score == d
    assert score.explanation.endswith(f": {text} je Verteidiger")


def test_a_chelem_comes_after_the_poignee_in_the_sum():
    score = scored(game(contract="garde_sans", chelem="announced_made", oudlers=3, points=91))
    assert score.defender_score == (25 + 55 + 10) * 4 + 20 + 400
    assert score.explanation == ("Garde sans, 3 Bouts, 91 Punkte: 25 + 55 + 10 (Petit au bout) = 90, "
                                 "x 4 = 360, + 20 Poignée + 400 Chelem angesagt und gewonnen = 780 je Verteidiger")


@pytest.mark.parametrize("players, partner, expected", [
    (THREE, None, {"Anna": -66, "Bernd": 132, "Carla": -66}),
    (FOUR, None, {"Anna": -66, "Bernd": 198, "Carla": -66, "Dieter": -66}),
    (FIVE, None, {"Anna": -66, "Bernd": 264, "Carla": -66, "Dieter": -66, "Erika": -66}),
    (FIVE, "Erika", {"Anna": -66, "Bernd": 132, "Carla": -66, "Dieter": -66, "Erika": 66}),
])
def test_the_attack_gets_what_each_defender_pays(players, partner, expected):
    assert scored(plain(partner=partner), players).scores == expected


def test_a_lost_contract_with_a_partner_costs_the_partner_too():
    score = scored(plain(points=40, partner="Anna"), FIVE)
    assert score.scores == {"Anna": -52, "Bernd": -104, "Carla": 52, "Dieter": 52, "Erika": 52}


def test_a_null_deal_scores_nothing_and_needs_only_its_dealer():
    checked = read_deal({"dealer": "Carla", "null": True}, FOUR)
    assert (checked.errors, checked.deal, checked.null) == ([], None, True)
    full = read_deal(game(null=True), FOUR)
    assert (full.errors, full.null) == ([], True)


def test_a_null_deal_is_still_checked_field_by_field():
    found = {(p, f) for p, f, _ in errors({"null": True, "taker": "Olaf", "points": 92})}
    assert found == {(None, "dealer"), (None, "taker"), (None, "points")}


# -- what a deal entry must satisfy -----------------------------------------------------------

def fields_and_messages(body, players=FOUR):
    return {(player, field): message for player, field, message in errors(body, players)}


@pytest.mark.parametrize("changes, players, field, rule", [
    # the players
    ({"dealer": "Olaf"}, FOUR, "dealer", "Kartengeber"),
    ({"dealer": None}, FOUR, "dealer", "Kartengeber"),
    ({"taker": "Olaf"}, FOUR, "taker", "Spielnehmer"),
    ({"taker": None}, FOUR, "taker", "Spielnehmer"),
    ({"partner": "Carla"}, FOUR, "partner", "nur zu fünft"),
    ({"partner": "Carla"}, THREE, "partner", "nur zu fünft"),
    ({"partner": "Olaf"}, FIVE, "partner", "gerufenen König"),
    # the contract and the count
    ({"contract": "garde_avec"}, FOUR, "contract", "garde_contre"),
    ({"contract": None}, FOUR, "contract", "Vertrag"),
    ({"oudlers": 4}, FOUR, "oudlers", "0 bis 3"),
    ({"oudlers": -1}, FOUR, "oudlers", "0 bis 3"),
    ({"oudlers": 2.0}, FOUR, "oudlers", "ganze Zahl"),
    ({"oudlers": True}, FOUR, "oudlers", "ganze Zahl"),
    ({"oudlers": None}, FOUR, "oudlers", "Bouts"),
    ({"points": 49.25}, FOUR, "points", "Vielfaches von 0,5"),
    ({"points": 91.5}, FOUR, "points", "0 bis 91"),
    ({"points": -0.5}, FOUR, "points", "0 bis 91"),
    ({"points": "49"}, FOUR, "points", "Vielfaches"),
    ({"points": True}, FOUR, "points", "Vielfaches"),
    ({"points": float("nan")}, FOUR, "points", "Vielfaches"),
    ({"points": float("inf")}, FOUR, "points", "Vielfaches"),
    ({"points": 10**400}, FOUR, "points", "Vielfaches"),
    ({"points": None}, FOUR, "points", "Punkte"),
    # what the cards cannot add up to
    ({"oudlers": 3, "points": 13}, FOUR, "points", "13,5"),
    ({"oudlers": 1, "points": 0, "petit_au_bout": None}, FOUR, "points", "4,5"),
    ({"oudlers": 2, "points": 91}, FOUR, "points", "höchstens 86,5"),
    ({"oudlers": 0, "points": 78, "petit_au_bout": None}, FOUR, "points", "höchstens 77,5"),
    # petit au bout, poignées, chelem
    ({"petit_au_bout": "both"}, FOUR, "petit_au_bout", "attack"),
    ({"petit_au_bout": "attack", "oudlers": 0, "points": 30}, FOUR, "petit_au_bout", "mindestens 1 Bout"),
    ({"petit_au_bout": "defence", "oudlers": 3}, FOUR, "petit_au_bout", "höchstens 2 Bouts"),
    ({"poignees": {"player": "Bernd"}}, FOUR, "poignees", "Liste"),
    ({"poignees": [{"player": "Bernd"}]}, FOUR, "poignees", "„player“ und „size“"),
    ({"poignees": [{"player": "Olaf", "size": "simple"}]}, FOUR, "poignees", "nicht mit"),
    ({"poignees": [{"player": "Carla", "size": "quadruple"}]}, FOUR, "poignees", "simple 10, double 13, triple 15"),
    ({"poignees": [{"player": "Carla", "size": "big"}]}, THREE, "poignees", "simple 13, double 15, triple 18"),
    ({"poignees": [{"player": "Carla", "size": "big"}]}, FIVE, "poignees", "simple 8, double 10, triple 13"),
    ({"poignees": [{"player": "Bernd", "size": "double"}, {"player": "Carla", "size": "simple"}]}, FOUR,
     "poignees", "23 Trümpfe"),
    ({"poignees": [{"player": "Bernd", "size": "simple"}, {"player": "Carla", "size": "simple"}]}, THREE,
     "poignees", "26 Trümpfe"),
    ({"chelem": "grand"}, FOUR, "chelem", "announced_made"),
    ({"chelem": "announced_made"}, FOUR, "chelem", "86,5"),
    ({"chelem": "unannounced_made", "oudlers": 1, "points": 86.5}, FOUR, "chelem", "mindestens 2 Bouts"),
    ({"chelem": "announced_made", "contract": "garde_contre", "oudlers": 1, "points": 40}, FOUR, "chelem", "verloren"),
    ({"chelem": "defence"}, FOUR, "chelem", "verliert der Angriff"),
    ({"chelem": "defence", "contract": "garde_contre", "oudlers": 1, "points": 5, "petit_au_bout": None},
     FOUR, "chelem", "höchstens die Excuse"),
    ({"chelem": "defence", "oudlers": 1, "points": 10}, FOUR, "petit_au_bout", "auch nicht den letzten"),
    ({"chelem": "announced_made", "oudlers": 2, "points": 86.5, "petit_au_bout": "defence"}, FOUR,
     "petit_au_bout", "auch nicht den letzten"),
    # the deal as a whole
    ({"null": "yes"}, FOUR, "null", "true/false"),
    ({"annulled": False}, FOUR, "annulled", "Unbekanntes Feld"),
])
def test_each_rule_of_a_deal_is_checked_and_named(changes, players, field, rule):
    found = errors(game(**changes), players)
    assert field in {f for _, f, _ in found}, found
    message = next(m for _, f, m in found if f == field)
    assert rule in message
    assert SEED in message or OFFICIAL in message or "Unbekannt" in message or "nicht mit" in message


def test_the_rules_are_cited_in_every_message():
    bad = game(dealer="Olaf", taker=None, contract="x", oudlers=7, points=100, petit_au_bout="x",
               chelem="x", null="x", poignees=[{"player": "Bernd", "size": "x"}], partner="Carla")
    found = errors(bad, FOUR)
    assert {f for _, f, _ in found} == {"dealer", "taker", "contract", "oudlers", "points", "petit_au_bout",
                                        "chelem", "null", "poignees", "partner"}
    assert all(SEED in m or OFFICIAL in m for _, _, m in found), found


def test_the_taker_cannot_be_his_own_partner():
    assert ("Bernd", "partner") in fields_and_messages(game(partner="Bernd"), FIVE)


def test_a_player_shows_at_most_one_poignee():
    body = game(poignees=[{"player": "Carla", "size": "simple"}, {"player": "Carla", "size": "double"}])
    assert "höchstens eine Poignée" in fields_and_messages(body)[("Carla", "poignees")]


def test_every_error_is_reported_not_just_the_first():
    found = fields_and_messages(game(dealer="Olaf", contract="x", oudlers=9))
    assert set(found) == {(None, "dealer"), (None, "contract"), (None, "oudlers")}


def test_a_deal_that_is_not_an_object_is_one_error():
    assert [(p, f) for p, f, _ in errors(["Bernd", "garde"])] == [(None, None)]


@pytest.mark.parametrize("body, players", [
    # the extremes that are possible
    (plain(oudlers=3, points=13.5, contract="prise"), FOUR),
    (plain(oudlers=0, points=0, contract="prise"), FOUR),
    (plain(oudlers=0, points=77.5, contract="prise"), FOUR),
    (plain(oudlers=3, points=91, contract="prise"), FOUR),
    (plain(partner=None), FIVE),
    # the dog of a garde contre stays with the defence, even at a chelem
    (plain(chelem="unannounced_made", contract="garde_contre", oudlers=2, points=70), FOUR),
    (plain(chelem="defence", contract="garde_contre", oudlers=1, points=4.5), FOUR),
    (plain(chelem="defence", contract="garde_sans", oudlers=2, points=20), FOUR),
    (plain(poignees=[{"player": p, "size": "simple"} for p in FIVE[:2]]), FIVE),
    (plain(poignees=[{"player": "Anna", "size": "triple"}, {"player": "Carla", "size": "simple"}]), FIVE),
    (plain(poignees=[{"player": "Anna", "size": "simple"}, {"player": "Carla", "size": "simple"}]), FOUR),
])
def test_what_the_cards_allow_is_accepted(body, players):
    assert errors(body, players) == []


def test_the_poignee_sizes_by_players():
    assert POIGNEE_TRUMPS == {3: {"simple": 13, "double": 15, "triple": 18},
                              4: {"simple": 10, "double": 13, "triple": 15},
                              5: {"simple": 8, "double": 10, "triple": 13}}


# -- tournaments ------------------------------------------------------------------------------

@pytest.mark.parametrize("key, minutes, deals", [("5x4", 45, 20), ("6x4", 45, 24), ("7x3", 35, 21)])
def test_a_tournament_is_positions_of_deals_with_time_per_position(key, minutes, deals):
    assert key in POSITIONS
    assert minutes_per_position(key) == minutes and total_deals(key) == deals


# -- every scored deal sums to zero ---------------------------------------------------------------

@st.composite
def valid_deals(draw):
    players = draw(st.sampled_from([THREE, FOUR, FIVE]))
    taker = draw(st.sampled_from(players))
    partner = draw(st.sampled_from([None, *[p for p in players if p != taker]])) if len(players) == 5 else None
    oudlers = draw(st.integers(0, 3))
    halves = draw(st.integers(9 * oudlers, 182 - 9 * (3 - oudlers)))
    petit = draw(st.sampled_from([None] + (["attack"] if oudlers else []) + (["defence"] if oudlers < 3 else [])))
    shown = draw(st.lists(st.sampled_from(players), unique=True, max_size=3))
    sizes = draw(st.lists(st.sampled_from(["simple", "double", "triple"]), min_size=len(shown), max_size=len(shown)))
    body = {"dealer": draw(st.sampled_from(players)), "taker": taker, "partner": partner,
            "contract": draw(st.sampled_from(["prise", "garde", "garde_sans", "garde_contre"])),
            "oudlers": oudlers, "points": halves / 2, "petit_au_bout": petit,
            "poignees": [{"player": p, "size": s} for p, s in zip(shown, sizes)],
            "chelem": draw(st.sampled_from([None, None, "announced_failed", "announced_made",
                                            "unannounced_made", "defence"]))}
    return body, players


@settings(max_examples=300, deadline=None)
@given(valid_deals())
def test_every_scored_deal_sums_to_zero_over_the_table(case):
    body, players = case
    checked = read_deal(body, players)
    if checked.errors:  # a combination the cards do not allow (a chelem, too many trumps shown)
        assert all(f in ("chelem", "poignees", "petit_au_bout") for _, f, _ in checked.errors)
        return
    score = score_deal(checked.deal, players)
    assert sum(score.scores.values()) == 0
    assert set(score.scores) == set(players)
    defenders = [p for p in players if p not in (body["taker"], body["partner"])]
    assert all(score.scores[p] == -score.defender_score for p in defenders)
    assert score.explanation.endswith(f" = {number(score.defender_score)} je Verteidiger")


# -- the match (protocol/rules/tally.py with the Tarot deal) ----------------------------------

def document(*events, players=FOUR, **envelope):
    return {"format": "protocol/1", "ruleset": "tarot", "players": players,
            "scorekeeper": players[0], "events": list(events)} | envelope


def test_the_ruleset_is_found_by_its_key():
    assert get_ruleset("tarot") is RULESET
    assert (RULESET.name, RULESET.min_players, RULESET.max_players) == ("Tarot", 3, 5)
    assert RULESET.default_settings(FOUR) == {}


def test_a_position_of_deals_is_totalled_and_the_highest_total_wins():
    doc = document(
        {"game": game()},
        {"game": plain(taker="Carla", dealer="Bernd", contract="prise", points=40)},
        {"warning": {"player": "Dieter", "reason": "Karte vorzeitig aufgedeckt"}},
        {"penalty": {"player": "Dieter", "points": 100, "reason": "wiederholt"}},
        {"game": {"dealer": "Carla", "null": True}},
        {"end": {"reason": "time"}},
    )
    evaluation = evaluate(doc)
    assert evaluation.ok, evaluation.errors
    out = evaluation.as_json()
    first, second, third = out["games"]
    assert first["defender_score"] == 106 and first["scores"]["Bernd"] == 318
    assert first["explanation"].endswith("= 106 je Verteidiger")
    assert second["defender_score"] == -26
    assert second["scores"] == {"Anna": 26, "Bernd": 26, "Carla": -78, "Dieter": 26}
    assert third["scores"] == {p: 0 for p in FOUR} and third["defender_score"] == 0
    assert out["totals"] == {"Anna": -80, "Bernd": 344, "Carla": -184, "Dieter": -180}
    assert sum(out["totals"].values()) == -100  # only the penalty leaves the table's sum
    assert (out["status"], out["winner"]) == ("finished", "Bernd")
    assert [p["kind"] for p in out["penalties"]] == ["warning", "penalty"]


def test_an_annulled_deal_keeps_its_scores_but_no_total_includes_them():
    out = evaluate(document({"game": game(annulled=True, annul_reason="falsch gegeben")})).as_json()
    (only,) = out["games"]
    assert only["annulled"] and only["scores"]["Bernd"] == 318 and only["defender_score"] == 106
    assert out["totals"] == {p: 0 for p in FOUR}


@pytest.mark.parametrize("points, ok", [(100, True), (200, True), (1000, True), (50, False), (150, False), (1100, False)])
def test_a_penalty_is_100_points_or_a_multiple(points, ok):
    evaluation = evaluate(document({"penalty": {"player": "Carla", "points": points, "reason": "Wiederholung"}}))
    assert evaluation.ok is ok
    if not ok:
        (error,) = evaluation.errors
        assert (error.event, error.player, error.field) == (0, "Carla", "points")
        assert "Schiedsrichtergesetz" in error.message


def test_a_penalty_needs_no_earlier_warning_and_may_follow_the_last_deal():
    """Ruling (docs/tarot.md): for a fault of conduct the referee imposes penalty points at
    once; a fault noticed at the control table is recorded after the last deal."""
    doc = document({"game": game()}, {"end": {"reason": "games"}},
                   {"penalty": {"player": "Carla", "points": 200, "reason": "Kontrollblatt unvollständig"}},
                   {"warning": {"player": "Dieter", "reason": "Kontrollblatt nicht zurückgebracht"}})
    evaluation = evaluate(doc)
    assert evaluation.ok, evaluation.errors
    assert evaluation.match.totals["Carla"] == -106 - 200 and evaluation.match.winner == "Bernd"


def test_errors_name_the_event_and_a_bad_deal_scores_nothing():
    evaluation = evaluate(document({"game": game()}, {"game": game(oudlers=3, points=10, contract="x")}))
    found = {(e.event, e.player, e.field) for e in evaluation.errors}
    assert found == {(1, None, "contract")}  # consistency waits until each field is readable
    evaluation = evaluate(document({"game": game()}, {"game": game(oudlers=3, points=10)}))
    assert {(e.event, e.field) for e in evaluation.errors} == {(1, "points")}


@pytest.mark.parametrize("agreed, field", [({"rules": "fft"}, "settings.rules"), ([], "settings")])
def test_tarot_has_no_settings_and_unknown_ones_are_errors(agreed, field):
    evaluation = evaluate(document(settings=agreed))
    assert [e.field for e in evaluation.errors] == [field]


def test_an_empty_settings_object_is_fine():
    assert evaluate(document(settings={})).ok


@pytest.mark.parametrize("players", [["Anna", "Bernd"], FIVE + ["Frank"]])
def test_tarot_is_played_by_three_to_five(players):
    evaluation = evaluate(document(players=players))
    assert [e.field for e in evaluation.errors] == ["players"]


def test_after_a_disqualification_the_table_plays_on_without_him():
    doc = document(
        {"disqualification": {"player": "Dieter", "reason": "Betrug", "decided_by": ["Anna", "Bernd"]}},
        {"game": plain(poignees=[{"player": "Carla", "size": "simple"}])},  # 3 players: 13 trumps
        {"game": plain(taker="Dieter")},
    )
    evaluation = evaluate(doc)
    assert {(e.event, e.field) for e in evaluation.errors} == {(2, "taker")}
    first = evaluation.match.games[0]
    assert first.scores == {"Anna": -86, "Bernd": 172, "Carla": -86, "Dieter": 0}
