"""A Tarot deal as the match page's sheet shows it: taker, contract, points, the defenders' score.

Pure: lays out what the rules engine computed (protocol/games/tarot/rules/).
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from protocol.games.tarot.rules.scoring import CONTRACT_NAMES, format_points
from protocol.rules.vocabulary import number
from protocol.sheet.rows import Row, dealt_row


def game_row(match, game) -> Row:
    return dealt_row(match, game, describe(game))  # nobody sits out a Tarot deal


def describe(game) -> str:
    """E.g. "Bernd · Garde · 49 points · D 106"; "declared null" for a null deal."""
    body = game.data if isinstance(game.data, dict) else {}
    if body.get("null"):
        return _("declared null")
    taker = str(body.get("taker") or "")
    if body.get("partner"):
        taker = _("%(taker)s with %(partner)s") % {"taker": taker, "partner": body["partner"]}
    parts = [taker, CONTRACT_NAMES.get(body.get("contract"), "")]
    points = body.get("points")
    if isinstance(points, (int, float)):
        parts.append(_("%(points)s points") % {"points": format_points(points)})
    if "defender_score" in game.extra:
        parts.append(f"D {number(game.extra['defender_score'])}")
    return " · ".join(p for p in parts if p)
