"""Art. 11: inversions, the recognised kind (11f), once per player (11a) and 11d."""

import pytest

from protocol.games.chaotentrumpf.rules.inversion import apply_inversions, inversion_factor, recognised_kind
from protocol.games.chaotentrumpf.rules.trump import Trump

PLAYERS = ["Anna", "Bernd", "Carla", "Dieter"]


def T(level, value):
    return Trump(level, value)


def inv(player, declared, level, value):
    return {"player": player, "declared": declared, "target": {"level": level, "value": value}}


@pytest.mark.parametrize(
    "current, target",
    [
        (T("colour", "schwarz"), T("colour", "rot")),
        (T("colour", "rot"), T("colour", "schwarz")),
        (T("suit", "Kreuz"), T("suit", "Karo")),
        (T("suit", "Karo"), T("suit", "Kreuz")),
        (T("suit", "Pik"), T("suit", "Herz")),
        (T("suit", "Herz"), T("suit", "Pik")),
        (T("rank", "A"), T("rank", "7")),
        (T("rank", "7"), T("rank", "A")),
        (T("rank", "10"), T("rank", "8")),
        (T("rank", "K"), T("rank", "9")),
        (T("rank", "D"), T("rank", "B")),
        (T("rank", "B"), T("rank", "D")),
    ],
)
def test_a_normalinversion_swaps_the_pairs_of_art_11b(current, target):
    assert recognised_kind("normal", current, target) == "normal"
    done, trump, errors = apply_inversions([inv("Bernd", "normal", target.level, target.value)], current, PLAYERS)
    assert errors == [] and trump == target and done[0].recognised == "normal"


@pytest.mark.parametrize(
    "declared, current, target, recognised",
    [
        ("total", T("suit", "Kreuz"), T("suit", "Herz"), "total"),
        ("total", T("suit", "Kreuz"), T("suit", "Karo"), "normal"),  # 11f: the least needed
        ("ultra", T("rank", "8"), T("rank", "B"), "total"),  # Hinweise 4: Acht nach Bube
        ("ultra", T("rank", "8"), T("colour", "rot"), "ultra"),
        ("ultra", T("suit", "Pik"), T("suit", "Herz"), "normal"),
        ("totalultra", T("suit", "Pik"), T("suit", "Herz"), "totalultra"),  # 11f exception
        ("totalultra", T("rank", "8"), T("card", "KD"), "totalultra"),
    ],
)
def test_only_the_weakest_kind_that_reaches_the_target_is_recognised(declared, current, target, recognised):
    done, trump, errors = apply_inversions([inv("Anna", declared, target.level, target.value)], current, PLAYERS)
    assert errors == [] and done[0].recognised == recognised and done[0].declared == declared


@pytest.mark.parametrize(
    "declared, current, target, article",
    [
        ("normal", T("suit", "Kreuz"), T("suit", "Pik"), "Art. 11b"),
        ("normal", T("suit", "Kreuz"), T("colour", "rot"), "Art. 11b"),
        ("total", T("suit", "Kreuz"), T("rank", "A"), "Art. 11b"),
        ("ultra", T("suit", "Kreuz"), T("card", "KD"), "Art. 11b"),
        ("total", T("suit", "Kreuz"), T("card", "KD"), "Art. 11b"),
        ("total", T("suit", "Kreuz"), T("suit", "Kreuz"), "Art. 11"),
    ],
)
def test_a_declared_kind_must_reach_its_target(declared, current, target, article):
    done, trump, errors = apply_inversions([inv("Anna", declared, target.level, target.value)], current, PLAYERS)
    assert done == [] and trump == current
    assert len(errors) == 1 and article in errors[0][1] and errors[0][0] == "Anna"


def test_each_player_inverts_at_most_once_per_spiel():
    data = [inv("Anna", "normal", "suit", "Karo"), inv("Anna", "normal", "suit", "Kreuz")]
    done, trump, errors = apply_inversions(data, T("suit", "Kreuz"), PLAYERS)
    assert [i.player for i in done] == ["Anna"] and trump == T("suit", "Karo")
    assert "Art. 11a" in errors[0][1]


def test_after_a_recognised_ultra_only_ultra_or_totalultra_may_follow():
    data = [inv("Anna", "ultra", "colour", "rot"), inv("Bernd", "total", "colour", "schwarz")]
    done, trump, errors = apply_inversions(data, T("suit", "Kreuz"), PLAYERS)
    assert len(done) == 1 and "Art. 11d" in errors[0][1]
    data[1] = inv("Bernd", "ultra", "colour", "schwarz")
    done, trump, errors = apply_inversions(data, T("suit", "Kreuz"), PLAYERS)
    assert errors == [] and trump == T("colour", "schwarz")
    assert [i.recognised for i in done] == ["ultra", "normal"]  # 11f: schwarz<->rot is normal


def test_after_a_recognised_totalultra_only_totalultra_may_follow():
    data = [inv("Anna", "totalultra", "card", "KD"), inv("Bernd", "ultra", "rank", "A")]
    done, trump, errors = apply_inversions(data, T("suit", "Kreuz"), PLAYERS)
    assert trump == T("card", "KD") and "Art. 11d" in errors[0][1]
    data[1] = inv("Bernd", "totalultra", "rank", "A")
    assert apply_inversions(data, T("suit", "Kreuz"), PLAYERS)[2] == []


def test_an_ultra_recognised_only_as_total_leaves_11d_untouched():
    # Hinweise 4: Acht nach Bube with an Ultra in hand is a Totalinversion; others may go on.
    data = [inv("Anna", "ultra", "rank", "B"), inv("Bernd", "normal", "rank", "D")]
    done, trump, errors = apply_inversions(data, T("rank", "8"), PLAYERS)
    assert errors == [] and trump == T("rank", "D")
    assert inversion_factor(done, trump) is None


def test_a_player_who_does_not_play_cannot_invert():
    done, trump, errors = apply_inversions([inv("Erika", "normal", "suit", "Karo")], T("suit", "Kreuz"), PLAYERS)
    assert done == [] and "Art. 11a" in errors[0][1]


@pytest.mark.parametrize(
    "data, factor",
    [
        ([inv("Anna", "ultra", "colour", "rot")], 4),
        ([inv("Anna", "ultra", "colour", "rot"), inv("Bernd", "totalultra", "suit", "Pik")], 5),
        ([inv("Anna", "totalultra", "card", "HD")], 5),
        ([inv("Anna", "normal", "suit", "Karo")], None),
        ([], None),
    ],
)
def test_ultra_multiplies_by_4_and_totalultra_by_5(data, factor):
    done, trump, errors = apply_inversions(data, T("suit", "Kreuz"), PLAYERS)
    assert errors == [] and inversion_factor(done, trump) == factor


@pytest.mark.parametrize("data", ["x", [1], [{"player": "Anna"}], [inv("Anna", "mega", "suit", "Karo")],
                                  [{"player": "Anna", "declared": "normal", "target": "Karo"}]])
def test_broken_inversions_are_errors(data):
    done, trump, errors = apply_inversions(data, T("suit", "Kreuz"), PLAYERS)
    assert errors and done == []
