"""Art. 3, 7, 13 and the card notation of the Hinweise."""

import pytest

from protocol.games.chaotentrumpf.rules.cards import (
    POINTS_PER_DECK,
    Card,
    deck,
    decks_for_players,
    hand_size,
    parse_card,
)


@pytest.mark.parametrize(
    "players, decks",
    [(2, 2), (3, 3), (4, 3), (5, 4), (6, 4), (7, 5), (8, 5), (9, 6), (10, 6)],
)
def test_the_number_of_blaetter_follows_art_3b(players, decks):
    assert decks_for_players(players) == decks


def test_a_blatt_has_32_cards_worth_120_points():
    cards = deck()
    assert len(cards) == len(set(cards)) == 32
    assert sum(c.points for c in cards) == POINTS_PER_DECK == 120


@pytest.mark.parametrize("rank, points", [("A", 11), ("10", 10), ("K", 4), ("D", 3), ("B", 2), ("9", 0), ("8", 0), ("7", 0)])
def test_card_points_follow_art_13a(rank, points):
    assert Card("H", rank).points == points


@pytest.mark.parametrize(
    "code, name, colour",
    [("KD", "Karo Dame", "rot"), ("X10", "Kreuz Zehn", "schwarz"), ("HD", "Herz Dame", "rot"),
     ("XK", "Kreuz König", "schwarz"), ("P7", "Pik Sieben", "schwarz")],
)
def test_cards_are_written_as_in_the_hinweise(code, name, colour):
    card = parse_card(code)
    assert card.name == name and card.colour == colour and card.code == code


@pytest.mark.parametrize("code", ["", "X", "Z7", "X11", "XX", "7X", None, 17, "K1"])
def test_anything_else_is_not_a_card(code):
    assert parse_card(code) is None


@pytest.mark.parametrize("per_deal, hand", [(5, 10), (4, 8), (3, 6)])
def test_a_hand_is_dealt_twice(per_deal, hand):
    assert hand_size(per_deal) == hand
