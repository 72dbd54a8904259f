"""The order a ``protocol/1`` document's keys are written in, as on the format page.

PostgreSQL's jsonb keeps no key order, so every document the site writes (an export, the
history's entries, the reading door's :func:`protocol.reading.document`) is put in this
order: the same Partie gives the same file. Pure Python (no Django import): the history's
sentences (``protocol.records.chronicle``) use it too.
"""

from __future__ import annotations

from typing import Any

KEY_ORDER = [
    # events and their bodies
    "game", "penalty", "warning", "disqualification", "end", "annul_match",
    # the games' bodies (their keys in the order of the format page)
    "type", "dealer", "re", "re_points", "schwarz", "announcements", "kontra", "extras",
    "doppelkopf", "fuchs", "karl", "herzstich", "revoke", "taker", "contract", "partner", "oudlers",
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
