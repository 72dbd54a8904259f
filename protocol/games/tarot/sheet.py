"""The FFT Kontrollblatt (feuille de marque) of a Tarot table, as PDF bytes.

FFT-Regeln, "Nord Spieler": North keeps the sheet under the control of South, East and
West; he writes the table number, the name and number of each of the four players and the
scores he computes, and hands the sheet in at the control table after each position.
So the sheet shows, A4 landscape: the table number and the position, the players in the
order North, East, South, West (North = the match's scorekeeper, the others clockwise from
him) with their numbers, one row per deal (dealer, taker, contract, partner at a table of
five, oudlers, points, made or failed by how much, D, each player's score and running
total, the engine's explanation), null deals marked, the totals and the signature boxes
of all players. Without ``table``, ``position`` or ``numbers`` their boxes stay empty to be
written in. ``render_blank`` prints the empty Kontrollblatt of a position.

The deal's facts are read back with the engine's own ``read_deal`` (made or failed, by how
much); the scores and D are the engine's output.
"""

from __future__ import annotations

import datetime
from typing import Any

from django.template.loader import render_to_string
from django.utils.translation import gettext as _

from protocol.games.tarot.rules import MAX_PLAYERS, MIN_PLAYERS
from protocol.games.tarot.rules.deal import PARTNER_PLAYERS, read_deal
from protocol.games.tarot.rules.scoring import (
    BASE,
    CHELEM_BONUS,
    CHELEM_NAMES,
    CONTRACT_NAMES,
    CONTRACTS,
    NEEDED,
    PETIT_AU_BOUT,
    POIGNEE_BONUS,
    POIGNEE_NAMES,
    POIGNEE_TRUMPS,
    format_points,
)
from protocol.games.tarot.rules.tournament import TABLE_PLAYERS
from protocol.rules.scores import POINTS_ONLY
from protocol.rules.tally import ANNUL_KEYS, TallyGame, TallyMatch
from protocol.rules.vocabulary import number, signed
from protocol.sheet.lists import blank_names, blank_widths, list_page, list_widths
from protocol.sheet.page import blank_page, match_page
from protocol.sheet.printing import colour, html_to_pdf

COMPASS = ("north", "east", "south", "west")  # clockwise, North first
FIXED_MM = {"number": 7, "dealer": 16, "taker": 18, "contract": 18, "partner": 16, "oudlers": 10,
            "points": 14, "result": 22, "defender_score": 11}
PLAYER_MM = 20
NOTES_MAX_MM = 100
BLANK_PLAYER_MM = 27
BLANK_DEALS, BLANK_MAX_DEALS, BLANK_MAX_POSITIONS = 4, 30, 10


def render(match: TallyMatch, *, printed_at: datetime.datetime | None = None, table: int | str | None = None,
           position: int | str | None = None, numbers: dict[str, int | str] | None = None,
           confirmations: dict[str, str] | None = None, check: dict | None = None) -> bytes:
    """The Kontrollblatt of a Tarot match (a table's position, or any evening) as PDF bytes;
    ``confirmations``: player -> when he confirmed the result in the app (in his signature box);
    ``check``: the check code of a stored match and its QR code (protocol/sheet/check.py)."""
    context = sheet_context(match, printed_at, table=table, position=position, numbers=numbers,
                            confirmations=confirmations, check=check)
    return html_to_pdf(render_to_string("tarot/print.html", context))


def compass_seats(players: list[str], north: str | None) -> list[dict[str, Any]]:
    """The players clockwise from North (the scorekeeper), each with his compass point.

    At a table of five the fifth sits between West and North; at a table of three the West
    side stays empty. ``seat`` is the player's place in the match's seating order.
    """
    start = players.index(north) if north in players else 0
    names = {"north": _("North"), "east": _("East"), "south": _("South"), "west": _("West")}
    seats = []
    for k in range(len(players)):
        seat = (start + k) % len(players)
        key = COMPASS[k] if k < len(COMPASS) else "fifth"
        label = names[key] if key in names else _("Seat %(n)s") % {"n": k + 1}
        seats.append({"key": key, "label": label, "short": label[0] if key in names else str(k + 1),
                      "name": players[seat], "seat": seat, "colour": colour(seat), "north": k == 0})
    return seats


def sheet_context(match: TallyMatch, printed_at: datetime.datetime | None = None, *,
                  table: int | str | None = None, position: int | str | None = None,
                  numbers: dict[str, int | str] | None = None,
                  confirmations: dict[str, str] | None = None, check: dict | None = None) -> dict[str, Any]:
    """protocol.sheet.page's keys, ``seats`` North first (:func:`compass_seats`, each with his
    number and confirmation, in his signature box), and the Kontrollblatt's own."""
    numbers, confirmations = numbers or {}, confirmations or {}
    seats = compass_seats(match.players, match.envelope.scorekeeper)
    for seat in seats:
        seat.update(number=_text(numbers.get(seat["name"])), winner=seat["name"] == match.winner,
                    disqualified=seat["name"] in match.disqualified, confirmed=confirmations.get(seat["name"], ""))
    order = [s["name"] for s in seats]
    partner = len(match.players) >= PARTNER_PLAYERS
    page = match_page(match, printed_at=printed_at, order=order, confirmations=confirmations, check=check)
    return page | {
        "table": _text(table),
        "position": _text(position),
        "seats": seats,
        "diagram": diagram(seats),
        "partner": partner,
        "widths": list_widths(_fixed(partner), len(seats), PLAYER_MM, notes_max=NOTES_MAX_MM),
        **list_page(match, order, game_facts, heads(partner)),
        "null_deals": sum(1 for g in match.games if _null(g)),
    }


def game_facts(game: TallyGame, players: list[str]) -> tuple[dict[str, Any], set[str]]:
    """The columns of one deal (nobody sits out a Tarot deal)."""
    data = game.data if isinstance(game.data, dict) else {}
    checked = read_deal(data, players, extra_keys=tuple(sorted(ANNUL_KEYS)))
    deal = checked.deal
    points = data.get("points")
    facts = {
        "dealer": _name(data.get("dealer")),
        "taker": _name(data.get("taker")),
        "contract": CONTRACT_NAMES.get(data.get("contract"), "") if isinstance(data.get("contract"), str) else "",
        "partner": _name(data.get("partner")),
        "oudlers": data.get("oudlers") if isinstance(data.get("oudlers"), int) else "",
        "points": format_points(points) if isinstance(points, (int, float)) and not isinstance(points, bool) else "",
        "null": _null(game),
        "result": "",
        "made": None,
        "defender_score": "",
    }
    if game.extra.get(POINTS_ONLY):  # recorded as points only: no contract's result to show, said so
        facts.update(result=_("points only"), defender_score=signed(game.extra.get("defender_score", 0)))
    if deal is not None:
        facts.update(made=deal.made, defender_score=signed(game.extra.get("defender_score", 0)),
                     result=(_("made by %(n)s") if deal.made else _("failed by %(n)s")) % {"n": deal.difference})
        if len(players) >= PARTNER_PLAYERS and deal.partner is None:
            facts["partner"] = _("alone")
    return facts, set()


def _null(game: TallyGame) -> bool:
    return isinstance(game.data, dict) and game.data.get("null") is True


def _name(value: Any) -> str:
    return value if isinstance(value, str) else ""


def _text(value: Any) -> str:
    return "" if value is None else str(value)


def heads(partner: bool) -> list[str]:
    """The heads of the deal's own columns, in the order of ``FIXED_MM`` (the partner's at five)."""
    partner_head = [_("Partner")] if partner else []
    return [_("No."), _("Dealer"), _("Taker"), _("Contract"), *partner_head, _("Oudlers"), _("Points (attack)"),
            _("Result"), "D"]


def _fixed(partner: bool) -> dict[str, float]:
    """The deal's own columns' widths in mm (the partner's only at a table of five)."""
    return {k: v for k, v in FIXED_MM.items() if partner or k != "partner"}


def diagram(seats: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The cells of the compass diagram, row by row: North on top, East right, West left."""
    by_key = {s["key"]: s for s in seats}
    layout = [("fifth", "north", None), ("west", "table", "east"), (None, "south", None)]
    return [[{"key": key, "seat": by_key.get(key)} for key in row] for row in layout]


# -- the blank Kontrollblatt --------------------------------------------------------------------

def render_blank(players: list[str], scorekeeper: str | None = None, games: int | None = None, *,
                 club: str = "", place: str = "", date: datetime.date | None = None,
                 printed_at: datetime.datetime | None = None, table: int | str | None = None,
                 numbers: dict[str, int | str] | None = None, position: int | None = None,
                 positions: int = 1) -> bytes:
    """The empty Kontrollblatt of a table: ``games`` deal rows (4 by default: a position of
    4 deals; 3 for the 7 x 3 format), one page for each of ``positions`` positions
    (numbered from ``position``, or from 1 when there are several)."""
    context = blank_context(players, scorekeeper, games, club=club, place=place, date=date,
                            printed_at=printed_at, table=table, numbers=numbers, position=position,
                            positions=positions)
    return html_to_pdf(render_to_string("tarot/print_blank.html", context))


def blank_context(players: list[str], scorekeeper: str | None = None, games: int | None = None, *,
                  club: str = "", place: str = "", date: datetime.date | None = None,
                  printed_at: datetime.datetime | None = None, table: int | str | None = None,
                  numbers: dict[str, int | str] | None = None, position: int | None = None,
                  positions: int = 1) -> dict[str, Any]:
    names = blank_names(players or [""] * TABLE_PLAYERS, MIN_PLAYERS, MAX_PLAYERS)
    if scorekeeper and scorekeeper not in names:
        raise ValueError(f"Nord (der Schreiber) {scorekeeper} muss einer der Spieler sein.")
    deals = BLANK_DEALS if games is None else games
    if not 1 <= deals <= BLANK_MAX_DEALS:
        raise ValueError(f"Ein leeres Kontrollblatt hat 1 bis {BLANK_MAX_DEALS} Spiele, nicht {deals}.")
    if not 1 <= positions <= BLANK_MAX_POSITIONS:
        raise ValueError(f"Es sind 1 bis {BLANK_MAX_POSITIONS} Positionen, nicht {positions}.")
    numbers = numbers or {}
    labels = [n or "" for n in names]
    seats = compass_seats(labels, scorekeeper or labels[0])
    for seat in seats:
        seat.update(number=_text(numbers.get(seat["name"])) if seat["name"] else "")
    partner = len(names) >= PARTNER_PLAYERS
    if position is not None:
        numbered = [str(position + k) for k in range(positions)]
    else:
        numbered = [str(k + 1) for k in range(positions)] if positions > 1 else [""]
    keeper = names.index(scorekeeper) if scorekeeper else 0  # North keeps the sheet
    page = blank_page(names, keeper, club=club, place=place, date=date, printed_at=printed_at)
    return page | {
        "table": _text(table),
        "positions": numbered,
        "seats": seats,
        "diagram": diagram(seats),
        "partner": partner,
        "widths": blank_widths(_fixed(partner), len(names), BLANK_PLAYER_MM),
        "fact_columns": len(heads(partner)) - 1,
        "heads": heads(partner),
        "rows": range(1, deals + 1),
        "reference": reference(len(names)),
    }


def reference(players: int) -> dict[str, Any]:
    """What North looks up while he keeps the sheet, from the engine's own tables."""
    share = {3: _("taker +2 D, each defender −D"), 4: _("taker +3 D, each defender −D"),
             5: _("taker +2 D, partner +D, each of the three defenders −D; taker alone +4 D")}
    trumps = POIGNEE_TRUMPS[players]
    return {
        "base": BASE,
        "contracts": [(CONTRACT_NAMES[c], m, number(PETIT_AU_BOUT * m)) for c, m in CONTRACTS.items()],
        "needed": sorted(NEEDED.items()),
        "poignees": [(POIGNEE_NAMES[size], trumps[size], bonus) for size, bonus in POIGNEE_BONUS.items()],
        "chelem": [(CHELEM_NAMES[key], signed(bonus)) for key, bonus in CHELEM_BONUS.items()],
        "share": share[players],
    }
