"""Typed values as the forms read them, for the browser's raw form data (the Django forms
hand over values they already cleaned, which pass unchanged)."""

from __future__ import annotations

import re
from typing import Any

NUMBER = re.compile(r"^-?\d+(?:[.,]\d+)?$")
TRUE = ("on", "true", "1", "yes")


def integer(value: Any) -> Any:
    """``"12"`` -> 12, ``""`` -> None; anything else unchanged (the engine names what is wrong)."""
    if isinstance(value, str):
        text = value.strip()
        if not text:
            return None
        return int(text) if re.fullmatch(r"-?\d+", text) else text
    return value


def half_points(value: Any) -> Any:
    """Card points with halves as typed: "49", "40,5", "40.5" -> 49, 40.5; "" -> None."""
    if isinstance(value, str):
        text = value.strip()
        if not text:
            return None
        if len(text) > 10 or not NUMBER.match(text):
            return text
        number = float(text.replace(",", "."))
        return int(number) if number.is_integer() else number
    return value


def flag(value: Any) -> bool:
    """A checkbox: True, or the browser's "on"."""
    if isinstance(value, str):
        return value.strip().lower() in TRUE
    return bool(value)


def text(value: Any) -> str:
    return value.strip() if isinstance(value, str) else ""


def many(value: Any) -> list:
    """A multiple choice: a list (one value typed alone counts as a list of one)."""
    if value in (None, ""):
        return []
    return list(value) if isinstance(value, (list, tuple)) else [value]


def annulment(fields: dict[str, Any]) -> dict[str, Any]:
    """The annulment's part of a game body (nothing if the game counts; SV 4)."""
    if not flag(fields.get("annulled")):
        return {}
    return {"annulled": True, "annul_reason": text(fields.get("annul_reason"))}


def filled(value: Any) -> bool:
    """Something typed (0 counts)."""
    return value is not None and str(value).strip() != ""
