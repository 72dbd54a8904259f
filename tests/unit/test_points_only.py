"""A Spiel recorded as points only (Chaotentrumpf): accepted exactly when Art. 16 can produce
its scores for the Partie's settings, refused with the article otherwise; Art. 17, the SV
and the Mischer run on the scores as for full Spiele. No database."""

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from protocol.games.chaotentrumpf.rules.points_only import POINTS_ONLY
from protocol.games.chaotentrumpf.simulation import simulate_match
from tests.unit.builders import check, document, game, messages
from tests.unit.points_only_documents import as_points, outcome, partie_with_stechen

NAMES = ["Anna", "Bernd", "Carla", "Dieter", "Erika", "Frank", "Gisela"]
STECHEN_SEED = 218  # partie_with_stechen: 40 Spiele, a Strafe, a Stechen of Carla and Dieter


def points(scores, **facts):
    return {"game": {"scores": scores, **facts}}


def refusal(doc):
    errors = check(doc)[1]
    assert errors, "expected a refusal"
    return messages(errors)


# -- the paper sheet of 40 Spiele ---------------------------------------------------------------------

@pytest.fixture(scope="module")
def sheet():
    doc = partie_with_stechen(STECHEN_SEED)
    full = outcome(doc)
    assert len(full["games"]) == 40 and full["tiebreaks"] and full["penalties"]
    assert full["ended_by"] == "tiebreak" and full["winner"]
    return doc, full


@pytest.mark.parametrize("keep_facts", [False, True], ids=["points alone", "with the trump noted"])
def test_a_sheet_of_40_spiele_typed_as_points_gives_the_same_totals_winner_and_stechen(sheet, keep_facts):
    doc, full = sheet
    assert outcome(as_points(doc, keep_facts)) == full


@pytest.mark.parametrize("every", [2, 3])
def test_a_partie_may_mix_full_spiele_and_points_only_spiele(sheet, every):
    doc, full = sheet
    mixed = as_points(doc, every=every)
    kinds = {"scores" in e["game"] for e in mixed["events"] if "game" in e}
    assert kinds == {True, False}
    assert outcome(mixed) == full


def test_a_points_only_spiel_says_so_and_a_full_one_stays_as_it_was(sheet):
    doc, _ = sheet
    full_games = check(doc)[0].as_json()["games"]
    games = check(as_points(doc, every=2))[0].as_json()["games"]
    assert all("points_only" not in g for g in full_games)
    assert [g.get("points_only", False) for g in games[:4]] == [True, False, True, False]
    first = games[0]
    assert first["scores"] == full_games[0]["scores"]
    assert all(POINTS_ONLY in text for text in first["explanations"].values())
    assert POINTS_ONLY == "nur Punkte: Augen, Stiche und Trümpfe nicht geprüft"


def test_a_stechen_spiel_as_points_names_only_the_stechens_players(sheet):
    doc, full = sheet
    typed = as_points(doc)
    stechen = full["tiebreaks"][0]
    first = stechen["after_game"]  # the first Stechen-Spiel is the next Spiel
    bodies = [e["game"] for e in typed["events"] if "game" in e]
    assert set(bodies[first]["scores"]) == set(stechen["players"])
    bodies[first]["scores"]["Anna"] = 0
    text = refusal(typed)
    assert "Anna spielt im Stechen nicht mit (Art. 17b)" in text


def test_an_annulled_points_only_spiel_counts_for_nothing():
    doc = document([points({"Anna": 71, "Bernd": 40, "Carla": -70, "Dieter": -200},
                           annulled=True, annul_reason="falsch ausgeteilt")])
    match, errors = check(doc)
    assert errors == [] and match.games[0].annulled and match.totals == dict.fromkeys(match.players, 0)


# -- what Art. 16 can and cannot produce ----------------------------------------------------------------

@pytest.mark.parametrize("scores", [
    {"Anna": 44, "Bernd": -44, "Carla": 71, "Dieter": -200},  # Hinweise 6: 56 + 100 - ..., 71 with Pik
    {"Anna": 224, "Bernd": 40, "Carla": -70, "Dieter": -200},  # 56 Augen x 4 (a rank as trump)
    {"Anna": 312, "Bernd": 312, "Carla": -200, "Dieter": -200},  # two share the factor (Art. 16c)
])
def test_scores_art_16_can_produce_are_accepted(scores):
    match, errors = check(document([points(scores)]))
    assert errors == [] and match.totals == scores


@pytest.mark.parametrize("score", [-150, -99, -101, 2001])
def test_a_score_no_case_of_art_16_gives_is_refused_with_its_article(score):
    text = refusal(document([points({"Anna": score, "Bernd": 44, "Carla": -44, "Dieter": 71})]))
    assert "Anna" in text and "Art. 13a, 16a, 16b" in text


def test_a_line_where_nobody_takes_a_stich_is_refused():
    text = refusal(document([points(dict.fromkeys(["Anna", "Bernd", "Carla", "Dieter"], -200))]))
    assert "kein Stich" in text and "(Art. 7, 10, 16a)" in text


def test_scores_no_distribution_of_stiche_and_augen_gives_are_refused():
    # three players over 300 each: the 40 cards of 3 Blätter hold at most 312 Augen (Art. 3, 13a)
    text = refusal(document([points({"Anna": 300, "Bernd": 300, "Carla": 300, "Dieter": -200})]))
    assert "Art. 3, 7, 13a, 16" in text


@pytest.mark.parametrize("trump, scores", [
    ({"level": "suit", "value": "Kreuz"}, {"Anna": 55, "Bernd": 200}),  # 180 + 20 leaves too few Augen
    ({"level": "rank", "value": "A"}, {"Anna": -200, "Bernd": 87}),  # 87 is no Augen x 4
])
def test_a_noted_trump_must_fit_the_trumpfwertung_of_those_who_got_it(trump, scores):
    players = list(scores)
    assert check(document([points(scores)], players=players))[1] == []  # some trump gives them
    text = refusal(document([points(scores, trump=trump)], players=players))
    assert "Art. 16b, 16c" in text


def test_the_partie_settings_decide_what_a_score_can_be():
    scores = {"Anna": -150, "Bernd": 44, "Carla": -44, "Dieter": 71}
    assert "Art. 13a, 16a, 16b" in refusal(document([points(scores)]))
    assert check(document([points(scores)], no_trick_points=-150))[1] == []  # NÜV 5: "kein Stich" -150


@pytest.mark.parametrize("body, field", [
    ({"scores": {"Anna": 71, "Bernd": 40, "Carla": -70}}, "scores"),  # Dieter's points are missing
    ({"scores": {"Anna": 71, "Bernd": 40, "Carla": -70, "Dieter": "x"}}, "scores"),
    ({"scores": {"Anna": 71, "Bernd": 40, "Carla": -70, "Dieter": -200, "Erika": 0}}, "scores"),
    ({"scores": {"Anna": 71, "Bernd": 40, "Carla": -70, "Dieter": -200},
      "results": {}}, "scores"),  # a full Spiel and points at once
    ({"scores": {"Anna": 71, "Bernd": 40, "Carla": -70, "Dieter": -200},
      "inversions": [{"player": "Anna", "declared": "ultra", "target": {"level": "colour", "value": "rot"}}]},
     "inversions"),  # no trump to invert (Art. 11)
])
def test_a_malformed_points_only_spiel_is_refused_with_its_article(body, field):
    errors = check(document([{"game": body}]))[1]
    assert field in {e.field for e in errors}
    assert all("(" in e.message and ")" in e.message for e in errors)


# -- every score a full Spiel produces is accepted as points only ------------------------------------------

@st.composite
def partien(draw):
    n = draw(st.integers(2, 7))
    table = {}
    if draw(st.booleans()):
        table["cards_per_deal"] = draw(st.sampled_from([3, 4]))
    if draw(st.booleans()):
        table["no_trump_points"] = draw(st.integers(-300, 0))
    if draw(st.booleans()):
        table["no_trick_points"] = draw(st.integers(-300, 0))
    seed = draw(st.integers(0, 2**32))
    return simulate_match(NAMES[:n], random.Random(seed), settings=table, penalty_rate=0.05, annul_rate=0.05,
                          max_events=60)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(partien(), st.booleans())
def test_every_score_a_full_spiel_produces_is_accepted_as_points_only(doc, keep_facts):
    assert outcome(as_points(doc, keep_facts)) == outcome(doc)


def test_fewer_blaetter_by_nuev_1_bound_the_augen():
    one_deck = document([game({"Anna": (10, 120, 8), "Bernd": (0, 0, 0), "Carla": (0, 0, 0)},
                              trump=("suit", "Kreuz"))], players=["Anna", "Bernd", "Carla"], decks=1)
    assert outcome(as_points(one_deck)) == outcome(one_deck)  # 120 + 20 = 140 from a single Blatt
    # all 30 cards of the one Blatt to Anna hold 98 to 120 Augen: 150 is no Trumpfwertung of them
    too_much = document([points({"Anna": 150, "Bernd": -200, "Carla": -200})],
                        players=["Anna", "Bernd", "Carla"], decks=1)
    assert "Art. 3, 7, 13a, 16" in refusal(too_much)


def test_each_spiel_says_whether_it_was_recorded_as_points_only(sheet):
    """What the league's cache reads of a Spiel (protocol/score_cache.py): points only, and then
    no Trumpfwertung taken, since the points alone don't say who took it (Art. 16b)."""
    doc, _ = sheet
    mixed = check(as_points(doc, every=2))[0]
    full = check(doc)[0]
    assert [g.points_only for g in mixed.games] == [n % 2 == 1 for n in range(1, 41)]
    assert not any(g.points_only for g in full.games)
    took = [(g.number, p) for g in full.games if g.points for p in g.points if g.took_trump_bonus(p)]
    assert took and all(mixed.games[n - 1].took_trump_bonus(p) == (n % 2 == 0) for n, p in took)
