"""Doppelkopf's words for the keys and values of its protocol entries (docs/doppelkopf.md)."""

from .game import PARTY_NAMES, TYPES
from .settings import RULES

FIELDS = {
    "type": "Spielart",
    "dealer": "Geber",
    "re": "Re",
    "re_points": "Augen Re",
    "schwarz": "schwarz",
    "announcements": "Ansagen",
    "extras": "Sonderpunkte",
    "revoke": "Verwurf",
    "rules": "Regeln",
    "doppelkopf": "Doppelkopf",
    "fuchs": "Fuchs gefangen",
    "karl": "Karlchen",
    "herzstich": "Herzstich",
}

VALUES = {**TYPES, **PARTY_NAMES, **RULES}
