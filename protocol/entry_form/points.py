"""The entry form's "points only" mode, the same for every game whose rules take a Spiel
recorded as the points per player (protocol/rules/scores.py): one points input per player
of the Spiel, ``p{seat}_score``, beside the facts the game lets note with them.

A game offers the mode when its entry mapping names those facts: ``noted(fields, players,
seats, **options)``, the part of the body they make (Chaotentrumpf the trump and the
inversions, Doppelkopf the dealer, Tarot the dealer, taker, contract and partner), and
``NOTED_FIELDS``, their inputs (the page shows them in this mode, hides the others). A game
without it (one whose Spiel is points by nature) has no switch. Pure Python: the offline
entry page runs the same code (protocol/entry_form/__init__.py dispatches on the switch).
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

from protocol.rules.scores import SCORES

from .values import annulment, filled, flag, integer

SWITCH = "points_only"  # the switch's field: on, the Spiel is recorded as points only
GROUP = SCORES  # an error of the scores as a whole (their sum) sits here and marks every points input


def offered(mapping: ModuleType) -> bool:
    """Does the game's entry mapping offer the mode (it names the facts noted beside the points)?"""
    return callable(getattr(mapping, "noted", None))


def chosen(mapping: ModuleType, fields: dict[str, Any]) -> bool:
    """The switch is on, for a game that offers the mode."""
    return offered(mapping) and flag(fields.get(SWITCH))


def recorded(body: Any) -> bool:
    """Was this Spiel recorded as points only (its ``scores``)?"""
    return isinstance(body, dict) and SCORES in body


def remembered(match) -> bool:
    """The mode the next Spiel's form opens in: the mode of the Partie's last recorded Spiel
    (the user switches back at any time; a Partie may mix both)."""
    games = [event["game"] for event in match.envelope.events if isinstance(event, dict) and "game" in event]
    return bool(games) and recorded(games[-1])


def kept_fields(mapping: ModuleType, players: list[str], seats: list[str]) -> set[str]:
    """The inputs this mode reads: the points, the noted facts' and the annulment's."""
    return {*field_names(players, seats), *getattr(mapping, "NOTED_FIELDS", ()), GROUP, SWITCH,
            "annulled", "annul_reason"}


def field_name(player: str, seats: list[str]) -> str:
    return f"p{seats.index(player)}_score"


def field_names(players: list[str], seats: list[str]) -> list[str]:
    return [field_name(player, seats) for player in players]


def body(mapping: ModuleType, fields: dict[str, Any], players: list[str], seats: list[str],
         **options: Any) -> dict[str, Any]:
    """The Spiel in protocol/1 form: ``{"scores": {player: points}}`` with the facts noted.
    A player without points typed is left out (the engine names him)."""
    scores = {player: integer(fields.get(field_name(player, seats))) for player in players
              if filled(fields.get(field_name(player, seats)))}
    return {SCORES: scores} | mapping.noted(fields, players, seats, **options) | annulment(fields)


def initial(mapping: ModuleType, body: dict[str, Any], players: list[str], seats: list[str]) -> dict[str, Any]:
    """The fields of a Spiel recorded as points only (a correction opens in this mode, filled)."""
    scores = body.get(SCORES) if isinstance(body.get(SCORES), dict) else {}
    return mapping.initial(body, players, seats) | {SWITCH: True} | {
        field_name(player, seats): str(scores[player]) for player in players if scores.get(player) is not None}


def field_for(mapping: ModuleType, error, fields: dict[str, Any], players: list[str], seats: list[str],
              **options: Any) -> str | None:
    """A player's points input, the points as a whole, or a noted fact's input (the game's);
    an input this mode hides is never named (the message goes to the form's top)."""
    if error.field == SCORES:
        return field_name(error.player, seats) if error.player in players else GROUP
    found = mapping.field_for(error, fields, players, seats, **options)
    return found if found in kept_fields(mapping, players, seats) else None


def slot_names(players: list[str], seats: list[str]) -> list[str]:
    return [GROUP, *field_names(players, seats)]


def groups(players: list[str], seats: list[str]) -> dict[str, list[str]]:
    return {GROUP: field_names(players, seats)}


def is_complete(fields: dict[str, Any], players: list[str], seats: list[str]) -> bool:
    """Points typed for every player of the Spiel: the engine can check them."""
    return all(filled(fields.get(field_name(player, seats))) for player in players)
