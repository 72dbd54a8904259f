"""Every refusal cites a rule of its own game: each kind of refusal (seating and Protokollant,
sanctions, annulments, ends, Spiel errors, the Stechen) is triggered in each game, and its
message must carry a citation of THAT game's rule text (or of its spec's ruling, cited as
the spec says), never another game's (docs/doppelkopf.md, docs/tarot.md: never Art. 4).

What a citation looks like, game by game (``CITATIONS``), and which articles exist: each
rule text's table of contents is written out below (the texts live beside the specs, in
shared/rules/, not in the repository; ``test_the_contents_are_those_of_the_rule_texts``
compares them where the texts are at hand).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from protocol.entry_form.state import article_of
from protocol.rules import RULESETS, evaluate
from protocol.rules.match import ARTICLE_KEYS

PLAYERS = ["Anna", "Bernd", "Carla", "Dieter"]

# -- what each game's rule text holds -----------------------------------------------------------
# Chaotentrumpf (chaotentrumpf-regelwerk.txt): Artikel 1-18 with their letters, LE a-c, NÜV 1-6, SV 1-5.
ARTICLES = {1: "ab", 2: "", 3: "abc", 4: "ab", 5: "abc", 6: "ab", 7: "", 8: "", 9: "abcdef", 10: "",
            11: "abcdef", 12: "abc", 13: "ab", 14: "abc", 15: "abcd", 16: "abc", 17: "abc", 18: ""}
ORDINANCES = {"LE": "abc", "NÜV": "123456", "SV": "12345"}
# Doppelkopf, TCG (doppelkopf-tcg-turnierregeln.txt numbers nothing): its sections, as
# "TCG-Regeln, <section>"; docs/doppelkopf.md numbers the rules of the game value TCG 1-8.
TCG_SECTIONS = {"Allgemeines": "Allgemeines zum Spiel", "Vorbehalte": "Vorbehalte", "Vorbehalt a": "a) 5 Könige",
                "Vorbehalt b": "b) Solo", "Vorbehalt c": "c) Abgabe", "Vorbehalt e": "e) Hochzeit",
                "Sonderpunkte": "Punktevergabe, Sonderpunkte"}
TCG_RULES = {str(n) for n in range(1, 9)}
# Doppelkopf, DDV: the sections of the DDV-Turnierspielregeln the engine cites (its text is not
# among the shared rules; protocol/games/doppelkopf/rules/__init__.py lists them), and the spec's
# ruling of five at a table ("Five at a table under DDV").
DDV_SECTIONS = {"2.2", "2.4", "4", "4.4", "6", "7.1", "7.2", "9"}
DDV_RULINGS = {"am Tisch spielen vier"}  # "; zu fünft sitzt im Vereinsspiel der Geber aus"
# Tarot (tarot-fft-regeln.txt): its sections, as "FFT-Regeln: <section>", each with the
# heading the text prints; where it is silent, the Règlement officiel (docs/tarot.md).
FFT_SECTIONS = {"Schiedsrichtergesetz": "Schiedsrichtergesetz", "Die Kartenausgabe": "KARTENAUSGABE",
                "Die Überbietungen": "DIE ÜBERBIETUNGEN", "Verträge": "VERTRÄGE", "Die Handvoll": "DIE HANDVOLL",
                "Le Chelem": "LE CHELEM", "Nord Spieler": "NORD SPIELER",
                "Ablauf des Wettbewerbs": "ABLAUF DES WETTBEWERBS"}
FORMAT = "Protokollformat"  # docs/doppelkopf.md: "TCG n, DDV, or the protocol format"


def chaotentrumpf_citations(message: str) -> tuple[list[str], list[str]]:
    """(citations found, those the Regelwerk does not have): "Art. 17b", "Art. 7, 10", "SV 3"."""
    found, unknown = [], []
    for group in re.findall(r"\(([^()]*)\)", message):
        for listed in re.findall(r"Art\. (\d+[a-f]?(?:, \d+[a-f]?)*)", group):
            for number, letter in re.findall(r"(\d+)([a-f]?)", listed):
                found.append(f"Art. {number}{letter}")
                if int(number) not in ARTICLES or letter and letter not in ARTICLES[int(number)]:
                    unknown.append(found[-1])
        for name, item in re.findall(r"\b(SV|NÜV|LE)\b ?(\d+|[a-z]\b)?", group):
            found.append(f"{name} {item}".strip())
            if item and item not in ORDINANCES[name]:
                unknown.append(found[-1])
    return found, unknown


def doppelkopf_citations(message: str, rules: str) -> tuple[list[str], list[str]]:
    found, unknown = [], []
    for group in re.findall(r"\(([^()]*)\)", message):
        for section in re.findall(r"TCG-Regeln, ([^:;)]+)", group):
            found.append(f"TCG-Regeln, {section}")
            if section not in TCG_SECTIONS and rules == "tcg":
                unknown.append(found[-1])
        for number in re.findall(r"\bTCG (\d+)", group):
            found.append(f"TCG {number}")
            if number not in TCG_RULES:
                unknown.append(found[-1])
        for number, ruling in re.findall(r"\bDDV(?:-Turnierspielregeln)?(?: (\d+(?:\.\d+)*))?(?:: ([^;)]*))?", group):
            found.append(f"DDV {number}".strip())
            if number and number not in DDV_SECTIONS or not number and ruling not in DDV_RULINGS:
                unknown.append(f"DDV {number or ruling}")
        if group.startswith(FORMAT):
            found.append(FORMAT)
    if rules == "ddv":  # a DDV match never cites a TCG rule
        unknown += [c for c in found if c.startswith("TCG")]
    return found, unknown


def tarot_citations(message: str) -> tuple[list[str], list[str]]:
    found, unknown = [], []
    for group in re.findall(r"\(([^()]*)\)", message):
        for section in re.findall(r"FFT-Regeln: ([^:;)]+)", group):
            found.append(f"FFT-Regeln: {section}")
            if section not in FFT_SECTIONS:
                unknown.append(found[-1])
        if "Règlement officiel der FFT" in group:
            found.append("Règlement officiel der FFT")
    return found, unknown


# Each game's own citations, and what would be another game's.
CITATIONS = {
    "chaotentrumpf": chaotentrumpf_citations,
    "doppelkopf-tcg": lambda message: doppelkopf_citations(message, "tcg"),
    "doppelkopf-ddv": lambda message: doppelkopf_citations(message, "ddv"),
    "tarot": tarot_citations,
}
FOREIGN = {
    "chaotentrumpf": re.compile(r"TCG|DDV|FFT|Règlement|Protokollformat"),
    "doppelkopf-tcg": re.compile(r"\((?:[^()]*\b)?(?:Art\. \d|SV \d|NÜV)|FFT|Règlement"),
    "doppelkopf-ddv": re.compile(r"\((?:[^()]*\b)?(?:Art\. \d|SV \d|NÜV)|FFT|Règlement|TCG"),  # never TCG
    "tarot": re.compile(r"\((?:[^()]*\b)?(?:Art\. \d|SV \d|NÜV)|TCG|DDV|Protokollformat"),
}

# -- the games ----------------------------------------------------------------------------------
RULESET = {"chaotentrumpf": "chaotentrumpf", "doppelkopf-tcg": "doppelkopf", "doppelkopf-ddv": "doppelkopf",
           "tarot": "tarot"}
SETTINGS = {"doppelkopf-tcg": {"rules": "tcg"}, "doppelkopf-ddv": {"rules": "ddv"}}


def lines(**tricks):
    """A Chaotentrumpf Spiel with red trump: each player's Stiche, 10 Augen and 1 Trumpf per Stich."""
    return {"trump": {"level": "colour", "value": "rot"},
            "results": {p: {"tricks": t, "points": 10 * t, "trumps": min(t, 1) + (t == 4)} for p, t in tricks.items()}}


# A Spiel every game accepts, and one whose values no deal can have (a Spiel error).
GAME = {
    "chaotentrumpf": lines(Anna=4, Bernd=2, Carla=2, Dieter=2),  # Anna leads: an end decides the Partie
    "doppelkopf-tcg": {"type": "normal", "dealer": "Anna", "re": ["Anna", "Bernd"], "re_points": 130},
    "doppelkopf-ddv": {"type": "normal", "dealer": "Anna", "re": ["Anna", "Bernd"], "re_points": 130},
    "tarot": {"dealer": "Anna", "taker": "Bernd", "contract": "garde", "oudlers": 2, "points": 49},
}
IMPOSSIBLE = {
    "chaotentrumpf": lines(Anna=4, Bernd=3, Carla=2, Dieter=2),  # 11 Stiche in a hand of 10
    "doppelkopf-tcg": GAME["doppelkopf-tcg"] | {"re_points": 250},
    "doppelkopf-ddv": GAME["doppelkopf-ddv"] | {"re_points": 250},
    "tarot": GAME["tarot"] | {"contract": "grande"},
}


def document(game: str, *events, players=PLAYERS, scorekeeper="Anna") -> dict:
    doc = {"format": "protocol/1", "ruleset": RULESET[game], "players": list(players), "scorekeeper": scorekeeper,
           "events": list(events)}
    if game in SETTINGS:
        doc["settings"] = SETTINGS[game]
    return doc


def out(player):
    return {"disqualification": {"player": player, "reason": "Falschspiel"}}


PENALTY = {"player": "Carla", "reason": "Karte getauscht", "decided_by": ["Anna"]}
POINTS = {"chaotentrumpf": 100, "doppelkopf-tcg": 10, "doppelkopf-ddv": 10, "tarot": 100}
TOO_FEW = {"chaotentrumpf": None, "doppelkopf-tcg": ["Dieter"], "doppelkopf-ddv": ["Dieter"],
           "tarot": ["Carla", "Dieter"]}


def cases(game: str):
    """(kind, what, document) of every kind of refusal in ``game``."""
    played = {"game": GAME[game]}
    yield "seating", "the Protokollant does not play", document(game, scorekeeper="Sabine")
    if game != "chaotentrumpf":  # Chaotentrumpf's 2 to 10 players: 10 is no rule, its message names none
        yield "seating", "too few players", document(game, players=["Anna", "Bernd"])
    yield "sanction", "no reason", document(game, {"warning": {"player": "Carla", "reason": " "}})
    yield "sanction", "not a player", document(game, {"warning": {"player": "Sabine", "reason": "zu früh"}})
    yield "sanction", "penalty out of bounds", document(game, {"penalty": PENALTY | {"points": 7777}})
    yield "sanction", "the accused decides", document(
        game, {"penalty": PENALTY | {"points": POINTS[game], "decided_by": ["Carla"]}})
    yield "sanction", "deciders not players", document(
        game, {"disqualification": PENALTY | {"decided_by": ["Sabine"]}})
    yield "sanction", "a disqualified player decides", document(
        game, out("Dieter"), {"penalty": PENALTY | {"points": POINTS[game], "decided_by": ["Dieter"]}})
    yield "sanction", "disqualified twice", document(game, out("Dieter"), out("Dieter"))
    yield "annulment", "an annulled game without reason", document(game, {"game": GAME[game] | {"annulled": True}})
    yield "annulment", "an annulled match without reason", document(game, {"annul_match": {"reason": ""}})
    yield "annulment", "an entry after the annulled match", document(
        game, {"annul_match": {"reason": "Karten unvollständig"}}, played)
    yield "end", "an unknown reason", document(game, played, {"end": {"reason": "müde"}})
    yield "end", "a second end", document(game, played, {"end": {"reason": "time"}}, {"end": {"reason": "agreed"}})
    yield "end", "a game after the end", document(game, played, {"end": {"reason": "time"}}, played)
    yield "game", "an impossible Spiel", document(game, {"game": IMPOSSIBLE[game]})
    if game == "doppelkopf-ddv":  # what only the TCG rules know, refused without citing them
        yield "game", "an Abgabe under DDV", document(game, {"game": GAME[game] | {"type": "abgabe"}})
        yield "game", "a Herzstich under DDV", document(
            game, {"game": GAME[game] | {"extras": {"re": {"herzstich": 1}}}})
    if TOO_FEW[game]:
        yield "game", "too few left after disqualifications", document(
            game, *[out(p) for p in TOO_FEW[game]], played)
    else:
        yield "game", "a disqualified player's line", document(game, out("Dieter"), played)
    if game == "chaotentrumpf":
        yield from stechen_cases()


def twins() -> dict:
    """Anna and Bernd share the Trumpfwertung on rank As: 312 each (Art. 16c)."""
    return {"game": {"trump": {"level": "rank", "value": "A"},
                     "results": {"Anna": {"tricks": 5, "points": 156, "trumps": 6},
                                 "Bernd": {"tricks": 5, "points": 156, "trumps": 6},
                                 "Carla": {"tricks": 0, "points": 0, "trumps": 0},
                                 "Dieter": {"tricks": 0, "points": 0, "trumps": 0}}}}


STECHEN_SPIEL = {"game": {"trump": {"level": "colour", "value": "rot"},
                          "results": {"Anna": {"tricks": 5, "points": 60, "trumps": 1},
                                      "Bernd": {"tricks": 5, "points": 60, "trumps": 1}}}}


def stechen_cases():
    """Four twins send Anna and Bernd over 1000 together: a Stechen of the two (Art. 17b)."""
    opened = [twins()] * 4
    yield "stechen", "a line of a player not in the Stechen", document("chaotentrumpf", *opened, twins())
    annulled = {"game": twins()["game"] | {"annulled": True, "annul_reason": "vergeben"}}
    yield "stechen", "a Stechen-Spiel after its opener was annulled", document(
        "chaotentrumpf", *opened[:3], annulled, STECHEN_SPIEL)
    yield "stechen", "a Spiel after a Stechen decided by a disqualification", document(
        "chaotentrumpf", *opened, out("Bernd"), STECHEN_SPIEL)


ALL = [(game, kind, what, doc) for game in CITATIONS for kind, what, doc in cases(game)]


@pytest.mark.parametrize("game, kind, what, doc", ALL, ids=[f"{g}: {w}" for g, _, w, _ in ALL])
def test_every_refusal_cites_a_rule_of_its_own_game(game, kind, what, doc):
    errors = evaluate(doc).errors
    assert errors, f"{what}: not refused"
    for error in errors:
        message = str.__str__(error.message)
        found, unknown = CITATIONS[game](message)
        assert found, f"{game}, {kind} ({what}): no rule of {game} cited in {message!r}"
        assert not unknown, f"{game}: {unknown} is not in its rule text: {message!r}"
        assert not FOREIGN[game].search(message), f"{game} cites another game's rule: {message!r}"
        assert CITATIONS[game](f"({article_of(message)})")[0], f"the entry page finds no article in {message!r}"


def test_each_game_fills_only_the_known_article_keys():
    for ruleset in RULESETS.values():
        assert set(ruleset.articles) <= set(ARTICLE_KEYS), ruleset.key
        assert set(ruleset.sanction_articles) == {"penalty", "warning", "disqualification"}, ruleset.key


def test_every_kind_of_refusal_is_run_in_every_game():
    kinds = {game: {kind for g, kind, _, _ in ALL if g == game} for game in CITATIONS}
    assert all(kinds[game] >= {"seating", "sanction", "annulment", "end", "game"} for game in kinds)
    assert "stechen" in kinds["chaotentrumpf"]  # the only game with a Stechen (Art. 17b)


def test_the_citations_are_read_as_each_game_writes_them():
    """The readers themselves: a citation of the wrong game or of no article is caught."""
    assert chaotentrumpf_citations("x (Art. 7, 10).") == (["Art. 7", "Art. 10"], [])
    assert chaotentrumpf_citations("x (SV 4, Art. 17b).") == (["Art. 17b", "SV 4"], [])
    assert chaotentrumpf_citations("x (Art. 17d).")[1] == ["Art. 17d"]
    assert chaotentrumpf_citations("x (SV 9).")[1] == ["SV 9"]
    assert doppelkopf_citations("x (TCG-Regeln, Vorbehalt e).", "ddv")[1] == ["TCG-Regeln, Vorbehalt e"]
    assert doppelkopf_citations("x (DDV-Turnierspielregeln 8).", "ddv")[1] == ["DDV 8"]
    assert doppelkopf_citations("x (Protokollformat).", "tcg") == (["Protokollformat"], [])
    assert tarot_citations("x (FFT-Regeln: Die Mogelei).")[1] == ["FFT-Regeln: Die Mogelei"]
    assert FOREIGN["tarot"].search("Der Protokollant muss einer der Spieler sein (Art. 4).")
    assert not chaotentrumpf_citations("Die Partie ist bereits beendet.")[0]


def test_the_stechen_refusals_name_the_real_reason():
    """docs/chaotentrumpf.md: the annulment that ended the Stechen is named, never only
    "Zeile fehlt"; a Stechen left to one player by a disqualification names SV 3."""
    (_, _, left_over), (_, _, after) = list(stechen_cases())[1:]
    messages = [e.message for e in evaluate(left_over).errors]
    assert messages and all("Spiel 4 ist annulliert" in m and "(SV 4, Art. 17b)" in m for m in messages)
    (closed,) = evaluate(after).errors
    assert closed.message.endswith("weitere Spiele sind nicht möglich (SV 3).")


def test_after_an_end_by_time_a_refusal_cites_17c_not_17a():
    ended = [{"game": GAME["chaotentrumpf"]}, {"end": {"reason": "time"}}]
    messages = [e.message for e in evaluate(document("chaotentrumpf", *ended, {"game": GAME["chaotentrumpf"]},
                                                     {"end": {"reason": "agreed"}})).errors]
    assert messages == ["Die Partie ist entschieden (Anna hat gewonnen); weitere Spiele sind nicht möglich (Art. 17c).",
                        "Die Partie ist bereits entschieden (Art. 17c)."]


SHARED_RULES = Path("/work/shared/rules")


@pytest.mark.skipif(not SHARED_RULES.is_dir(), reason="the rule texts are not at hand")
def test_the_contents_are_those_of_the_rule_texts():
    regelwerk = (SHARED_RULES / "chaotentrumpf-regelwerk.txt").read_text(encoding="utf-8")
    for n, letters in ARTICLES.items():
        body = regelwerk.split(f"Artikel {n}:")[1].split(f"Artikel {n + 1}:")[0].split("1.3.2.")[0]
        assert [letter for letter in "abcdef" if f"\n{letter}.)" in body] == list(letters), n
    tcg = (SHARED_RULES / "doppelkopf-tcg-turnierregeln.txt").read_text(encoding="utf-8")
    assert all(heading in tcg for heading in TCG_SECTIONS.values())
    fft = (SHARED_RULES / "tarot-fft-regeln.txt").read_text(encoding="utf-8")
    assert all(heading in fft for heading in FFT_SECTIONS.values())
