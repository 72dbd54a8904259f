"""A Partie holds at most ``envelope.MAX_EVENTS`` entries, in every game and on every path.

A Partie to 1000 points takes 20-80 Spiele; one of 3,671 Spiele was once accepted and its
sheet could not be printed in time. The limit is the envelope's, asked by the replay of
every ruleset, so a whole document and the incremental replay (the entry forms) refuse alike.
"""

import pytest

from protocol.rules import evaluate, get_ruleset
from protocol.rules.envelope import MAX_EVENTS

from .builders import PLAYERS, document, quiet

WARNING = {"warning": {"player": "Anna", "reason": "zu früh ausgespielt"}}


def tally_document(ruleset: str, events: list) -> dict:
    settings = {"rules": "tcg"} if ruleset == "doppelkopf" else {}
    return {"format": "protocol/1", "ruleset": ruleset, "players": PLAYERS, "scorekeeper": "Anna",
            "settings": settings, "events": events}


def test_a_partie_of_the_most_entries_is_valid():
    result = evaluate(document([quiet()] * MAX_EVENTS, limit=100_000))
    assert result.ok and len(result.match.games) == MAX_EVENTS


@pytest.mark.parametrize("count", [MAX_EVENTS + 1, 3671])
def test_a_longer_partie_is_refused_at_the_first_entry_beyond_with_a_german_message(count):
    result = evaluate(document([quiet()] * count, limit=100_000))
    assert [(e.event, e.field) for e in result.errors] == [(MAX_EVENTS, None)]  # one error, not one per entry
    assert f"höchstens {MAX_EVENTS} Einträge" in result.errors[0].message
    assert len(result.match.games) == MAX_EVENTS  # what is shown of a Partie stored before the limit


@pytest.mark.parametrize("ruleset", ["doppelkopf", "tarot"])
def test_doppelkopf_and_tarot_have_the_same_limit(ruleset):
    assert evaluate(tally_document(ruleset, [WARNING] * MAX_EVENTS)).ok
    errors = evaluate(tally_document(ruleset, [WARNING] * (MAX_EVENTS + 1))).errors
    assert [(e.event, e.field) for e in errors] == [(MAX_EVENTS, None)]


@pytest.mark.parametrize("ruleset, first", [("chaotentrumpf", quiet()), ("doppelkopf", WARNING), ("tarot", WARNING)])
def test_the_entry_after_the_last_is_refused_by_the_replay_the_entry_forms_use(ruleset, first):
    doc = document([first] * MAX_EVENTS, limit=100_000) if ruleset == "chaotentrumpf" else tally_document(ruleset, [first] * MAX_EVENTS)
    replay, problems = get_ruleset(ruleset).start(doc)
    assert not problems
    replay.feed(first)
    assert [(e.event, e.field) for e in problems.errors] == [(MAX_EVENTS, None)]
    assert f"höchstens {MAX_EVENTS} Einträge" in problems.errors[0].message
