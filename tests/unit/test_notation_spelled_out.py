"""The Spiel spelled out as the season workbook's cells hold it (protocol/games/chaotentrumpf/notation.py): the one
grammar the spreadsheet export writes and the import reads back."""

import pytest

from protocol.games.chaotentrumpf import notation
from protocol.games.chaotentrumpf.notation import NotationError


@pytest.mark.parametrize("trump", [trump.as_json() for trump in notation.TRUMP_LABELS.values()])
def test_every_trump_reads_back_as_the_sheet_names_it(trump):
    written = notation.write_trump_label(trump)
    assert notation.read_trump_label(written) == trump
    assert notation.read_trump_label(f"  {written.upper()} ") == trump  # case and spaces as a person types


def test_the_sheet_names_a_trump_in_words():
    assert [notation.write_trump_label(t) for t in (
        {"level": "suit", "value": "Pik"}, {"level": "rank", "value": "10"}, {"level": "card", "value": "KD"},
    )] == ["Pik", "Wert Zehn", "Karo Dame"]


def test_an_unknown_trump_is_named_in_german():
    with pytest.raises(NotationError, match="„Pique“ ist kein Trumpf"):
        notation.read_trump_label("Pique")


@pytest.mark.parametrize("selection, text", [
    ({"cards": ["X8", "H8", "P7"], "agreed": False}, "X8 H8 P7"),
    ({"cards": ["XA", "KA"], "agreed": True}, "XA KA (Einigung)"),
])
def test_the_trumpfwahl_round_trips(selection, text):
    assert notation.write_selection(selection) == text
    assert notation.read_selection(text) == selection


def test_the_trumpfwahl_reads_the_typed_agreement_mark_and_lower_case_too():
    assert notation.read_selection("xa ka=") == {"cards": ["XA", "KA"], "agreed": True}
    assert notation.read_selection("X8, H8; P7") == {"cards": ["X8", "H8", "P7"], "agreed": False}


@pytest.mark.parametrize("text", ["X8 H8 (vielleicht)", "X8 (H8) P7"])
def test_a_trumpfwahl_with_another_remark_is_refused(text):
    with pytest.raises(NotationError, match="keine Trumpfwahl"):
        notation.read_selection(text)


def test_an_inversion_chain_round_trips():
    start = {"level": "suit", "value": "Herz"}
    inversions = [{"player": "Bernd", "declared": "normal", "target": {"level": "suit", "value": "Pik"}},
                  {"player": "Carla", "declared": "totalultra", "target": {"level": "card", "value": "KD"}}]
    text = notation.write_inversion_chain(start, inversions)
    assert text == "Herz → Pik (Bernd, Normalinversion) → Karo Dame (Carla, Totalultrainversion)"
    assert notation.read_inversion_chain(text) == (start, inversions)
    assert notation.read_inversion_chain(text.replace(" → ", "->")) == (start, inversions)


@pytest.mark.parametrize("text", ["Herz", "Herz → Pik", "Herz → Pik (Bernd, Umkehrung)", "Pique → Pik (Bernd, normal)",
                                  "Herz → Pik (, normal)"])
def test_an_inversion_chain_that_cant_be_read_is_refused(text):
    with pytest.raises(NotationError, match="nicht als Inversionen lesen"):
        notation.read_inversion_chain(text)
