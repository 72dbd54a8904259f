"""Protocol documents typed as points only, for the rules tests (no database): a full
document's Spiele turned into the points the engine scored them, and a generated
Chaotentrumpf Partie with a Stechen and a Strafe, as a paper sheet of 40 Spiele holds it."""

from __future__ import annotations

import copy
import random
from typing import Any

from protocol.games.chaotentrumpf.rules.cards import decks_for_players
from protocol.games.chaotentrumpf.rules.settings import LIMIT_MIN
from protocol.games.chaotentrumpf.simulation import simulate_game
from protocol.rules import RULESETS, evaluate

KEPT = {"chaotentrumpf": ("trump", "selection", "inversions"), "doppelkopf": ("dealer",),
        "tarot": ("dealer", "taker", "contract", "partner")}


def as_points(document: dict[str, Any], keep_facts: bool = False, every: int = 1) -> dict[str, Any]:
    """The document with every ``every``-th Spiel (of those with facts) recorded as the
    points the engine scored it; ``keep_facts``: with the facts a points-only body may note."""
    result = evaluate(document)
    assert result.ok, result.errors[:3]
    games = iter(result.match.games)
    converted = copy.deepcopy(document)
    seen = 0
    for event in converted["events"]:
        if "game" not in event:
            continue
        game, body = next(games), event["game"]
        if game.points is None or set(body) <= {"annulled", "annul_reason"}:
            continue
        seen += 1
        if (seen - 1) % every:
            continue
        players = body.get("results") or game.points
        points = {p: s for p, s in game.points.items() if p in players}
        new: dict[str, Any] = {"scores": points}
        if keep_facts:
            new |= {key: body[key] for key in KEPT[document["ruleset"]] if key in body}
        new |= {key: body[key] for key in ("annulled", "annul_reason") if key in body}
        event["game"] = new
    return converted


def outcome(document: dict[str, Any]) -> dict[str, Any]:
    """What points alone must keep: every total, the winner, the Stechen and how it ended."""
    result = RULESETS[document["ruleset"]].evaluate(document)
    assert result.ok, result.errors[:3]
    out = result.match.as_json()
    return {"totals": out["totals"], "winner": out["winner"], "status": out["status"],
            "ended_by": out["ended_by"], "tiebreaks": out.get("tiebreaks"),
            "games": [(g["number"], g.get("stage"), g.get("shuffler"), g["scores"], g["totals"], g["annulled"])
                      for g in out["games"]],
            "penalties": out["penalties"]}


def partie_with_stechen(seed: int, players: tuple[str, ...] = ("Anna", "Bernd", "Carla", "Dieter"),
                        spiele: int = 40) -> dict[str, Any] | None:
    """A generated Partie of ``spiele`` Spiele with a Strafe, whose Obergrenze is chosen so
    that two players exceed it in the same Spiel (Art. 17b), and the Stechen played out; None
    when this seed does not make one of exactly that length."""
    rng = random.Random(seed)
    players = list(players)
    decks, hand = decks_for_players(len(players)), 10
    events: list[dict[str, Any]] = [{"game": simulate_game(players, decks, hand, rng)} for _ in range(spiele)]
    events.insert(3, {"penalty": {"player": players[1], "points": 200, "reason": "Karte verdeckt getauscht",
                                  "decided_by": [p for p in players if p != players[1]]}})
    document = {"format": "protocol/1", "ruleset": "chaotentrumpf", "players": players, "scorekeeper": players[0],
                "settings": {"limit": 100_000}, "events": events}
    match = evaluate(document).match
    peak, cut = LIMIT_MIN, None
    for game in match.games:
        ranked = sorted(game.totals.values(), reverse=True)
        if ranked[1] > peak:
            cut = game
            break
        peak = max(peak, ranked[0])
    if cut is None or cut.number >= spiele:
        return None
    document["settings"] = {"limit": peak}  # Art. 17a: the two exceed it in the same Spiel
    document["events"] = events[: cut.event + 1]
    engine, problems = RULESETS["chaotentrumpf"].start(document)
    while len(engine.match.games) < spiele and engine.finish().status == "tiebreak":
        stage = engine.match.stages[-1]
        body = simulate_game(engine.match.next_players, min(decks, decks_for_players(len(stage.players))), hand, rng)
        document["events"].append({"game": body})
        engine.feed({"game": body})
    match = engine.finish()
    assert not problems, problems.errors[:3]
    return document if match.status == "finished" and len(match.games) == spiele else None
