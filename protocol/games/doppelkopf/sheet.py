"""The Doppelkopf list: the signed record of a Doppelkopf match (or round), as PDF bytes.

A4 landscape: the header (club, date, place, rule set, the players in seating order), one
row per game (number, dealer, game type, Re party, Re's card points, announcements,
winner, value, every player's score and running total, the engine's explanation),
sanctions where they happened, annulled games struck through, the totals, the running
totals chart, the result and the signatures. ``render_blank`` prints the empty list for a
round kept on paper first.

The game's facts are read back with the engine's own ``read_deal`` (the Re party, the
dealer who sits out at a table of five); winner and value are the engine's output.
"""

from __future__ import annotations

import datetime
from functools import partial
from typing import Any

from django.template.loader import render_to_string
from django.utils.translation import gettext as _

from protocol.games.doppelkopf.rules.game import PARTY_NAMES, SOLO_TYPES, TYPES, read_deal
from protocol.games.doppelkopf.rules.settings import CARDS, MAX_PLAYERS, MIN_PLAYERS, RULES, Settings
from protocol.rules.base import Problems
from protocol.rules.scores import POINTS_ONLY
from protocol.rules.tally import ANNUL_KEYS, TallyGame, TallyMatch
from protocol.sheet.lists import blank_names, blank_rows, blank_widths, list_page, list_widths
from protocol.sheet.page import blank_page, match_page
from protocol.sheet.printing import content_width, html_to_pdf

# What the Protokollant writes in the announcements column: the party's Ansage, then its Absagen.
ANNOUNCEMENT_SHORT = {"re": "Re", "kontra": "Ko", "keine 90": "k90", "keine 60": "k60",
                      "keine 30": "k30", "schwarz": "schw"}
# Column widths in mm; the players' columns share the rest with the explanation (notes).
FIXED_MM = {"number": 7, "dealer": 15, "type": 18, "re": 23, "re_points": 11, "announcements": 17,
            "winner": 13, "value": 9}
PLAYER_MM = 16  # a game is worth a few points: "+36" and "−150" fit
NOTES_MAX_MM = 115
CHART_SHARE = 0.58  # of the width: the chart beside the result box (sheet.css .closing__split)
BLANK_PLAYER_MM = {4: 28, 5: 24}  # room for handwritten numbers
BLANK_GAMES, BLANK_MAX_GAMES = 24, 60


def heads() -> list[str]:
    """The heads of the game's own columns, in the order of ``FIXED_MM``."""
    return [_("No."), _("Dealer"), _("Game type"), _("Re party"), _("Re points"), _("Announcements"),
            _("Winner"), _("Value")]


def render(match: TallyMatch, *, printed_at: datetime.datetime | None = None,
           confirmations: dict[str, str] | None = None, check: dict | None = None) -> bytes:
    """The Doppelkopf list of a match (running, finished or annulled) as PDF bytes;
    ``confirmations``: player -> when he confirmed the result in the app (on his signature line);
    ``check``: the check code of a stored match and its QR code (protocol/sheet/check.py)."""
    return html_to_pdf(render_to_string("doppelkopf/print.html", sheet_context(
        match, printed_at, confirmations=confirmations, check=check)))


def sheet_context(match: TallyMatch, printed_at: datetime.datetime | None = None, *,
                  confirmations: dict[str, str] | None = None, check: dict | None = None) -> dict[str, Any]:
    """protocol.sheet.page's keys, and the list's own: the rule set and the deck, the list."""
    settings: Settings = match.settings
    chart_mm = (content_width(landscape=True) * CHART_SHARE, 50)
    return match_page(match, printed_at=printed_at, chart_mm=chart_mm, confirmations=confirmations, check=check) | {
        "rules": settings.label,
        "deck": _("%(cards)s cards, %(tricks)s tricks") % {"cards": CARDS[settings.rules], "tricks": settings.tricks},
        "five": len(match.players) > 4,
        "widths": list_widths(FIXED_MM, len(match.players), PLAYER_MM, notes_max=NOTES_MAX_MM),
        **list_page(match, match.players, partial(game_facts, settings), heads()),
    }


def game_facts(settings: Settings, game: TallyGame, players: list[str]) -> tuple[dict[str, Any], set[str]]:
    """The columns of one game and the player who sat it out (the dealer at a table of five)."""
    data = game.data if isinstance(game.data, dict) else {}
    deal = None
    if set(data) - ANNUL_KEYS:  # a game annulled before it was played has nothing else
        deal = read_deal(data, players, settings, game.event, Problems())
    if deal is None:  # not played, or recorded as points only (its game type cell says so)
        return {"dealer": data.get("dealer") if isinstance(data.get("dealer"), str) else "", "played": False,
                "points_only": bool(game.extra.get(POINTS_ONLY))}, set()
    winner = game.extra.get("winner")
    return {
        "played": True,
        "dealer": deal.dealer,
        "type": TYPES[deal.type],
        "solo": deal.type in SOLO_TYPES or deal.solo,
        "re": deal.re,
        "re_points": deal.re_points,
        "schwarz": PARTY_NAMES[deal.schwarz] if deal.schwarz else "",
        "announcements": announcements_short(deal.announcements),
        "winner": PARTY_NAMES.get(winner, "–"),
        "winner_party": winner or "",
        "value": game.extra.get("value"),
        "revoke": deal.revoke or "",
    }, {deal.sitting_out} - {None}


def announcements_short(announcements: dict[str, list[str]]) -> str:
    """{"re": ["re", "keine 90"], "kontra": ["kontra"]} -> "Re, k90 | Ko"."""
    parts = [", ".join(ANNOUNCEMENT_SHORT[a] for a in said) for said in announcements.values() if said]
    return " | ".join(parts)


# -- the blank list ---------------------------------------------------------------------------

def render_blank(players: list[str], scorekeeper: str | None = None, games: int | None = None, *,
                 club: str = "", place: str = "", date: datetime.date | None = None,
                 printed_at: datetime.datetime | None = None, rules: str | None = None) -> bytes:
    """The empty Doppelkopf list for 4 or 5 players (``games`` rows, 24 by default).

    ``rules`` ("tcg" or "ddv") prints the rule set; without it both are there to tick.
    """
    return html_to_pdf(render_to_string("doppelkopf/print_blank.html", blank_context(
        players, scorekeeper, games, club=club, place=place, date=date, printed_at=printed_at, rules=rules)))


def blank_context(players: list[str], scorekeeper: str | None = None, games: int | None = None, *,
                  club: str = "", place: str = "", date: datetime.date | None = None,
                  printed_at: datetime.datetime | None = None, rules: str | None = None) -> dict[str, Any]:
    names = blank_names(players or [""] * 4, MIN_PLAYERS, MAX_PLAYERS, scorekeeper)
    if rules is not None and rules not in RULES:
        raise ValueError(f'Die Regeln sind "tcg" oder "ddv", nicht {rules!r}.')
    rows = blank_rows(games, BLANK_GAMES, BLANK_MAX_GAMES)
    keeper = names.index(scorekeeper) if scorekeeper else None
    page = blank_page(names, keeper, club=club, place=place, date=date, printed_at=printed_at)
    return page | {
        "rules": RULES[rules] if rules else "",
        "rule_choices": list(RULES.values()),
        "five": len(names) > 4,
        "widths": blank_widths(FIXED_MM, len(names), BLANK_PLAYER_MM[len(names)]),
        "fact_columns": len(FIXED_MM) - 1,
        "heads": heads(),
        "rows": rows,
    }
