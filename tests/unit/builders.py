"""Small builders for protocol documents in the rules tests (no database)."""

from __future__ import annotations

from typing import Any

from protocol.rules import evaluate

PLAYERS = ["Anna", "Bernd", "Carla", "Dieter"]


def document(events=(), players=None, scorekeeper=None, **settings) -> dict[str, Any]:
    players = list(players or PLAYERS)
    return {
        "format": "protocol/1",
        "ruleset": "chaotentrumpf",
        "players": players,
        "scorekeeper": scorekeeper or players[0],
        "settings": settings,
        "events": list(events),
    }


def game(results: dict[str, tuple[int, int, int]], trump=("suit", "Pik"), **extra) -> dict:
    body: dict[str, Any] = {
        "results": {p: {"tricks": t, "points": a, "trumps": tr} for p, (t, a, tr) in results.items()},
    }
    if trump is not None:
        body["trump"] = {"level": trump[0], "value": trump[1]}
    body.update(extra)
    return {"game": body}


def quiet(players=None, **extra) -> dict:
    """A Spiel nobody wins much in: red trump, four way tie on one trump each (+1 each)."""
    players = players or PLAYERS
    tricks = {4: [3, 3, 2, 2], 3: [4, 3, 3], 2: [5, 5], 5: [2, 2, 2, 2, 2]}[len(players)]
    return game({p: (t, 10 * t, 1) for p, t in zip(players, tricks)}, trump=("colour", "rot"), **extra)


def twins(a="Anna", b="Bernd", others=("Carla", "Dieter")) -> dict:
    """Two players share the Trumpfwertung on rank As: 156 Augen x 2 = 312 each (16c)."""
    results = {a: (5, 156, 6), b: (5, 156, 6)} | {p: (0, 0, 0) for p in others}
    return game(results, trump=("rank", "A"))


def sweep(player="Anna", others=("Bernd", "Carla", "Dieter")) -> dict:
    """One player takes every Stich of a four-player Spiel with all twelve Asse: 312 x 4."""
    return game({player: (10, 312, 12)} | {p: (0, 0, 0) for p in others}, trump=("rank", "A"))


def check(doc):
    """Evaluate; return (match, errors)."""
    result = evaluate(doc)
    return result.match, result.errors


def messages(errors) -> str:
    return " | ".join(e.message for e in errors)
