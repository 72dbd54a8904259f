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
_LAST = len(_RANK)  # a key the format page does not list: after the listed ones, by name


def in_format_order(value: Any, players: list[str] | None = None) -> Any:
    """The same data with object keys in the format's order (players in seating order)."""
    seat = {name: i for i, name in enumerate(players or [])}

    def rank(k):
        return (0, seat[k], "") if k in seat else (1, _RANK.get(k, _LAST), str(k))

    orders: dict[tuple, list] = {}  # the keys of a dict as it has them -> in the format's order

    # A Partie's document has some 3,000 values in dicts of a few shapes (a player's line, a
    # trump, the results by player): each shape is sorted once, and only a dict or a list is
    # walked into (a document of 60 Spiele was 2 ms to order, a third of a Spiel page).
    def ordered(value: Any) -> Any:
        if isinstance(value, dict):
            shape = tuple(value)
            keys = orders.get(shape)
            if keys is None:
                keys = orders[shape] = sorted(shape, key=rank)
            return {k: ordered(v) if isinstance(v := value[k], dict | list) else v for k in keys}
        if isinstance(value, list):
            return [ordered(v) if isinstance(v, dict | list) else v for v in value]
        return value

    return ordered(value)
