"""A Doppelkopf game as the match page's sheet shows it: type, Re party, outcome, and the
dealer sitting out at a table of five (TCG Allgemeines).

Pure: lays out what the rules engine computed (protocol/games/doppelkopf/rules/).
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from protocol.games.doppelkopf.rules.game import PARTY_NAMES, TYPES
from protocol.games.doppelkopf.rules.settings import PLAYERS_AT_TABLE
from protocol.sheet.rows import Row, active_at, dealer_of, dealt_row


def game_row(match, game) -> Row:
    active = active_at(match, game.event)
    sits_out = (dealer_of(game) or None) if len(active) > PLAYERS_AT_TABLE else None  # the fifth deals
    return dealt_row(match, game, describe(game), sits_out)


def describe(game) -> str:
    """E.g. "Normalspiel · Re Anna, Bernd · Kontra wins 10" (the game value before the solo factor)."""
    body = game.data if isinstance(game.data, dict) else {}
    if game.extra.get("points_only"):  # the scores without the facts behind them
        return _("points only")
    if "type" not in body:
        return _("not played")
    re = body.get("re") or []
    parts = [str(TYPES.get(body["type"], body["type"])), f"Re {', '.join(re)}"]  # the type in the reader's language
    winner = game.extra.get("winner")
    if winner:
        parts.append(_("%(party)s wins %(value)s") % {"party": PARTY_NAMES[winner], "value": game.extra.get("value")})
    elif game.scores is not None:
        parts.append(_("nobody wins (%(value)s)") % {"value": game.extra.get("value")})
    if body.get("revoke"):
        parts.append(_("Verwurf by %(player)s") % {"player": body["revoke"]})
    return " · ".join(parts)
