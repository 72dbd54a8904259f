"""The deal form of French Tarot and the engine: dealer, taker, contract, the called partner
(five players), the attack's oudlers and card points (halves allowed), petit au bout, the
poignées ``p{seat}_poignee``, chelem, a deal declared null, the annulment
(protocol-format.md, "Tarot")."""

from __future__ import annotations

from typing import Any

from protocol.entry_form.values import annulment, filled, flag, half_points, integer
from protocol.games.tarot.rules.deal import PARTNER_PLAYERS
from protocol.games.tarot.rules.scoring import format_points

FIELDS = ("dealer", "taker", "contract", "partner", "oudlers", "points", "petit_au_bout", "chelem", "null",
          "annul_reason")
GROUPS = ("poignees",)  # errors of all the poignées together


def with_partner(players: list[str]) -> bool:
    """Only at a table of five the taker calls a king (the engine refuses a partner otherwise)."""
    return len(players) == PARTNER_PLAYERS


def body(fields: dict[str, Any], players: list[str], seats: list[str]) -> dict[str, Any]:
    """The deal in protocol/1 form."""
    result: dict[str, Any] = {
        "dealer": fields.get("dealer") or None,
        "taker": fields.get("taker") or None,
        "contract": fields.get("contract") or None,
        "partner": (fields.get("partner") or None) if with_partner(players) else None,
        "oudlers": integer(fields.get("oudlers")),
        "points": half_points(fields.get("points")),
        "petit_au_bout": fields.get("petit_au_bout") or None,
        "poignees": [{"player": player, "size": fields[f"p{seats.index(player)}_poignee"]}
                     for player in players if fields.get(f"p{seats.index(player)}_poignee")],
        "chelem": fields.get("chelem") or None,
        "null": flag(fields.get("null")),
    }
    return result | annulment(fields)


NOTED_FIELDS = ("dealer", "taker", "contract", "partner")  # may be noted beside the points alone (points.py)


def noted(fields: dict[str, Any], players: list[str], seats: list[str]) -> dict[str, Any]:
    """Beside the points alone (protocol/entry_form/points.py): the dealer, the taker, the
    contract and (five players) the partner, those noted."""
    found = {key: fields.get(key) for key in NOTED_FIELDS if key != "partner" or with_partner(players)}
    return {key: value for key, value in found.items() if value}


def initial(body: dict[str, Any], players: list[str], seats: list[str]) -> dict[str, Any]:
    """The fields of a stored deal (a correction starts filled)."""
    fields: dict[str, Any] = {key: body.get(key) for key in ("dealer", "taker", "contract", "partner",
                                                             "petit_au_bout", "chelem")}
    oudlers, points = body.get("oudlers"), body.get("points")
    fields["oudlers"] = str(oudlers) if oudlers is not None else ""
    fields["points"] = (str(format_points(points)) if isinstance(points, (int, float)) and not isinstance(points, bool)
                        else "")  # "40,5", in English "40.5" (both are read back)
    for poignee in body.get("poignees") or []:
        if isinstance(poignee, dict) and poignee.get("player") in seats:
            fields[f"p{seats.index(poignee['player'])}_poignee"] = poignee.get("size")
    fields["null"] = bool(body.get("null"))
    return fields


def field_for(error, fields: dict[str, Any], players: list[str], seats: list[str]) -> str | None:
    if error.field == "poignees" and error.player in players:
        return f"p{seats.index(error.player)}_poignee"
    if error.field == "partner" and not with_partner(players):
        return None
    return error.field if error.field in FIELDS + GROUPS else None


def slot_names(players: list[str], seats: list[str]) -> list[str]:
    # With four players nobody is called, the page has no partner slot (Règlement officiel).
    names = ["__all__", *(f for f in FIELDS if f != "partner" or with_partner(players)), *GROUPS]
    return names + [f"p{seats.index(p)}_poignee" for p in players]


def groups(players: list[str], seats: list[str]) -> dict[str, list[str]]:
    """The poignées together (no more than the 21 trumps and the Excuse): every player's marked."""
    return {"poignees": [f"p{seats.index(p)}_poignee" for p in players]}


def is_complete(fields: dict[str, Any], players: list[str], seats: list[str]) -> bool:
    """Enough typed for the engine to score the deal (the live preview waits till then)."""
    if not filled(fields.get("dealer")):
        return False
    if flag(fields.get("null")):
        return True
    return all(filled(fields.get(k)) for k in ("taker", "contract", "oudlers", "points"))
