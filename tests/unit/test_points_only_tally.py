"""A Doppelkopf game and a Tarot deal recorded as points only: each sums to zero, shares
out as its rules do, and is worth a value its rules can reach; refused with the rule
otherwise. The match runs on the scores as for full games. No database."""

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from protocol.games.doppelkopf.rules import points_only as doppelkopf_points
from protocol.games.tarot.rules import points_only as tarot_points
from protocol.rules import evaluate
from tests.offline_documents import doppelkopf_documents, tarot_documents
from tests.unit.builders import messages
from tests.unit.points_only_documents import as_points, outcome

FOUR = ["Anna", "Bernd", "Carla", "Dieter"]
FIVE = [*FOUR, "Erika"]
PROPERTY = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def match_of(ruleset, games, players=FOUR, **settings_):
    return {"format": "protocol/1", "ruleset": ruleset, "players": list(players), "scorekeeper": players[0],
            "settings": settings_, "events": [{"game": body} for body in games]}


def refusal(document) -> str:
    result = evaluate(document)
    assert result.errors, "expected a refusal"
    return messages(result.errors)


# -- the lists and sheets of the offline pack, typed as points ---------------------------------------------

@pytest.mark.parametrize("name, document", doppelkopf_documents(6) + tarot_documents(6))
@pytest.mark.parametrize("keep_facts", [False, True])
def test_a_list_typed_as_points_gives_the_same_totals_and_winner(name, document, keep_facts):
    converted = as_points(document, keep_facts)
    assert any("scores" in e.get("game", {}) for e in converted["events"])
    assert outcome(converted) == outcome(document)
    assert outcome(as_points(document, every=2)) == outcome(document)  # full games and points mixed


def test_a_points_only_game_says_so():
    result = evaluate(match_of("doppelkopf", [{"scores": {"Anna": 2, "Bernd": 2, "Carla": -2, "Dieter": -2}}]))
    game = result.match.as_json()["games"][0]
    assert game["points_only"] is True and game["explanation"] == doppelkopf_points.POINTS_ONLY
    result = evaluate(match_of("tarot", [{"scores": {"Anna": -106, "Bernd": 318, "Carla": -106, "Dieter": -106}}]))
    game = result.match.as_json()["games"][0]
    assert game["points_only"] is True and game["defender_score"] == 106
    assert game["explanation"] == tarot_points.POINTS_ONLY


# -- Doppelkopf ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("rules, rule", [("tcg", "TCG 6"), ("ddv", "DDV-Turnierspielregeln 7.2")])
def test_a_doppelkopf_game_that_does_not_sum_to_zero_is_refused(rules, rule):
    text = refusal(match_of("doppelkopf", [{"scores": {"Anna": 2, "Bernd": 2, "Carla": -2, "Dieter": -1}}],
                            rules=rules))
    assert "nicht 0" in text and rule in text


@pytest.mark.parametrize("scores", [
    {"Anna": 3, "Bernd": 1, "Carla": -2, "Dieter": -2},  # sums to zero, but no parties share so
    {"Anna": 6, "Bernd": -3, "Carla": -3, "Dieter": 0},  # a soloist gets three times what each pays
])
def test_doppelkopf_scores_that_no_parties_share_are_refused(scores):
    assert "TCG 6" in refusal(match_of("doppelkopf", [{"scores": scores}]))


@pytest.mark.parametrize("rules, value, accepted", [
    ("tcg", 16, True), ("tcg", 17, False), ("tcg", 40, True), ("tcg", 42, False), ("tcg", 96, True),
    ("tcg", 100, False), ("ddv", 31, True), ("ddv", 32, False),
])
def test_a_doppelkopf_value_must_be_one_the_rules_reach(rules, value, accepted):
    document = match_of("doppelkopf", [{"scores": {"Anna": value, "Bernd": value, "Carla": -value,
                                                   "Dieter": -value}}], rules=rules)
    if accepted:
        assert evaluate(document).ok
    else:
        assert ("TCG 4, 5" if rules == "tcg" else "DDV-Turnierspielregeln 7.2") in refusal(document)


ALL = {"re": ["re", "keine 90", "keine 60", "keine 30", "schwarz"],
       "kontra": ["kontra", "keine 90", "keine 60", "keine 30", "schwarz"]}
MOST_EXTRAS = {"doppelkopf": 6, "fuchs": 2, "karl": 1, "herzstich": 1}


@pytest.mark.parametrize("rules, body, value", [
    ("tcg", {"type": "normal", "re": ["Anna", "Bernd"], "re_points": 0, "schwarz": "re",
             "extras": {"kontra": MOST_EXTRAS}}, doppelkopf_points.TCG_MOST[1]),
    ("tcg", {"type": "normal", "re": ["Anna", "Bernd"], "re_points": 0, "schwarz": "re",
             "announcements": {"kontra": ALL["kontra"]}, "extras": {"kontra": MOST_EXTRAS}},
     2 * doppelkopf_points.TCG_MOST[2]),
    ("tcg", {"type": "solo_trumpf", "re": ["Anna"], "re_points": 240, "schwarz": "kontra", "announcements": ALL,
             "extras": {"re": MOST_EXTRAS}}, 4 * doppelkopf_points.TCG_MOST[4]),
    ("ddv", {"type": "normal", "re": ["Anna", "Bernd"], "re_points": 0, "schwarz": "re", "announcements": ALL,
             "extras": {"kontra": MOST_EXTRAS | {"herzstich": 0}}}, doppelkopf_points.DDV_MOST[False]),
    ("ddv", {"type": "solo_damen", "re": ["Anna"], "re_points": 0, "schwarz": "re", "announcements": ALL},
     doppelkopf_points.DDV_MOST[True]),
])
def test_the_highest_doppelkopf_values_are_those_full_games_reach(rules, body, value):
    document = match_of("doppelkopf", [{"dealer": "Anna", **body}], rules=rules)
    result = evaluate(document)
    assert result.ok and result.match.as_json()["games"][0]["value"] == value
    assert outcome(as_points(document)) == outcome(document)


def test_a_ddv_solo_is_worth_less_than_a_game_two_against_two():
    solo = {"Anna": 66, "Bernd": -22, "Carla": -22, "Dieter": -22}
    assert "höchstens 21" in refusal(match_of("doppelkopf", [{"scores": solo}], rules="ddv"))
    assert evaluate(match_of("doppelkopf", [{"scores": solo}], rules="tcg")).ok  # 22 = 2 x 11 under TCG


def test_at_five_the_dealer_sits_out_with_zero():
    scores = {"Anna": -9, "Bernd": 3, "Carla": 3, "Dieter": 3, "Erika": 0}
    assert evaluate(match_of("doppelkopf", [{"scores": scores}], FIVE)).ok  # Erika dealt
    assert evaluate(match_of("doppelkopf", [{"scores": scores, "dealer": "Erika"}], FIVE)).ok
    assert "TCG 8" in refusal(match_of("doppelkopf", [{"scores": scores, "dealer": "Anna"}], FIVE))
    everyone = {"Anna": -9, "Bernd": 3, "Carla": 3, "Dieter": 2, "Erika": 1}
    assert "TCG 6" in refusal(match_of("doppelkopf", [{"scores": everyone}], FIVE))


def test_a_doppelkopf_game_is_either_full_or_points():
    body = {"scores": {"Anna": 2, "Bernd": 2, "Carla": -2, "Dieter": -2}, "re": ["Anna", "Bernd"]}
    assert "Protokollformat" in refusal(match_of("doppelkopf", [body]))


@st.composite
def doppelkopf_games(draw):
    players = draw(st.sampled_from([FOUR, FIVE]))
    dealer = draw(st.sampled_from(players))
    table = [p for p in players if p != dealer] if len(players) == 5 else players
    kind = draw(st.sampled_from(["normal", "hochzeit", "abgabe", "solo_damen", "solo_buben", "solo_trumpf",
                                 "stille_hochzeit"]))
    solo = kind.startswith("solo") or kind == "stille_hochzeit" or (kind == "hochzeit" and draw(st.booleans()))
    re = draw(st.permutations(table))[: 1 if solo else 2]
    order = ["keine 90", "keine 60", "keine 30", "schwarz"]
    rules = draw(st.sampled_from(["tcg", "ddv"]))
    re_points = draw(st.sampled_from([0, 240]) | st.integers(8, 232))  # TCG: a trick is worth 8 or more
    points = {"re": re_points, "kontra": 240 - re_points}
    karl, herz = draw(st.sampled_from(["re", "kontra", None])), draw(st.sampled_from(["re", "kontra", None]))
    body = {"type": kind, "dealer": dealer, "re": re, "re_points": re_points,
            "schwarz": "re" if re_points == 0 else "kontra" if re_points == 240 else None,
            "announcements": {"re": ["re", *order][: draw(st.integers(0, 5))],
                              "kontra": ["kontra", *order][: draw(st.integers(0, 5))]},
            "extras": {party: {"doppelkopf": draw(st.integers(0, points[party] // 40)),
                               "fuchs": draw(st.integers(0, 1)) if points[party] else 0,
                               "karl": int(karl == party and points[party] > 0),
                               "herzstich": int(herz == party and points[party] > 0 and rules == "tcg")}
                       for party in ("re", "kontra")},
            "revoke": draw(st.sampled_from([None, None, None, *table]))}
    return match_of("doppelkopf", [body], players, rules=rules)


@PROPERTY
@given(doppelkopf_games())
def test_every_score_a_full_doppelkopf_game_produces_is_accepted_as_points(document):
    assume(evaluate(document).ok)
    assert outcome(as_points(document)) == outcome(document)
    assert outcome(as_points(document, keep_facts=True)) == outcome(document)


# -- Tarot ------------------------------------------------------------------------------------------------

def test_a_tarot_deal_that_does_not_sum_to_zero_is_refused():
    text = refusal(match_of("tarot", [{"scores": {"Anna": -106, "Bernd": 319, "Carla": -106, "Dieter": -106}}]))
    assert "nicht 0" in text and "FFT-Regeln: Verträge" in text


def test_tarot_scores_that_no_taker_and_defenders_share_are_refused():
    scores = {"Anna": -100, "Bernd": 318, "Carla": -112, "Dieter": -106}
    assert "FFT-Regeln: Verträge" in refusal(match_of("tarot", [{"scores": scores}]))
    worked = {"Anna": -106, "Bernd": 318, "Carla": -106, "Dieter": -106}
    assert "FFT-Regeln: Verträge" in refusal(match_of("tarot", [{"scores": worked, "taker": "Anna"}]))


@pytest.mark.parametrize("d, contract, accepted", [
    (106, "garde", True),  # the FFT worked example
    (107, "garde", False),  # a Garde's D is even: (25 + difference + petit) x 2, premiums of 10s
    (107, "prise", True),
    (1, None, False),  # a deal made is worth at least 15 - 10 ..., a lost one more than 1 in any contract
    (0, None, True),  # all 0: a deal declared null
])
def test_a_tarot_deal_must_fit_its_contracts_scale(d, contract, accepted):
    body = {"scores": {"Anna": -d, "Bernd": 3 * d, "Carla": -d, "Dieter": -d}}
    if contract:
        body["contract"] = contract
    document = match_of("tarot", [body])
    if accepted:
        assert evaluate(document).ok
    else:
        assert "FFT-Regeln: Verträge" in refusal(document)


def test_at_five_the_partner_gets_d_and_the_taker_two_d():
    scores = {"Anna": 212, "Bernd": 106, "Carla": -106, "Dieter": -106, "Erika": -106}
    assert evaluate(match_of("tarot", [{"scores": scores}], FIVE)).ok
    assert evaluate(match_of("tarot", [{"scores": scores, "taker": "Anna", "partner": "Bernd"}], FIVE)).ok
    assert refusal(match_of("tarot", [{"scores": scores, "taker": "Bernd"}], FIVE))


@st.composite
def tarot_deals(draw):
    players = draw(st.sampled_from([FOUR[:3], FOUR, FIVE]))
    taker = draw(st.sampled_from(players))
    partner = draw(st.sampled_from([None, *[p for p in players if p != taker]])) if len(players) == 5 else None
    oudlers = draw(st.integers(0, 3))
    body = {"dealer": players[0], "taker": taker, "partner": partner,
            "contract": draw(st.sampled_from(["prise", "garde", "garde_sans", "garde_contre"])),
            "oudlers": oudlers, "points": draw(st.integers(0, 182)) / 2,
            "petit_au_bout": draw(st.sampled_from([None, "attack", "defence"])),
            "poignees": [{"player": p, "size": draw(st.sampled_from(["simple", "double", "triple"]))}
                         for p in draw(st.lists(st.sampled_from(players), max_size=2, unique=True))],
            "chelem": draw(st.sampled_from([None, None, "announced_made", "unannounced_made", "announced_failed",
                                            "defence"])),
            "null": False}
    return match_of("tarot", [body], players)


@PROPERTY
@given(tarot_deals())
def test_every_score_a_full_tarot_deal_produces_is_accepted_as_points(document):
    assume(evaluate(document).ok)
    assert outcome(as_points(document)) == outcome(document)
    assert outcome(as_points(document, keep_facts=True)) == outcome(document)


@pytest.mark.parametrize("name, document", doppelkopf_documents(2) + tarot_documents(2))
def test_each_game_says_whether_it_was_recorded_as_points_only(name, document):
    """What the league's cache reads of a game (protocol/score_cache.py): recorded as points only or not."""
    mixed = evaluate(as_points(document, every=2)).match
    typed = [("scores" in e["game"]) for e in as_points(document, every=2)["events"] if "game" in e]
    assert [game.points_only for game in mixed.games] == typed and True in typed and False in typed
    assert not any(game.took_trump_bonus(p) for game in mixed.games for p in mixed.players)
