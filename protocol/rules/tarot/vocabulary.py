"""Tarot's words for the keys and values of its protocol entries (docs/tarot.md)."""

from .scoring import CHELEM_NAMES, POIGNEE_NAMES

FIELDS = {
    "dealer": "Geber",
    "taker": "Spielnehmer",
    "contract": "Vertrag",
    "partner": "Partner",
    "oudlers": "Bouts",
    "points": "Punkte",
    "petit_au_bout": "Petit au bout",
    "poignees": "Poignées",
    "size": "Größe",
    "chelem": "Chelem",
    "null": "für null erklärt",
}

VALUES = {
    "prise": "Prise", "garde": "Garde", "garde_sans": "Garde sans", "garde_contre": "Garde contre",
    **CHELEM_NAMES,
    **POIGNEE_NAMES,
    "attack": "Angriff", "defence": "Verteidigung",
}
