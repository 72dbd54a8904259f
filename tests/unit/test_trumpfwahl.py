"""Art. 9: the Trumpfwahl from the sequence of revealed cards; the Hinweise 3a-3d as cases."""

import pytest

from protocol.games.chaotentrumpf.rules.trump import Trump, parse_trump, trump_from_selection


def selected(cards, agreed=False, decks=3):
    return trump_from_selection(cards, agreed, decks)


@pytest.mark.parametrize(
    "cards, trump",
    [
        # Hinweise 3a: X8, H8 goes on; only a Sieben ends it, after one card: the colour.
        (["X8", "H8", "K7"], None),
        (["X8", "P7"], Trump("colour", "schwarz")),
        # Hinweise 3b: HB, KA, X7 goes on (9e); a Karo other than KA would end it: Karo.
        (["HB", "KA", "K9"], Trump("suit", "Karo")),
        # Hinweise 3c: P9, P10, PA, HA, then H9 ends it: the rank As (four cards before).
        (["P9", "P10", "PA", "HA", "H9"], Trump("rank", "A")),
        # Art. 9d with three cards before: the rank of the third.
        (["H7", "H8", "KB", "X9"], Trump("rank", "B")),
        # 9f: after the Kreuz As only a lower Kreuz ends it.
        (["XA", "X7"], Trump("colour", "schwarz")),
        (["H7", "XA", "XK"], Trump("suit", "Kreuz")),
    ],
)
def test_a_lower_card_ends_the_trumpfwahl_at_the_level_of_the_cards_before(cards, trump):
    result, problem = selected(cards)
    if trump is None:
        # X8 H8 K7: K7 is lower than H8 after two cards: Herz.
        assert result == Trump("suit", "Herz") and problem is None
    else:
        assert (result, problem) == (trump, None)


@pytest.mark.parametrize(
    "cards",
    [
        ["X8", "H8"],  # 3a: equal rank goes on
        ["HB", "KA", "X7"],  # 3b: 9e, Kreuz is higher than Karo
        ["P9", "P10", "PA", "HA"],  # 3c: equal rank goes on
        ["XA", "K7"],  # 3d: 9f, not a Kreuz
        ["XA", "H9"],  # 9f again
        ["HA", "P7"],  # 9e: Pik is higher than Herz
        ["H7", "H7", "H7"],  # equal never ends it
    ],
)
def test_these_sequences_have_not_ended_so_they_need_an_agreement(cards):
    result, problem = selected(cards)
    assert result is None and "nicht beendet" in problem and "Art. 9" in problem


@pytest.mark.parametrize(
    "cards, trump",
    [
        (["X8"], Trump("colour", "schwarz")),
        (["X8", "H8"], Trump("suit", "Herz")),
        (["HB", "KA", "X7"], Trump("rank", "7")),
        (["XA", "K7"], Trump("suit", "Karo")),
    ],
)
def test_an_agreement_takes_the_last_cards_feature_at_the_current_level(cards, trump):
    assert selected(cards, agreed=True) == (trump, None)


def test_a_card_that_ends_the_trumpfwahl_leaves_nothing_to_agree_on():
    result, problem = selected(["X8", "P7"], agreed=True)
    assert result is None and "Art. 9d" in problem


def test_no_card_may_follow_the_one_that_ended_it():
    result, problem = selected(["X8", "P7", "PA"])
    assert result is None and "2. Karte" in problem


def test_hinweise_3b_a_karo_other_than_the_as_would_have_ended_it():
    for card in ["K7", "K8", "K9", "KB", "KD", "KK", "K10"]:
        assert selected(["HB", "KA", card]) == (Trump("suit", "Karo"), None)
    assert selected(["HB", "KA", "KA"])[0] is None  # several Blätter: another Karo As goes on


@pytest.mark.parametrize("cards", [[], None, ["X8", "ZZ"], ["x8"], "X8"])
def test_a_broken_sequence_is_an_error_not_an_exception(cards):
    result, problem = selected(cards)
    assert result is None and problem


def test_a_card_cannot_be_revealed_more_often_than_there_are_blaetter():
    result, problem = selected(["X8", "X8", "X8", "X7"], decks=2)
    assert result is None and "Art. 3" in problem


@pytest.mark.parametrize(
    "data, ok",
    [
        ({"level": "colour", "value": "rot"}, True),
        ({"level": "suit", "value": "Kreuz"}, True),
        ({"level": "rank", "value": "10"}, True),
        ({"level": "card", "value": "KD"}, True),
        ({"level": "colour", "value": "Kreuz"}, False),
        ({"level": "suit", "value": "kreuz"}, False),
        ({"level": "rank", "value": "11"}, False),
        ({"level": "card", "value": "Karo Dame"}, False),
        ({"level": "level", "value": "rot"}, False),
        ({"level": "suit"}, False),
        ("Pik", False),
    ],
)
def test_a_trump_must_be_a_value_of_its_level(data, ok):
    trump, problem = parse_trump(data)
    assert (trump is not None) is ok and (problem is None) is ok
