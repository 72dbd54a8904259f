"""What a Spiel entry must satisfy (docs/chaotentrumpf.md): every error, with player and field."""

import pytest

from .builders import check, document, game, messages

GOOD = {"Anna": (3, 56, 2), "Bernd": (4, 40, 1), "Carla": (3, 30, 0), "Dieter": (0, 0, 0)}


def errors_of(results, trump=("suit", "Pik"), **extra):
    _, errors = check(document([game(results, trump, **extra)]))
    return errors


def test_a_good_entry_has_no_errors():
    assert errors_of(GOOD) == []


def test_every_seated_player_needs_a_line():
    errors = errors_of({k: v for k, v in GOOD.items() if k != "Dieter"})
    assert [(e.event, e.player) for e in errors] == [(0, "Dieter")]
    assert "fehlt" in errors[0].message


def test_a_line_for_someone_not_at_the_table_is_an_error():
    errors = errors_of(GOOD | {"Erika": (0, 0, 0)})
    assert [e.player for e in errors] == ["Erika"]


@pytest.mark.parametrize("value", [-1, 2.5, "3", None, True])
def test_numbers_are_whole_and_not_negative(value):
    errors = errors_of(GOOD | {"Anna": (value, 56, 2)})
    assert [(e.player, e.field) for e in errors] == [("Anna", "tricks")]
    assert "ganze Zahl" in errors[0].message


def test_the_stiche_must_add_up_to_the_cards_per_hand():
    errors = errors_of(GOOD | {"Dieter": (1, 0, 0)})
    assert any(e.field == "tricks" and e.player is None and "Art. 7, 10" in e.message for e in errors)


def test_the_stiche_follow_nuev_2_when_fewer_cards_are_dealt():
    doc = document([game({"Anna": (4, 40, 1), "Bernd": (2, 20, 0), "Carla": (0, 0, 0), "Dieter": (0, 0, 0)})],
                   cards_per_deal=3)
    assert check(doc)[1] == []


def test_no_stich_means_no_augen_and_no_trumps():
    errors = errors_of(GOOD | {"Dieter": (0, 4, 1), "Anna": (3, 52, 2)})
    fields = {(e.player, e.field) for e in errors}
    assert ("Dieter", "points") in fields and ("Dieter", "trumps") in fields


def test_trumps_cannot_exceed_the_cards_in_the_stiche():
    errors = errors_of(GOOD | {"Anna": (3, 56, 13)})
    assert any(e.player == "Anna" and e.field == "trumps" and "12" in e.message for e in errors)


def test_the_trumps_together_cannot_exceed_the_trump_cards_in_play():
    # Pik with 3 Blätter: 24 Trümpfe. 25 entered.
    errors = errors_of({"Anna": (3, 56, 12), "Bernd": (4, 40, 13), "Carla": (3, 30, 0), "Dieter": (0, 0, 0)})
    assert any(e.field == "trumps" and e.player is None and "24" in e.message for e in errors)


def test_a_rank_as_trump_has_only_four_trumps_per_blatt():
    errors = errors_of({"Anna": (5, 56, 7), "Bernd": (5, 40, 6), "Carla": (0, 0, 0), "Dieter": (0, 0, 0)},
                       trump=("rank", "9"))
    assert any(e.field == "trumps" and "12" in e.message for e in errors)


@pytest.mark.parametrize(
    "line, words",
    [
        ((1, 1, 0), "nicht möglich"),  # 1 is never possible
        ((1, 200, 0), "höchstens"),  # 4 cards are worth at most 44
    ],
)
def test_augen_must_be_a_sum_of_card_values(line, words):
    errors = errors_of(GOOD | {"Carla": (3, 30, 0), "Dieter": line, "Bernd": (3, 40, 1)})
    assert any(e.player == "Dieter" and e.field == "points" and words in e.message for e in errors)


def test_nine_augen_are_impossible_with_two_cards_but_possible_with_four():
    def doc(pts):
        return document([game({"Anna": (1, pts, 1), "Bernd": (9, 100, 3)}, trump=("colour", "rot"))],
                                   players=["Anna", "Bernd"])
    assert any(e.player == "Anna" and e.field == "points" for e in check(doc(9))[1])
    ok_four = document([game({"Anna": (1, 9, 1), "Bernd": (2, 30, 1), "Carla": (7, 40, 1), "Dieter": (0, 0, 0)},
                             trump=("colour", "rot"))])
    assert check(ok_four)[1] == []


def test_two_blaetter_hold_only_eight_asse():
    # Ten cards of two Blätter: at most 8 Asse and 2 Zehner = 108, so 110 is impossible.
    def doc(pts):
        return document([game({"Anna": (5, pts, 1), "Bernd": (5, 40, 1)}, trump=("colour", "rot"))],
                                   players=["Anna", "Bernd"])
    errors = check(doc(110))[1]
    assert [(e.player, e.field) for e in errors] == [("Anna", "points")] and "höchstens 108" in errors[0].message
    assert check(doc(108))[1] == []


def test_the_sum_of_augen_is_bounded_by_the_best_cards_played():
    # 40 cards of 3 Blätter are worth at most 12 A + 12 10 + 12 K + 4 D = 312.
    errors = errors_of({"Anna": (5, 160, 2), "Bernd": (5, 160, 2), "Carla": (0, 0, 0), "Dieter": (0, 0, 0)})
    assert any(e.player is None and e.field == "points" and "312" in e.message for e in errors)
    assert errors_of({"Anna": (5, 156, 2), "Bernd": (5, 156, 2), "Carla": (0, 0, 0), "Dieter": (0, 0, 0)}) == []


def test_the_trumps_must_fit_the_augen_when_a_rank_is_trump():
    # The spec's example: Könige trump, 4 Trümpfe and 140 Augen in 15 cards cannot happen.
    doc = document([game({"Anna": (3, 140, 4), "Bernd": (2, 20, 1)}, trump=("rank", "K"))],
                   players=["Anna", "Bernd", "Carla", "Dieter", "Erika"])
    doc["events"][0]["game"]["results"] |= {"Carla": {"tricks": 5, "points": 30, "trumps": 0},
                                            "Dieter": {"tricks": 0, "points": 0, "trumps": 0},
                                            "Erika": {"tricks": 0, "points": 0, "trumps": 0}}
    errors = check(doc)[1]
    assert [(e.player, e.field) for e in errors] == [("Anna", "points")]
    assert "passen nicht" in errors[0].message


def test_all_errors_of_an_entry_are_reported_at_once():
    errors = errors_of({"Anna": (-1, 56, 2), "Bernd": (4, "x", 1), "Carla": (3, 30, None)})
    assert {(e.player, e.field) for e in errors} >= {("Anna", "tricks"), ("Bernd", "points"),
                                                    ("Carla", "trumps"), ("Dieter", None)}


def test_the_trump_is_required():
    errors = errors_of(GOOD, trump=None)
    assert [e.field for e in errors] == ["trump"] and "Art. 9" in errors[0].message


def test_an_empty_trump_is_reported_as_missing():
    _, errors = check(document([{"game": {"trump": None, "results": game(GOOD)["game"]["results"]}}]))
    assert [e.field for e in errors] == ["trump"] and "fehlt" in errors[0].message


def test_a_single_card_is_no_trump_of_the_trumpfwahl():
    errors = errors_of(GOOD, trump=("card", "KD"))
    assert errors[0].field == "trump" and "Art. 9, 11b" in errors[0].message


def test_the_trump_may_be_derived_from_the_trumpfwahl():
    match, errors = check(document([game(GOOD, trump=None, selection={"cards": ["X8", "H8", "P7"]})]))
    assert errors == [] and match.games[0].selected_trump.value == "Herz"


def test_a_trump_that_contradicts_the_trumpfwahl_is_an_error():
    errors = errors_of(GOOD, trump=("suit", "Pik"), selection={"cards": ["X8", "H8", "P7"], "agreed": False})
    assert [e.field for e in errors] == ["trump"] and "Herz" in errors[0].message


def test_inversion_errors_name_the_player_and_article():
    inversions = [{"player": "Bernd", "declared": "normal", "target": {"level": "suit", "value": "Kreuz"}}]
    errors = errors_of(GOOD, trump=("suit", "Pik"), inversions=inversions)
    assert [(e.player, e.field) for e in errors] == [("Bernd", "inversions")]
    assert "Art. 11b" in errors[0].message


def test_the_scores_use_the_trump_after_the_inversions():
    inversions = [{"player": "Bernd", "declared": "normal", "target": {"level": "suit", "value": "Pik"}}]
    match, errors = check(document([game(GOOD, trump=("suit", "Herz"), inversions=inversions)]))
    assert errors == []
    assert {p: s.points for p, s in match.games[0].scores.items()} == {"Anna": 71, "Bernd": 40, "Carla": -70, "Dieter": -200}


def test_unknown_fields_are_errors_not_ignored():
    errors = errors_of(GOOD, colour="rot")
    assert [e.field for e in errors] == ["colour"]


def test_every_message_names_an_article_when_it_enforces_a_rule():
    errors = errors_of({"Anna": (3, 1, 30), "Bernd": (4, 40, 1), "Carla": (4, 30, 0), "Dieter": (0, 5, 0)})
    assert errors and all("Art." in e.message for e in errors), messages(errors)


def test_the_messages_say_1_stich_and_1_trumpf_in_the_singular():
    errors = errors_of({"Anna": (1, 4, 5), "Bernd": (2, 0, 0), "Carla": (1, 0, 0), "Dieter": (1, 0, 0)})
    texts = " ".join(e.message for e in errors)
    assert "Anna hat 1 Stich mit 4 Karten, also höchstens 4 Trümpfe, nicht 5" in texts
    assert "1 Stiche" not in texts
