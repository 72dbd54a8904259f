"""The game form of Doppelkopf and the engine: type, dealer, the Re party, Re's card points,
each party's highest announcement (the format's list is the prefix up to it), special
points per party, schwarz, a Verwurf, the annulment (protocol-format.md, "Doppelkopf")."""

from __future__ import annotations

from typing import Any

from protocol.entry_form.values import annulment, filled, integer, many
from protocol.games.doppelkopf.rules.game import ABSAGEN, PARTIES

EXTRA_KINDS = ("doppelkopf", "fuchs", "karl", "herzstich")
TCG_ONLY_EXTRAS = {"herzstich"}  # the engine refuses it under DDV rules
GROUPS = ("announcements", "extras")  # errors of a group of inputs go to a slot of its name
FIELDS = ("type", "dealer", "re", "re_points", "schwarz", "revoke", "annul_reason")


def extra_kinds(rules: str = "tcg") -> tuple[str, ...]:
    return tuple(k for k in EXTRA_KINDS if rules == "tcg" or k not in TCG_ONLY_EXTRAS)


def body(fields: dict[str, Any], players: list[str], seats: list[str], rules: str = "tcg") -> dict[str, Any]:
    """The game in protocol/1 form."""
    chosen = set(many(fields.get("re")))
    result: dict[str, Any] = {"type": fields.get("type") or "normal", "dealer": fields.get("dealer") or None,
                              "re": [p for p in players if p in chosen], "re_points": integer(fields.get("re_points"))}
    if fields.get("schwarz"):
        result["schwarz"] = fields["schwarz"]
    announcements = {}
    for party in PARTIES:
        level = integer(fields.get(f"{party}_announcement")) or 0
        if isinstance(level, int) and level:
            announcements[party] = [party, *ABSAGEN][:level]
    if announcements:
        result["announcements"] = announcements
    extras = {party: {kind: integer(fields.get(f"{party}_{kind}")) or 0 for kind in extra_kinds(rules)}
              for party in PARTIES}
    if any(n for counts in extras.values() for n in counts.values()):
        result["extras"] = extras
    if fields.get("revoke"):
        result["revoke"] = fields["revoke"]
    return result | annulment(fields)


NOTED_FIELDS = ("dealer",)  # the input of the fact noted beside the points alone (protocol/entry_form/points.py)


def noted(fields: dict[str, Any], players: list[str], seats: list[str], rules: str = "tcg") -> dict[str, Any]:
    """Beside the points alone (protocol/entry_form/points.py): the dealer, when noted (with
    five players the one who sat out)."""
    return {"dealer": fields["dealer"]} if fields.get("dealer") else {}


def initial(body: dict[str, Any], players: list[str], seats: list[str]) -> dict[str, Any]:
    """The fields of a stored game (a correction starts filled)."""
    fields: dict[str, Any] = {key: body.get(key) for key in ("type", "dealer", "re", "re_points", "schwarz", "revoke")}
    fields["re"] = list(body.get("re") or [])
    for party in PARTIES:
        said = (body.get("announcements") or {}).get(party) or []
        fields[f"{party}_announcement"] = str(len(said)) if said else ""
        for kind, count in ((body.get("extras") or {}).get(party) or {}).items():
            fields[f"{party}_{kind}"] = count or None
    return fields


def field_for(error, fields: dict[str, Any], players: list[str], seats: list[str], rules: str = "tcg") -> str | None:
    return error.field if error.field in FIELDS + GROUPS else None


def slot_names(players: list[str], seats: list[str], rules: str = "tcg") -> list[str]:
    counts = [f"{party}_{kind}" for kind in extra_kinds(rules) for party in PARTIES]
    return ["__all__", *FIELDS, *GROUPS, *counts]


def groups(players: list[str], seats: list[str], rules: str = "tcg") -> dict[str, list[str]]:
    """The inputs an error of a group marks: both parties' announcements, every special point
    (the engine checks their sums: two Füchse, one Karl, a Doppelkopf per trick)."""
    return {"announcements": [f"{party}_announcement" for party in PARTIES],
            "extras": [f"{party}_{kind}" for kind in extra_kinds(rules) for party in PARTIES]}


def is_complete(fields: dict[str, Any], players: list[str], seats: list[str], rules: str = "tcg") -> bool:
    """Enough typed for the engine to score the game (the live preview waits till then)."""
    return all(filled(fields.get(k)) for k in ("type", "dealer", "re_points")) and bool(many(fields.get("re")))


def options(settings: dict[str, Any]) -> dict[str, Any]:
    """The match's settings the fields read: the rule set the table plays (TCG or DDV)."""
    return {"rules": settings.get("rules") or "tcg"}
