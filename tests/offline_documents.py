"""Protocol documents of all three games for the browser/server equivalence (the offline pack) and the
offline bench: the test data, simulated Chaotentrumpf Partien, and Doppelkopf and Tarot
Partien grown from random deals (a candidate event is kept when the engine accepts it), each
also spoiled once at its end so that answers with errors (and their articles) are compared too;
and the same Partien typed as points only (docs/protocol-format.md, "scores"), whole or mixed
with full Spiele, with points the rules can't produce appended so that those refusals are
compared too. Deterministic: fixed seeds.
"""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

from protocol.games.chaotentrumpf.simulation import simulate_match
from protocol.rules import evaluate
from tests.unit.points_only_documents import as_points

DATA = Path(__file__).resolve().parent / "data"
NAMES = ["Anna", "Bernd", "Carla", "Dieter", "Erika"]


def data_documents() -> list[tuple[str, Any]]:
    found = []
    for path in sorted(DATA.glob("*.json")):
        try:
            found.append((path.name, json.loads(path.read_text(encoding="utf-8"))))
        except ValueError:  # not-json.json: the command's exit 2, no document
            continue
    return found


def chaotentrumpf_documents(count: int = 6) -> list[tuple[str, Any]]:
    found = []
    for seed in range(count):
        rng = random.Random(seed)
        players = NAMES[: 3 + seed % 3]
        stop = None if seed % 2 else 8 + seed  # some decided, some still running
        document = simulate_match(players, rng, stop_after=stop, penalty_rate=0.08, warning_rate=0.05)
        found.append((f"chaotentrumpf-{seed}", document))
    return found


def doppelkopf_deal(players: list[str], rng: random.Random) -> dict[str, Any]:
    dealer = rng.choice(players)
    at_table = [p for p in players if p != dealer] if len(players) == 5 else players
    kind = rng.choice(["normal", "normal", "normal", "solo_damen", "solo_trumpf"])
    re = rng.sample(at_table, 1 if kind.startswith("solo") else 2)
    body: dict[str, Any] = {"type": kind, "dealer": dealer, "re": re, "re_points": rng.randint(0, 240)}
    if rng.random() < 0.3:
        body["announcements"] = {"re": ["re", "keine 90"][: rng.randint(1, 2)]}
    return {"game": body}


def tarot_deal(players: list[str], rng: random.Random) -> dict[str, Any]:
    taker = rng.choice(players)
    partner = rng.choice([None, *[p for p in players if p != taker]]) if len(players) == 5 else None
    oudlers = rng.randint(0, 3)
    body = {"dealer": rng.choice(players), "taker": taker, "partner": partner,
            "contract": rng.choice(["prise", "garde", "garde_sans", "garde_contre"]),
            "oudlers": oudlers, "points": rng.randint(9 * oudlers * 2, 2 * (91 - 9 * (3 - oudlers))) / 2,
            "petit_au_bout": rng.choice([None, None, "attack" if oudlers else None]),
            "poignees": [{"player": taker, "size": "simple"}] if rng.random() < 0.2 else [],
            "chelem": None, "null": False}
    return {"game": body}


def penalty(players: list[str], rng: random.Random, points: int) -> dict[str, Any]:
    return {"penalty": {"player": rng.choice(players), "points": points, "reason": "Karten gezeigt"}}


def grown(ruleset: str, players: list[str], rng: random.Random, deal, penalty_points: int,
          events: int, settings: dict | None = None) -> dict[str, Any]:
    """A Partie of ``events`` events: random candidates, each kept if the engine accepts it."""
    document = {"format": "protocol/1", "ruleset": ruleset, "players": players,
                "scorekeeper": players[0], "events": []}
    if settings is not None:
        document["settings"] = settings
    for _ in range(events):
        for _attempt in range(60):
            event = penalty(players, rng, penalty_points) if rng.random() < 0.1 else deal(players, rng)
            document["events"].append(event)
            if evaluate(document).ok:
                break
            document["events"].pop()
    if rng.random() < 0.5:  # some Partien ended by agreement (and their winner computed)
        document["events"].append({"end": {"reason": "agreed"}})
    return document


def doppelkopf_documents(count: int = 4) -> list[tuple[str, Any]]:
    return [(f"doppelkopf-{seed}", grown("doppelkopf", NAMES[: 4 + seed % 2], random.Random(seed), doppelkopf_deal,
                                          5, 10, {"rules": ["tcg", "ddv"][seed % 2]}))
            for seed in range(count)]


def tarot_documents(count: int = 4) -> list[tuple[str, Any]]:
    return [(f"tarot-{seed}", grown("tarot", NAMES[: 3 + seed % 3], random.Random(seed), tarot_deal, 10, 10))
            for seed in range(count)]


def spoiled(name: str, document: dict[str, Any]) -> tuple[str, Any]:
    """The document with its last Spiel broken (a rule error, with its article)."""
    broken = copy.deepcopy(document)
    game = [e for e in broken["events"] if "game" in e][-1]["game"]
    if broken["ruleset"] == "chaotentrumpf":
        line = next(iter(game["results"].values()))
        line.update(tricks=0, points=line["points"] or 10)  # Augen without a Stich (Art. 13a)
    elif broken["ruleset"] == "doppelkopf":
        game["re_points"] = 250
    else:
        game["oudlers"] = 4
    return f"{name}-spoiled", broken


# Points no Spiel of the game can give, for the Partie's first players (refused with the rule's article):
# Chaotentrumpf: everyone at "kein Stich" (-200), though a Spiel's Stiche are someone's (Art. 7, 10, 16a);
# Doppelkopf (TCG 6 / DDV 7.2) and Tarot: scores that do not add up to zero.
IMPOSSIBLE = {"chaotentrumpf": lambda players: dict.fromkeys(players, -200),
              "doppelkopf": lambda players: {p: 2 if i < 2 else -1 for i, p in enumerate(players)},
              "tarot": lambda players: {p: 31 if i == 0 else -10 for i, p in enumerate(players)}}


def impossible_points(name: str, document: dict[str, Any]) -> tuple[str, Any]:
    """The document with a Spiel of points its rules can't produce appended."""
    broken = copy.deepcopy(document)
    players = evaluate(document).match.next_players if broken["ruleset"] == "chaotentrumpf" else broken["players"]
    broken["events"].append({"game": {"scores": IMPOSSIBLE[broken["ruleset"]](players)}})
    return f"{name}-impossible", broken


def points_only_documents(generated: list[tuple[str, Any]]) -> list[tuple[str, Any]]:
    """Each generated Partie typed as points only: every Spiel (with the facts a points-only
    body may note), every other one (mixed with full Spiele), and with impossible points appended."""
    found = []
    for name, document in generated:
        if not evaluate(document).ok:
            continue
        found += [(f"{name}-points", as_points(document, keep_facts=True)),
                  (f"{name}-mixed", as_points(document, every=2))]
        if evaluate(document).match.status in ("running", "tiebreak"):
            found.append(impossible_points(f"{name}-points", as_points(document)))
    return found


def all_documents() -> list[tuple[str, Any]]:
    generated = chaotentrumpf_documents() + doppelkopf_documents() + tarot_documents()
    return (data_documents() + generated + [spoiled(name, document) for name, document in generated]
            + points_only_documents(generated))
