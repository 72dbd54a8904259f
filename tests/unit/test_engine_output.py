"""The one match engine computes what the two engines before it computed: the
output of simulated Partien (their ``as_json``, what ``check_protocol`` prints) is byte for
byte what the engine of main computed, whole and fed event by event."""

import hashlib
import json
import random

import pytest

from protocol.games.chaotentrumpf.simulation import simulate_match
from protocol.rules import evaluate, get_ruleset, words

NAMES = ["Anna", "Bernd", "Carla", "Dieter", "Eva", "Fritz", "Gabi"]
# sha256 (first 16 hex digits) of json.dumps(as_json, ensure_ascii=False) by the engines of main
BEFORE = [
    "4a0ca86cf454d53d", "279a8002b376dfc9", "77cc51a2b07aea6f", "843f502fc1cd69bf", "293a81478d929b30",
    "1765ad2e0ba3298d", "570ac4a8f6493cf9", "a60733bfdd9ce250", "e0a109012982b1f6", "04af400cefe8a942",
    "0210c7bc2043f753", "aa351fb375ebd1a9", "08d625c71623dcca", "2c24f51b20c09be3", "2be6b0586779bf05",
    "bcce014b4989f2b2", "f1a4f752b62e72a3", "4e5923794c34aae5", "1ce4fb4311bb7873", "174fe4cd438faaa9",
    "2c12f86b3f05e5d8", "75f4e3b45bee39ee", "76888b318f5966f2", "aae4c8d050d5eef7", "f65b9086da0cdb8e",
    "f60d818e1e0e31cd", "8ad36c8cf08527e1", "fbe8437840086b7f", "9aaa4bd4eef6a48d", "3221a34c3f3c2bf3",
    "aad824629ff85a5a", "01560ce8e6b6229c", "11cc80f82c143f80", "e9929ce0efe574e0", "d380761daf880fb5",
    "791a0a83c7fdec37", "315b0d19f41fca73", "f0269f643b69e02b", "b75ad1f270415b20", "3f096ad4f3956f77",
]


def partie(seed):
    rng = random.Random(seed)
    n = rng.choice([3, 4, 4, 5, 6, 7])
    return simulate_match(NAMES[:n], rng, scorekeeper=NAMES[seed % n], disqualify_rate=0.02,
                          annul_rate=0.05, penalty_rate=0.05, warning_rate=0.03,
                          settings=rng.choice([{}, {"limit": 1000}]))


def digest(match):
    return hashlib.sha256(json.dumps(match.as_json(), ensure_ascii=False).encode()).hexdigest()[:16]


@pytest.mark.parametrize("seed", range(len(BEFORE)))
def test_a_simulated_partie_computes_as_before_whole_and_fed_event_by_event(seed):
    doc = partie(seed)
    evaluation = evaluate(doc)
    assert evaluation.ok and digest(evaluation.match) == BEFORE[seed]
    engine, problems = get_ruleset("chaotentrumpf").start(doc | {"events": []})
    for event in doc["events"]:
        engine.feed(event)
    assert not problems and digest(engine.finish()) == BEFORE[seed]


def test_an_engine_state_read_back_from_the_cache_says_the_same_in_german_and_translated():
    """A kept state is pickled (protocol.engine_state); its engine texts come back with their
    German words as written, their message ids and parameters: the same sheet, the same
    translations, nothing formatted anew."""
    import pickle

    evaluation = evaluate(partie(7))
    again = pickle.loads(pickle.dumps(evaluation.match, protocol=pickle.HIGHEST_PROTOCOL))
    assert digest(again) == digest(evaluation.match) == BEFORE[7]

    nested = words.Text(words.N_("%(player)s: %(why)s"), player="Anna", why=words.N_("Stechen entschieden (Art. 17b)"))
    back = pickle.loads(pickle.dumps(nested))
    assert str.__str__(back) == "Anna: Stechen entschieden (Art. 17b)"
    assert (back.template, back.params["player"], back.params["why"].template) == (
        nested.template, "Anna", "Stechen entschieden (Art. 17b)")
    site_translator = words._translate
    words.use_translator(lambda message: {"%(player)s: %(why)s": "%(player)s – %(why)s",
                                          "Stechen entschieden (Art. 17b)": "Tie-break decided (Art. 17b)"}.get(message, message))
    try:
        assert str(back) == str(nested) == "Anna – Tie-break decided (Art. 17b)"
    finally:
        words.use_translator(site_translator)


def test_a_translator_bound_for_a_block_translates_every_text_in_it_and_only_there():
    """A page part binds the active language's catalogue once (``words.translating``): within
    the block each text, its nested texts too, reads as that translator says; after it, as
    the site's translator says again, also when the block ends by an error."""
    nested = words.Text(words.N_("%(player)s: %(why)s"), player="Anna", why=words.N_("Stechen entschieden (Art. 17b)"))
    english = {"%(player)s: %(why)s": "%(player)s – %(why)s",
               "Stechen entschieden (Art. 17b)": "Tie-break decided (Art. 17b)"}
    before = str(nested)
    with words.translating(lambda message: english.get(message, message)):
        assert str(nested) == "Anna – Tie-break decided (Art. 17b)"
        with words.translating(lambda message: message.upper()):
            assert str(words.N_("Stechen entschieden (Art. 17b)")) == "STECHEN ENTSCHIEDEN (ART. 17B)"
        assert str(nested.params["why"]) == "Tie-break decided (Art. 17b)"
    assert str(nested) == before
    try:
        with words.translating(lambda message: english.get(message, message)):
            raise RuntimeError
    except RuntimeError:
        pass
    assert str(nested) == before
