"""Engine.fork: a save feeds its Spiel to a fork of the engine state this process shares with
every page and poll of the version (protocol.recording.add_event), so feeding the fork must
leave the original exactly as it was, whatever is fed (a valid Spiel, a refused one, the Spiel
that opens a Stechen, a Strafe, a disqualification, the end), and the fork must answer what a
replay of all the events answers."""

import copy
import json
import threading
from pathlib import Path

import pytest

from protocol.rules import get_ruleset
from tests.unit.builders import document, quiet
from tests.unit.doppelkopf_deals import deal
from tests.unit.tarot_deals import plain

DATA = Path(__file__).resolve().parents[1] / "data"
PLAYERS = ["Anna", "Bernd", "Carla", "Dieter"]


def stechen_document():
    return json.loads((DATA / "stechen.json").read_text())


def doppelkopf_document():
    events = [{"game": deal(points=100 + 10 * i, dealer=PLAYERS[i % 4], re_says=i % 3)} for i in range(5)]
    events += [{"disqualification": {"player": "Dieter", "reason": "Karten gezinkt", "decided_by": ["Anna"]}},
               {"end": {"reason": "agreed"}}]
    return document(events) | {"ruleset": "doppelkopf", "settings": {"rules": "tcg"}}


def tarot_document():
    events = [{"game": plain(dealer=PLAYERS[i % 4], taker=PLAYERS[(i + 1) % 4], points=30 + 7 * i)} for i in range(5)]
    return document(events + [{"end": {"reason": "time"}}]) | {"ruleset": "tarot"}


def started(doc, events):
    engine, problems = get_ruleset(doc["ruleset"]).start(doc | {"events": events})
    assert engine is not None and not problems.errors
    return engine


def answer(engine):
    """Everything the engine answers, to compare: the match, its problems, what it was fed."""
    return engine.finish().as_json(), list(engine.problems.errors), engine.fed, list(engine.env.events)


def fed(engine, entry):
    """A fork of ``engine`` fed ``entry``, its envelope listing it, as protocol.recording feeds."""
    fork = engine.fork()
    fork.feed(entry)
    fork.env.events = [*fork.env.events, entry]
    return fork


def refused(doc):
    """An entry the engine refuses at any point of the Partie."""
    if doc["ruleset"] == "chaotentrumpf":
        bad = quiet()["game"]
        bad["results"]["Anna"]["points"] = 1
        return {"game": bad}
    return {"penalty": {"player": "Niemand", "points": 5, "reason": "?"}}


@pytest.mark.parametrize("doc", [stechen_document(), doppelkopf_document(), tarot_document()],
                         ids=["chaotentrumpf-stechen", "doppelkopf", "tarot"])
def test_feeding_a_fork_leaves_the_engine_as_it_was_and_answers_as_a_replay(doc):
    events = doc["events"]
    for n in range(len(events)):
        engine = started(doc, events[:n])
        before = copy.deepcopy(answer(engine))
        for entry in (events[n], refused(doc)):
            fork = fed(engine, entry)
            assert answer(engine) == before, f"feeding a fork changed the engine after {n} events"
            replay, problems = get_ruleset(doc["ruleset"]).start(doc | {"events": events[:n] + [entry]})
            assert answer(fork) == answer(replay)
            assert fork.problems.errors == problems.errors
        assert engine.finish().as_json() == before[0]


def test_a_fork_of_a_fork_and_forks_fed_at_once_in_threads_keep_to_themselves():
    doc = stechen_document()
    events = doc["events"]
    engine = started(doc, events[:2])
    before = copy.deepcopy(answer(engine))
    second = fed(engine, events[2])
    third = fed(second, events[3])
    assert answer(second) == answer(started(doc, events[:3]))
    assert answer(third) == answer(started(doc, events[:4]))

    answers, failures = [], []

    def feed_a_fork():
        try:
            for _ in range(20):
                answers.append(fed(engine, events[2]).finish().as_json())
        except Exception as failure:  # noqa: BLE001 - reported by the test below
            failures.append(failure)

    threads = [threading.Thread(target=feed_a_fork) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not failures
    assert len(answers) == 80 and all(a == answer(second)[0] for a in answers)
    assert answer(engine) == before
