"""Art. 16: the score of one Spiel, with the worked examples of the Hinweise (item 6)."""

import pytest

from protocol.games.chaotentrumpf.rules.scoring import Line, score_game
from protocol.games.chaotentrumpf.rules.trump import Trump


def scores(lines, trump, factor=None, no_trump=-100, no_trick=-200):
    result = score_game({p: Line(*v) for p, v in lines.items()}, trump, factor, no_trump, no_trick)
    return {p: s.points for p, s in result.items()}, {p: s.explanation for p, s in result.items()}


def test_hinweise_56_augen_without_trump_are_56_minus_100():
    points, text = scores({"A": (3, 56, 0), "B": (7, 60, 2)}, Trump("suit", "Pik"))
    assert points["A"] == -44
    assert text["A"] == "56 Augen − 100 kein Trumpf im Stich (Art. 16a) = −44"


def test_hinweise_56_augen_with_the_trumpfwertung_in_pik_are_71():
    points, text = scores({"A": (3, 56, 3), "B": (7, 60, 2)}, Trump("suit", "Pik"))
    assert points == {"A": 71, "B": 60}
    assert text["A"] == "56 Augen + 15 Trumpfwertung (Pik, meiste Trümpfe, Art. 16b) = 71"


def test_hinweise_56_augen_with_the_trumpfwertung_in_zehnern_are_224():
    points, text = scores({"A": (3, 56, 3), "B": (7, 60, 2)}, Trump("rank", "10"))
    assert points["A"] == 224
    assert text["A"] == "56 Augen × 4 Trumpfwertung (Wert Zehn, meiste Trümpfe, Art. 16b) = 224"


@pytest.mark.parametrize(
    "trump, bonus",
    [(("colour", "rot"), 5), (("colour", "schwarz"), 10), (("suit", "Karo"), 5),
     (("suit", "Herz"), 10), (("suit", "Pik"), 15), (("suit", "Kreuz"), 20)],
)
def test_the_trumpfwertung_on_farbe_and_spielfarbe_adds_art_16b(trump, bonus):
    points, _ = scores({"A": (5, 40, 2), "B": (5, 40, 1)}, Trump(*trump))
    assert points == {"A": 40 + bonus, "B": 40}


def test_no_stich_scores_minus_200_instead_of_adding_minus_100():
    points, text = scores({"A": (0, 0, 0), "B": (10, 120, 3)}, Trump("suit", "Pik"))
    assert points["A"] == -200 and text["A"] == "kein Stich: −200 (Art. 16a)"


def test_the_number_of_trumps_above_the_others_does_not_matter():
    one, _ = scores({"A": (5, 40, 1), "B": (5, 40, 0)}, Trump("colour", "rot"))
    many, _ = scores({"A": (5, 40, 20), "B": (5, 40, 0)}, Trump("colour", "rot"))
    assert one["A"] == many["A"] == 45


def test_nobody_gets_the_trumpfwertung_without_a_trump():
    points, _ = scores({"A": (5, 40, 0), "B": (5, 40, 0)}, Trump("suit", "Kreuz"))
    assert points == {"A": -60, "B": -60}


@pytest.mark.parametrize(
    "trump, tied, each",
    [(("suit", "Pik"), 2, 7), (("suit", "Kreuz"), 3, 6), (("colour", "rot"), 2, 2), (("colour", "rot"), 4, 1)],
)
def test_a_shared_bonus_is_split_in_whole_parts_16c(trump, tied, each):
    lines = {f"P{i}": (2, 20, 2) for i in range(tied)} | {"X": (10 - 2 * tied, 0, 1)}
    points, text = scores(lines, Trump(*trump))
    assert all(points[f"P{i}"] == 20 + each for i in range(tied))
    assert "Art. 16c" in text["P0"] and points["X"] == 0


@pytest.mark.parametrize("tied, factor, each", [(2, 4, 2), (3, 4, 1), (4, 4, 1), (2, 5, 2), (5, 5, 1), (6, 5, 1)])
def test_a_shared_factor_is_split_in_whole_parts_never_below_one(tied, factor, each):
    trump = Trump("rank", "A") if factor == 4 else Trump("card", "KD")
    lines = {f"P{i}": (1, 11, 1) for i in range(tied)}
    points, _ = scores(lines, trump, None if factor == 4 else 5)
    assert all(v == 11 * each for v in points.values())


def test_after_an_ultrainversion_the_trumpfwertung_is_augen_times_4_on_any_level():
    points, text = scores({"A": (5, 50, 2), "B": (5, 40, 1)}, Trump("colour", "rot"), factor=4)
    assert points == {"A": 200, "B": 40} and "nach Ultrainversion" in text["A"]


def test_after_a_totalultrainversion_the_trumpfwertung_is_augen_times_5():
    points, text = scores({"A": (5, 50, 2), "B": (5, 40, 1)}, Trump("rank", "K"), factor=5)
    assert points["A"] == 250 and "nach Totalultrainversion" in text["A"]


def test_the_penalty_values_are_match_settings_nuev_5():
    points, _ = scores({"A": (0, 0, 0), "B": (10, 50, 0)}, Trump("suit", "Pik"), no_trump=-50, no_trick=-150)
    assert points == {"A": -150, "B": 0}


def test_a_player_with_trumps_but_not_the_most_scores_his_augen():
    points, text = scores({"A": (5, 40, 3), "B": (5, 33, 1)}, Trump("suit", "Herz"))
    assert points["B"] == 33 and text["B"] == "33 Augen = 33"
