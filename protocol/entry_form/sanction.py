"""The form of a Strafe, Verwarnung or Disqualifikation and the engine: ``kind`` (penalty |
warning | disqualification), ``player``, ``points`` (a Strafe only), ``reason``,
``decided_by`` (a Strafe or Disqualifikation: the other players, Chaotentrumpf SV 3)."""

from __future__ import annotations

from typing import Any

from .values import integer, many, text

KINDS = ("penalty", "warning", "disqualification")
FIELDS = ("kind", "player", "points", "reason", "decided_by")


def event(fields: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """(kind, body) of the entry."""
    kind = fields.get("kind") or "penalty"
    body: dict[str, Any] = {"player": fields.get("player") or None, "reason": text(fields.get("reason"))}
    if kind == "penalty":
        body["points"] = integer(fields.get("points"))
    if kind in ("penalty", "disqualification"):
        body["decided_by"] = many(fields.get("decided_by"))
    return kind, body


def initial(kind: str, body: dict[str, Any]) -> dict[str, Any]:
    return {"kind": kind, "player": body.get("player"), "points": body.get("points"),
            "reason": body.get("reason"), "decided_by": body.get("decided_by", [])}


def field_for(error) -> str | None:
    return error.field if error.field in FIELDS else None
