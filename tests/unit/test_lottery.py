"""LE: the Losentscheid from a fairly shuffled Blatt, recorded."""

import random
from collections import Counter

import pytest

from protocol.games.chaotentrumpf.rules.lottery import draw_lot, feature_kind


def test_cards_are_turned_until_a_named_feature_shows():
    lot = draw_lot({"Anna": "Kreuz", "Bernd": "Herz"}, random.Random(7))
    last = lot.cards[-1]
    assert {"X": "Anna", "H": "Bernd"}[last[0]] == lot.winner
    assert all(card[0] in "PK" for card in lot.cards[:-1])  # nobody named those
    assert lot.kind == "suit"


def test_the_lot_is_fair_over_many_draws():
    rng = random.Random(1)
    wins = Counter(draw_lot({"A": "schwarz", "B": "rot"}, rng).winner for _ in range(4000))
    assert abs(wins["A"] - 2000) < 200  # about 3 standard deviations


@pytest.mark.parametrize("features", [{"A": "Kreuz"}, {"A": "Kreuz", "B": "Kreuz"}, {"A": "Kreuz", "B": "rot"},
                                      {"A": "Kreuz", "B": "Joker"}])
def test_features_must_be_distinct_and_of_equal_probability(features):
    kind, problem = feature_kind(features)
    assert kind is None and "LE a" in problem
    with pytest.raises(ValueError):
        draw_lot(features)


def test_ranks_are_features_of_equal_probability_too():
    lot = draw_lot({"A": "A", "B": "10", "C": "7"}, random.Random(3))
    assert lot.kind == "rank" and lot.as_json()["winner"] in "ABC"
