"""Reading ``protocol/1`` files: the bytes on disk -> a document -> the rules' evaluation.

Pure Python (no database): the check command, the importer and ``render_sheet`` share it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from protocol.rules import Evaluation, evaluate
from protocol.rules.text import normalise_strings


class UnreadableProtocol(Exception):
    """The file can't be read or is not JSON (the check's exit 2). The message is German."""


def load_document(path: str | Path) -> Any:
    try:
        raw = Path(path).read_bytes()
    except OSError as exc:
        raise UnreadableProtocol(f"Die Datei {path} kann nicht gelesen werden: {exc.strerror or exc}.") from exc
    return parse_document(raw, str(path))


def parse_document(raw: bytes, name: str = "Die Datei") -> Any:
    """The JSON document of the file, every text in NFC (protocol.rules.text)."""
    try:
        return normalise_strings(json.loads(raw.decode("utf-8")))
    except UnicodeDecodeError as exc:
        raise UnreadableProtocol(f"{name} ist kein UTF-8-Text.") from exc
    except json.JSONDecodeError as exc:
        raise UnreadableProtocol(
            f"{name} ist kein gültiges JSON (Zeile {exc.lineno}, Spalte {exc.colno}: {exc.msg}).") from exc
    except RecursionError as exc:
        raise UnreadableProtocol(f"{name} ist zu tief verschachtelt.") from exc


def check_document(document: Any) -> Evaluation:
    return evaluate(document)


def dumps(payload: Any) -> str:
    return json.dumps(payload, ensure_ascii=False, indent=2)


# The order keys are written in, as on the format page. PostgreSQL's jsonb keeps no key
# order, so every export is put in this order: the same Partie gives the same file.
KEY_ORDER = [
    # events and their bodies
    "game", "penalty", "warning", "disqualification", "end", "annul_match",
    # Doppelkopf and Tarot games (their keys in the order of the format page)
    "type", "dealer", "re", "re_points", "schwarz", "announcements", "kontra", "extras",
    "doppelkopf", "fuchs", "karl", "herzstich", "revoke", "taker", "contract", "partner", "oudlers",
    # Chaotentrumpf games
    "selection", "cards", "agreed", "trump", "level", "value", "inversions", "declared", "target",
    "results", "tricks", "points", "trumps", "petit_au_bout", "poignees", "chelem", "null",
    "annulled", "annul_reason",
    "player", "size", "reason", "decided_by",
    # settings
    "limit", "cards_per_deal", "decks", "no_trump_points", "no_trick_points",
    "scorekeeper_skips_shuffling", "max_games", "rules",
]
_RANK = {key: i for i, key in enumerate(KEY_ORDER)}


def in_format_order(value: Any, players: list[str] | None = None) -> Any:
    """The same data with object keys in the format's order (players in seating order)."""
    if isinstance(value, dict):
        seat = {name: i for i, name in enumerate(players or [])}

        def key(k):
            if k in seat:
                return (0, seat[k], "")
            return (1, _RANK.get(k, len(_RANK)), str(k))
        return {k: in_format_order(value[k], players) for k in sorted(value, key=key)}
    if isinstance(value, list):
        return [in_format_order(v, players) for v in value]
    return value
