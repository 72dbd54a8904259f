"""Tarot's words for the keys and values of its protocol entries (docs/tarot.md)."""

from protocol.rules.words import N_

from .scoring import CHELEM_NAMES, POIGNEE_NAMES

FIELDS = {
    "dealer": N_("Geber"),
    "taker": N_("Spielnehmer"),
    "contract": N_("Vertrag"),
    "partner": N_("Partner"),
    "oudlers": N_("Bouts"),
    "points": N_("Punkte"),
    "petit_au_bout": N_("Petit au bout"),
    "poignees": N_("Poignées"),
    "size": N_("Größe"),
    "chelem": N_("Chelem"),
    "null": N_("für null erklärt"),
}

VALUES = {
    "prise": N_("Prise"), "garde": N_("Garde"), "garde_sans": N_("Garde sans"), "garde_contre": N_("Garde contre"),
    **CHELEM_NAMES,
    **POIGNEE_NAMES,
    "attack": N_("Angriff"), "defence": N_("Verteidigung"),
}
