"""The Zählspiel's entry form and the engine: who dealt, one number per player, ``p{seat}_points``."""

from __future__ import annotations

from typing import Any

from protocol.entry_form.values import annulment, filled, integer


def field_name(player: str, seats: list[str]) -> str:
    return f"p{seats.index(player)}_points"


def body(fields: dict[str, Any], players: list[str], seats: list[str]) -> dict[str, Any]:
    return {"dealer": fields.get("dealer") or None,
            "points": {player: integer(fields.get(field_name(player, seats))) for player in players}} | annulment(fields)


def initial(body: dict[str, Any], players: list[str], seats: list[str]) -> dict[str, Any]:
    points = body.get("points") if isinstance(body.get("points"), dict) else {}
    return {"dealer": body.get("dealer")} | {
        field_name(player, seats): str(points[player]) for player in players if points.get(player) is not None}


def field_for(error, fields: dict[str, Any], players: list[str], seats: list[str]) -> str | None:
    if error.field == "points" and error.player in players:
        return field_name(error.player, seats)
    return error.field if error.field in ("points", "dealer") else None


def slot_names(players: list[str], seats: list[str]) -> list[str]:
    return ["__all__", "dealer", "points", *(field_name(player, seats) for player in players)]


def groups(players: list[str], seats: list[str]) -> dict[str, list[str]]:
    return {"points": [field_name(player, seats) for player in players]}


def is_complete(fields: dict[str, Any], players: list[str], seats: list[str]) -> bool:
    return all(filled(fields.get(field_name(player, seats))) for player in players)
