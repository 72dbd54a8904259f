"""protocol.records.chronicle: the history in words, with the Spiel numbers of the sheet at each change."""

from hypothesis import given, settings
from hypothesis import strategies as st

from protocol.records.chronicle import Step, entry_name, sentences


def game(points):
    return {"game": {"dealer": "Anna", "taker": "Bernd", "contract": "garde", "oudlers": 2, "points": points}}


def penalty(points):
    return {"penalty": {"player": "Carla", "points": points, "reason": "Karten gezeigt"}}


# One write: ("add", kind, value) at the end, ("correct", index, value), ("remove", index).
writes = st.lists(st.one_of(
    st.tuples(st.just("add"), st.sampled_from([game, penalty]), st.integers(100, 999)),
    st.tuples(st.just("correct"), st.integers(0, 50), st.integers(1000, 9999)),
    st.tuples(st.just("remove"), st.integers(0, 50)),
), max_size=25)


@settings(max_examples=200, deadline=None)
@given(writes)
def test_every_sentence_names_the_entry_as_the_sheet_numbered_it_then(ops):
    entries, steps, names = [], [], []
    for op in ops:
        if op[0] == "add":
            entries.append(op[1](op[2]))
            steps.append(Step("add", len(entries) - 1, None, entries[-1]))
            names.append(entry_name(entries, len(entries) - 1))
        elif entries:
            i = op[1] % len(entries)
            names.append(entry_name(entries, i))
            if op[0] == "correct":
                kind = next(iter(entries[i]))
                new = (game if kind == "game" else penalty)(op[2])
                steps.append(Step("correct", i, entries[i], new))
                entries[i] = new
            else:
                steps.append(Step("remove", i, entries.pop(i), None))
    lines = sentences("tarot", steps, entries)
    assert len(lines) == len(names)
    for line, name in zip(lines, names, strict=True):
        assert line.startswith(name + " "), (line, name)


def test_a_strafe_is_no_spiel():
    entries = [game(40), penalty(100), game(50)]
    assert [entry_name(entries, i) for i in range(3)] == ["Spiel 1", "Strafe nach Spiel 1", "Spiel 2"]


def test_a_history_that_does_not_fit_the_entries_names_the_entry_by_its_position():
    (line,) = sentences("tarot", [Step("correct", 7, game(40), game(45))], [game(45)])
    assert line == "Spiel (Eintrag 8) korrigiert: Punkte 40 → 45"


def test_the_words_come_from_the_games_vocabulary():
    (line,) = sentences("doppelkopf", [Step("correct", 0, {"game": {"type": "normal", "re_points": 121}},
                                            {"game": {"type": "solo_damen", "re_points": 121}})], [{"game": {}}])
    assert line == "Spiel 1 korrigiert: Spielart Normalspiel → Damensolo"


def test_a_losentscheid_names_its_winner():
    lot = {"features": {"Anna": "Kreuz", "Carla": "Herz"}, "cards": ["KD", "XK"], "winner": "Anna"}
    assert sentences("chaotentrumpf", [Step("lot", None, None, lot)], []) == ["Losentscheid gezogen: Anna gewinnt"]
