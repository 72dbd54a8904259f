"""The transcriber's shorthand (protocol/games/chaotentrumpf/notation.py): every cell read, every typo named in German."""

import pytest

from protocol.games.chaotentrumpf.notation import (
    Entry,
    NotationError,
    read_count,
    read_entry,
    read_inversions,
    read_player,
    read_points,
    read_target,
    read_trump,
)
from protocol.rules import evaluate
from tests.unit.builders import PLAYERS, document


@pytest.mark.parametrize("text, level, value", [
    ("P", "suit", "Pik"), ("pik", "suit", "Pik"), ("X", "suit", "Kreuz"), ("h", "suit", "Herz"),
    ("K", "suit", "Karo"), ("Karo", "suit", "Karo"),
    ("rot", "colour", "rot"), ("r", "colour", "rot"), ("S", "colour", "schwarz"), ("schwarz", "colour", "schwarz"),
    ("A", "rank", "A"), ("As", "rank", "A"), ("10", "rank", "10"), ("Kö", "rank", "K"), ("KOENIG", "rank", "K"),
    ("D", "rank", "D"), ("b", "rank", "B"), ("9", "rank", "9"), ("8", "rank", "8"), ("7", "rank", "7"),
])
def test_a_trump_is_a_letter_or_a_word_in_any_case(text, level, value):
    assert read_trump(text) == {"level": level, "value": value}


def test_a_single_card_is_no_trump_of_the_trumpfwahl():
    with pytest.raises(NotationError, match=r"„KD“ ist eine einzelne Karte \(Karo Dame\).*Art\. 11b"):
        read_trump("KD")


def test_an_unknown_trump_lists_what_is_possible():
    with pytest.raises(NotationError, match=r"„Q“ ist kein Trumpf\. Möglich: r/rot.*Kö.*Art\. 9"):
        read_trump("Q")


@pytest.mark.parametrize("text, target", [
    ("H", {"level": "suit", "value": "Herz"}), ("KD", {"level": "card", "value": "KD"}),
    ("x10", {"level": "card", "value": "X10"}), ("HK", {"level": "card", "value": "HK"}),
    ("Kö", {"level": "rank", "value": "K"}),
])
def test_an_inversion_target_may_be_a_single_card(text, target):
    assert read_target(text) == target


@pytest.mark.parametrize("token, name", [
    ("1", "Anna"), ("4", "Dieter"), ("B", "Bernd"), ("car", "Carla"), ("DIETER", "Dieter"),
])
def test_a_player_is_a_seat_number_or_the_start_of_a_name(token, name):
    assert read_player(token, PLAYERS) == name


def test_an_exact_name_wins_over_a_longer_one():
    assert read_player("Anna", ["Annabell", "Anna", "Bernd"]) == "Anna"


@pytest.mark.parametrize("token, message", [
    ("5", "Platz 5 gibt es nicht: es spielen 4 Spieler"),
    ("Z", "„Z“ spielt nicht mit: Platznummer (1 bis 4) oder Namensanfang angeben (Anna, Bernd, Carla, Dieter)"),
])
def test_an_unknown_player_is_named(token, message):
    with pytest.raises(NotationError, match=message.replace("(", r"\(").replace(")", r"\)")):
        read_player(token, PLAYERS)


def test_an_ambiguous_start_of_a_name_asks_for_more():
    with pytest.raises(NotationError, match="„An“ passt zu Anna und Andreas: mehr Buchstaben oder die Platznummer"):
        read_player("An", ["Anna", "Andreas", "Bernd"])


def test_the_entry_of_a_spiel_is_its_trump():
    entry = read_entry("P", PLAYERS)
    assert (entry.kind, entry.body) == ("game", {"trump": {"level": "suit", "value": "Pik"}})


def test_the_revealed_cards_are_the_trumpfwahl():
    assert read_entry("X8 H8 p7", PLAYERS).body == {"selection": {"cards": ["X8", "H8", "P7"], "agreed": False}}


@pytest.mark.parametrize("text", ["X8 H8=", "X8 H8 ="])
def test_an_equals_sign_marks_the_agreement_on_the_last_card(text):
    assert read_entry(text, PLAYERS).body == {"selection": {"cards": ["X8", "H8"], "agreed": True}}


def test_one_card_with_agreement_is_a_trumpfwahl_of_one_card():
    assert read_entry("HB=", PLAYERS).body == {"selection": {"cards": ["HB"], "agreed": True}}


def test_words_after_the_trump_are_refused():
    with pytest.raises(NotationError, match="Nach dem Trumpf steht noch „2 n H“"):
        read_entry("P 2 n H", PLAYERS)


@pytest.mark.parametrize("text, trump", [("s", "schwarz"), ("a", "A"), ("d", "D")])
def test_s_a_and_d_alone_are_trumps(text, trump):
    assert read_entry(text, PLAYERS).body["trump"]["value"] == trump


def test_a_strafe_names_player_points_and_reason():
    entry = read_entry("S 3 200 Karte verdeckt getauscht", PLAYERS)
    assert (entry.kind, entry.body) == ("penalty", {"player": "Carla", "points": 200, "reason": "Karte verdeckt getauscht"})
    assert read_entry("strafe Carla -300 nicht bedient", PLAYERS).body["points"] == 300


@pytest.mark.parametrize("text, message", [
    ("S 3", "Eine Strafe braucht Spieler, Punkte und Grund"),
    ("S 3 viel zu früh", "„viel“ sind keine Strafpunkte"),
    ("S 7 200 x", "Platz 7 gibt es nicht"),
])
def test_a_strafe_that_cannot_be_read_says_how_it_is_written(text, message):
    with pytest.raises(NotationError, match=message):
        read_entry(text, PLAYERS)


def test_verwarnung_and_disqualifikation():
    assert read_entry("V B falsch bedient", PLAYERS).kind == "warning"
    assert read_entry("V B falsch bedient", PLAYERS).body == {"player": "Bernd", "reason": "falsch bedient"}
    assert read_entry("D 4 wiederholt", PLAYERS).body == {"player": "Dieter", "reason": "wiederholt"}
    with pytest.raises(NotationError, match="Die Verwarnung braucht den Spieler und den Grund"):
        read_entry("V", PLAYERS)


def test_the_end_by_time_or_agreement():
    assert read_entry("E", PLAYERS).body == {"reason": "time"}
    assert read_entry("Ende v", PLAYERS).body == {"reason": "agreed"}
    with pytest.raises(NotationError, match="Art. 17c"):
        read_entry("E morgen", PLAYERS)


def test_an_annulled_spiel_has_its_trump_and_reason():
    entry = read_entry("A P Karten falsch gegeben", PLAYERS)
    assert entry.annulled
    assert entry.body == {"trump": {"level": "suit", "value": "Pik"}, "annulled": True,
                          "annul_reason": "Karten falsch gegeben"}
    assert read_entry("A X8 H8 P7 vergeben", PLAYERS).body["selection"]["cards"] == ["X8", "H8", "P7"]
    with pytest.raises(NotationError, match="Der Grund der Annullierung fehlt.*SV 4"):
        read_entry("A P", PLAYERS)


def test_inversions_in_the_order_announced():
    assert read_inversions("2 n H, C tu KD", PLAYERS) == [
        {"player": "Bernd", "declared": "normal", "target": {"level": "suit", "value": "Herz"}},
        {"player": "Carla", "declared": "totalultra", "target": {"level": "card", "value": "KD"}},
    ]


@pytest.mark.parametrize("text", ["2nH", "2 n H", "2n H", "b n h", "Bernd normal Herz", "2 n Herz;"])
def test_an_inversion_may_be_written_compactly(text):
    assert read_inversions(text, PLAYERS) == [
        {"player": "Bernd", "declared": "normal", "target": {"level": "suit", "value": "Herz"}}]


@pytest.mark.parametrize("text, kind", [("1 t X", "total"), ("1 u rot", "ultra"), ("1tuKö", "totalultra"),
                                        ("1 total Kreuz", "total"), ("1 ultra 7", "ultra")])
def test_the_kinds_of_inversion(text, kind):
    assert read_inversions(text, PLAYERS)[0]["declared"] == kind


@pytest.mark.parametrize("text, message", [
    ("2 H", "Inversion „2 H“: Spieler, Art und neuer Trumpf, z. B. „2 n H“"),
    ("2 x H", "Inversion „2 x H“"),
    ("2 n Q", "„Q“ ist kein Inversionsziel"),
    ("9 n H", "Platz 9 gibt es nicht"),
])
def test_an_inversion_that_cannot_be_read(text, message):
    with pytest.raises(NotationError, match=message):
        read_inversions(text, PLAYERS)


def test_no_inversions_is_an_empty_list():
    assert read_inversions("  ", PLAYERS) == []


@pytest.mark.parametrize("text, value", [("", None), (" 3 ", 3), ("156", 156), ("0", 0), ("3a", "3a"), ("-2", "-2")])
def test_a_number_cell_is_a_whole_number_or_handed_on_as_typed(text, value):
    assert read_count(text) == value


def test_what_the_notation_reads_the_rules_engine_accepts():
    """The shorthand only reads; the engine decides. A Spiel in shorthand is a valid event."""
    entry = read_entry("X8 H8 P7", PLAYERS)
    body = entry.body | {"inversions": read_inversions("2 n P", PLAYERS), "results": {
        "Anna": {"tricks": 3, "points": 56, "trumps": 2}, "Bernd": {"tricks": 4, "points": 40, "trumps": 1},
        "Carla": {"tricks": 3, "points": 30, "trumps": 0}, "Dieter": {"tricks": 0, "points": 0, "trumps": 0}}}
    result = evaluate(document([{"game": body}]))
    assert result.errors == []
    game = result.match.games[0]
    assert (game.selected_trump.value, game.trump.value) == ("Herz", "Pik")  # Art. 9d, then Bernd's Normalinversion


def test_writing_and_reading_give_back_every_event_of_simulated_partien():
    """write_entry/write_inversions are the inverse of reading, for every kind of event."""
    import random

    from protocol.games.chaotentrumpf.notation import write_entry, write_inversions
    from protocol.games.chaotentrumpf.simulation import simulate_match

    rng = random.Random(8)
    seen = set()
    for players in (PLAYERS, ["Anna", "Bernd", "Carla"], ["Anna", "Bernd", "Carla", "Dieter", "Erika", "Frank"]):
        doc = simulate_match(players, rng, penalty_rate=0.1, warning_rate=0.05, annul_rate=0.1, disqualify_rate=0.02)
        for event in doc["events"]:
            (kind, body), = event.items()
            for cards in (False, True):
                entry = read_entry(write_entry(kind, body, players, cards=cards), players)
                assert entry.kind == kind
                expected = {k: v for k, v in body.items() if k not in ("results", "inversions", "decided_by")}
                if kind == "game":
                    expected.pop("selection" if not cards else "trump")
                    seen.add("annulled" if body.get("annulled") else "game")
                    assert read_inversions(write_inversions(body.get("inversions", []), players), players) == \
                        body.get("inversions", [])
                else:
                    seen.add(kind)
                assert entry.body == expected, (kind, body)
    assert seen >= {"game", "annulled", "penalty", "warning"}


def test_an_end_is_written_e_or_e_v():
    from protocol.games.chaotentrumpf.notation import write_entry
    assert write_entry("end", {"reason": "time"}, PLAYERS) == "E"
    assert read_entry(write_entry("end", {"reason": "agreed"}, PLAYERS), PLAYERS).body == {"reason": "agreed"}


# -- a row typed as points only ---------------------------------------------------------------

@pytest.mark.parametrize("text, points", [("71", 71), (" -200 ", -200), ("−70", -70), ("- 5", -5), ("0", 0),
                                          ("", None), ("  ", None), ("vierzig", "vierzig"), ("1,5", "1,5"),
                                          ("²", "²"), ("9" * 7, "9" * 7), ("--5", "--5")])
def test_points_are_a_whole_number_with_a_minus_or_handed_on_as_typed(text, points):
    assert read_points(text) == points


def test_a_points_row_may_leave_the_trump_out_a_full_row_may_not():
    assert read_entry("", PLAYERS, trump_required=False) == Entry("game", {})
    assert read_entry("P", PLAYERS, trump_required=False) == Entry("game", {"trump": {"level": "suit", "value": "Pik"}})
    with pytest.raises(NotationError, match="Die Zeile ist leer"):
        read_entry("  ", PLAYERS)
