"""Doppelkopf's words for the keys and values of its protocol entries (docs/doppelkopf.md)."""

from protocol.rules.words import N_

from .game import PARTY_NAMES, TYPES
from .settings import RULES

FIELDS = {
    "type": N_("Spielart"),
    "dealer": N_("Geber"),
    "re": N_("Re"),
    "re_points": N_("Augen Re"),
    "schwarz": N_("schwarz"),
    "announcements": N_("Ansagen"),
    "extras": N_("Sonderpunkte"),
    "revoke": N_("Verwurf"),
    "rules": N_("Regeln"),
    "doppelkopf": N_("Doppelkopf"),
    "fuchs": N_("Fuchs gefangen"),
    "karl": N_("Karlchen"),
    "herzstich": N_("Herzstich"),
}

VALUES = {**TYPES, **PARTY_NAMES, **RULES}
