"""Deals that a real table could have played, for the demo club, tests and the benchmark.

Pure Python on top of the rules package. A simulated Spiel shuffles real Blätter, deals the
hands, turns cards for the Trumpfwahl (Art. 8, 9), sometimes inverts (Art. 11), then shares
the played cards out into Stiche. The lines it writes are what a Protokollant would enter,
so the engine must accept every one of them.
"""

from __future__ import annotations

import random
from typing import Any

from protocol.games.chaotentrumpf.rules import RULESET as CHAOTENTRUMPF
from protocol.games.chaotentrumpf.rules.cards import deck, decks_for_players
from protocol.games.chaotentrumpf.rules.inversion import KINDS, reaches, recognised_kind
from protocol.games.chaotentrumpf.rules.trump import LEVEL_VALUES, Trump, ends_selection, feature, level_after
from protocol.rules.envelope import MAX_EVENTS

ALL_TRUMPS = [Trump(level, value) for level, values in LEVEL_VALUES.items() for value in values]


def simulate_game(players: list[str], decks: int, hand: int, rng: random.Random,
                  inversion_rate: float = 0.15, agree_rate: float = 0.3) -> dict[str, Any]:
    """One Spiel as the ``game`` body of a protocol document."""
    stack = deck() * decks
    rng.shuffle(stack)
    n = len(players)
    played, rest = stack[: n * hand], stack[n * hand:]
    revealed = [rest.pop()]
    agreed = False
    while True:  # Art. 9b-f
        if rng.random() < agree_rate or not rest:
            agreed = True
            trump = feature(revealed[-1], level_after(len(revealed)))
            break
        card = rest.pop()
        if ends_selection(revealed[-1], card):
            trump = feature(revealed[-1], level_after(len(revealed)))
            revealed.append(card)
            break
        revealed.append(card)
    selected, inversions = trump, []
    strongest = 0
    for player in players:
        if rng.random() >= inversion_rate:
            continue
        kinds = [k for k in KINDS if KINDS.index(k) >= strongest] or ["totalultra"]
        declared = rng.choice(kinds)
        targets = [t for t in ALL_TRUMPS if t != trump and reaches(declared, trump, t)]
        if declared == "totalultra" and rng.random() < 0.3:
            targets = [Trump("card", rng.choice(played).code)]
        targets = [t for t in targets if t != trump]
        if not targets:
            continue
        target = rng.choice(targets)
        recognised = recognised_kind(declared, trump, target)
        if recognised in ("ultra", "totalultra"):
            strongest = max(strongest, KINDS.index(recognised))
        inversions.append({"player": player, "declared": declared, "target": target.as_json()})
        trump = target
    rng.shuffle(played)
    lines = {p: {"tricks": 0, "points": 0, "trumps": 0} for p in players}
    weights = [rng.uniform(0.5, 2.0) for _ in players]
    for t in range(hand):
        trick = played[t * n:(t + 1) * n]
        winner = rng.choices(players, weights)[0]
        lines[winner]["tricks"] += 1
        lines[winner]["points"] += sum(c.points for c in trick)
        lines[winner]["trumps"] += sum(1 for c in trick if trump.contains(c))
    game: dict[str, Any] = {
        "selection": {"cards": [c.code for c in revealed], "agreed": agreed},
        "trump": selected.as_json(),
    }
    if inversions:
        game["inversions"] = inversions
    game["results"] = lines
    return game


def simulate_match(players: list[str], rng: random.Random, *, scorekeeper: str | None = None,
                   settings: dict | None = None, max_events: int = MAX_EVENTS,
                   penalty_rate: float = 0.03, warning_rate: float = 0.03,
                   annul_rate: float = 0.02, disqualify_rate: float = 0.0,
                   stop_after: int | None = None, **envelope: Any) -> dict[str, Any]:
    """A whole Partie until it is decided (or ``stop_after`` events for a running one)."""
    doc: dict[str, Any] = {
        "format": "protocol/1", "ruleset": "chaotentrumpf", **envelope,
        "players": list(players), "scorekeeper": scorekeeper or players[0],
        "settings": dict(settings or {}), "events": [],
    }
    feeder, problems = CHAOTENTRUMPF.start(doc)
    if feeder is None:
        raise ValueError(f"settings rejected: {problems.errors[:3]}")
    events = doc["events"]
    while len(events) < max_events and (stop_after is None or len(events) < stop_after):
        match = feeder.finish()
        if match.status in ("finished", "annulled"):
            break
        active = match.next_players
        roll = rng.random()
        if roll < penalty_rate:
            accused = rng.choice(active)
            event = {"penalty": {
                "player": accused, "points": rng.choice([100, 100, 200, 300, 500]),
                "reason": rng.choice(["Karte verdeckt getauscht", "nicht bedient", "zu früh ausgespielt"]),
                "decided_by": [p for p in players if p != accused and p not in match.disqualified]}}
        elif roll < penalty_rate + warning_rate:
            event = {"warning": {"player": rng.choice(active), "reason": "Flüchtigkeitsfehler, sofort bemerkt"}}
        elif roll < penalty_rate + warning_rate + disqualify_rate and len(active) > 2:
            event = {"disqualification": {"player": rng.choice(active), "reason": "wiederholtes Falschspiel"}}
        else:
            decks = match.settings.decks
            if match.current_stage.depth:
                decks = min(decks, decks_for_players(len(match.current_stage.players)))
            game = simulate_game(active, decks, match.settings.hand, rng)
            if rng.random() < annul_rate:
                game["annulled"] = True
                game["annul_reason"] = "Karten falsch ausgeteilt"
            event = {"game": game}
        events.append(event)
        feeder.feed(event)
        if problems:  # pragma: no cover - a simulated deal is always valid
            raise AssertionError(f"simulated protocol rejected: {problems.errors[:3]}")
    return doc
