"""The Spiel form of Chaotentrumpf and the engine: trump (directly ``level:value`` or by the
Trumpfwahl's revealed cards), inversions ``inv{j}_*`` (Art. 11), a line per player
``p{seat}_tricks|points|trumps`` (Art. 16) and the annulment (SV 4)."""

from __future__ import annotations

import re
from typing import Any

from protocol.entry_form.values import annulment, filled, flag, integer, text

LINE_FIELDS = ("tricks", "points", "trumps")
MAX_INVERSIONS = 10
INVERSION_FIELDS = ("player", "declared", "target", "card")


def trump_json(code: str) -> dict | None:
    """``"suit:Herz"`` -> ``{"level": "suit", "value": "Herz"}``; "" -> None."""
    level, _, value = (code or "").partition(":")
    return {"level": level, "value": value} if value else None


def trump_code(trump: dict | None) -> str:
    return f"{trump['level']}:{trump['value']}" if isinstance(trump, dict) and "level" in trump else ""


def body(fields: dict[str, Any], players: list[str], seats: list[str]) -> dict[str, Any]:
    """The Spiel in protocol/1 form."""
    result = _trump_and_inversions(fields)
    result["results"] = {player: {name: integer(fields.get(f"p{seats.index(player)}_{name}")) for name in LINE_FIELDS}
                         for player in players}
    return result | annulment(fields)


# The inputs of the facts noted beside the points alone (shown in that mode, protocol/entry_form/points.py).
NOTED_FIELDS = ("trump_mode", "trump", "selection_cards", "selection_agreed",
                *(f"inv{j}_{name}" for j in range(MAX_INVERSIONS) for name in INVERSION_FIELDS))


def noted(fields: dict[str, Any], players: list[str], seats: list[str]) -> dict[str, Any]:
    """Beside the points alone (protocol/entry_form/points.py): the trump, when it was noted
    (directly or by the Trumpfwahl), and the inversions (Art. 4a, 11)."""
    return {key: value for key, value in _trump_and_inversions(fields).items() if value is not None}


def _trump_and_inversions(fields: dict[str, Any]) -> dict[str, Any]:
    result: dict[str, Any] = {}
    cards_typed = text(fields.get("selection_cards"))
    if fields.get("trump_mode") == "selection" and cards_typed:
        cards = [c for c in re.split(r"[\s,;]+", cards_typed.upper()) if c]
        result["selection"] = {"cards": cards, "agreed": flag(fields.get("selection_agreed"))}
    else:
        result["trump"] = trump_json(fields.get("trump") or "")  # None: no trump chosen (the engine says so)
    inversions = []
    for j in range(MAX_INVERSIONS):
        player, declared, target = (fields.get(f"inv{j}_{n}") or "" for n in ("player", "declared", "target"))
        if not (player or declared or target):
            continue
        if target == "card":  # Art. 11b: a Total-Ultra to a single card
            target_json = {"level": "card", "value": text(fields.get(f"inv{j}_card")).upper()}
        else:
            target_json = trump_json(target)
        inversions.append({"player": player, "declared": declared, "target": target_json})
    if inversions:
        result["inversions"] = inversions
    return result


def initial(body: dict[str, Any], players: list[str], seats: list[str]) -> dict[str, Any]:
    """The fields of a stored Spiel (a correction starts filled)."""
    fields: dict[str, Any] = {"trump_mode": "direct", "trump": trump_code(body.get("trump"))}
    selection = body.get("selection")
    if selection:
        fields |= {"trump_mode": "selection", "selection_cards": " ".join(selection.get("cards", [])),
                   "selection_agreed": selection.get("agreed", False)}
    for j, inv in enumerate(body.get("inversions") or []):
        target = inv.get("target") or {}
        fields[f"inv{j}_player"] = inv.get("player")
        fields[f"inv{j}_declared"] = inv.get("declared")
        fields[f"inv{j}_target"] = "card" if target.get("level") == "card" else trump_code(target)
        if target.get("level") == "card":
            fields[f"inv{j}_card"] = target.get("value")
    for player in players:
        line = (body.get("results") or {}).get(player) or {}
        for name in LINE_FIELDS:
            fields[f"p{seats.index(player)}_{name}"] = line.get(name)
    return fields


def field_for(error, fields: dict[str, Any], players: list[str], seats: list[str]) -> str | None:
    """The input a RuleError marks: a player's line, the trump or the Trumpfwahl, an inversion,
    or a whole column (a sum over every line: the Stiche Art. 7, 10, the Augen Art. 13a, the
    Trümpfe Art. 3), whose inputs :func:`groups` names."""
    if error.player is None and error.field in LINE_FIELDS:
        return error.field
    if error.player in players and error.field in LINE_FIELDS:
        return f"p{seats.index(error.player)}_{error.field}"
    if error.player in players and error.field is None:
        return f"p{seats.index(error.player)}_tricks"
    if error.field == "trump":
        return "selection_cards" if fields.get("trump_mode") == "selection" else "trump"
    if error.field == "selection":
        return "selection_cards"
    if error.field == "inversions":
        for j in range(MAX_INVERSIONS):
            if error.player and fields.get(f"inv{j}_player") == error.player:
                return f"inv{j}_target"
    return "annul_reason" if error.field == "annul_reason" else None


def slot_names(players: list[str], seats: list[str]) -> list[str]:
    """The fields whose errors the page shows in a slot of their own (live preview)."""
    names = ["__all__", "trump", "selection_cards", "annul_reason", *LINE_FIELDS]
    names += [f"p{seats.index(p)}_{n}" for p in players for n in LINE_FIELDS]
    return names + [f"inv{j}_{n}" for j in range(MAX_INVERSIONS) for n in INVERSION_FIELDS]


def groups(players: list[str], seats: list[str]) -> dict[str, list[str]]:
    """The columns of the lines: an error of a column (its sum) marks every player's input in it."""
    return {name: [f"p{seats.index(p)}_{name}" for p in players] for name in LINE_FIELDS}


def is_complete(fields: dict[str, Any], players: list[str], seats: list[str]) -> bool:
    """Every tricks, points and trumps field filled: the engine can score the Spiel."""
    return all(filled(fields.get(f"p{seats.index(p)}_{n}")) for p in players for n in LINE_FIELDS)


# -- the Partie's facts the entry page shows (protocol/entry_form/state.py) -----------------------

def next_dealer(match) -> str | None:
    return match.next_shuffler  # Art. 5b: the engine knows the Mischer


def is_open(match) -> bool:
    return match.current_stage is not None


def next_players(match) -> list[str]:
    return match.next_players  # Art. 17b: a Stechen plays only the tied players
