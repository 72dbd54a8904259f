"""The plain list: the printed sheet of a game with no columns of its own, points per player.

A game whose sheet needs nothing but the number of each game, every player's score and
running total, sanctions, the result and the signatures uses this one instead of writing
its own; its ``sheet.py`` is then::

    from functools import partial

    from protocol.sheet import plain

    render = plain.render
    render_blank = partial(plain.render_blank, "<key>")

The templates are templates/sheet/plain.html and plain_blank.html; the context is
:mod:`protocol.sheet.page`'s and :func:`protocol.sheet.lists.list_page`'s, with ``title``
(the game's name). Its seats are the game's rules' (``min_players``, ``max_players``).
"""

from __future__ import annotations

import datetime
from typing import Any

from django.template.loader import render_to_string
from django.utils.translation import gettext as _

from protocol import games as registry
from protocol.rules.tally import TallyGame, TallyMatch

from .lists import blank_names, blank_rows, blank_widths, list_page, list_widths
from .page import blank_page, match_page
from .printing import content_width, html_to_pdf

FIXED_MM = {"number": 10}
PLAYER_MM, BLANK_PLAYER_MM = 18, 30
NOTES_MAX_MM = 120
BLANK_GAMES, BLANK_MAX_GAMES = 24, 60


def no_facts(game: TallyGame, players: list[str]) -> tuple[dict[str, Any], set[str]]:
    """A plain game has no columns of its own, and nobody sits it out."""
    return {}, set()


def render(match: TallyMatch, *, printed_at: datetime.datetime | None = None,
           confirmations: dict[str, str] | None = None, check: dict | None = None) -> bytes:
    """The plain list of a match (running, finished or annulled) as PDF bytes."""
    return html_to_pdf(render_to_string("sheet/plain.html", sheet_context(
        match, printed_at, confirmations=confirmations, check=check)))


def sheet_context(match: TallyMatch, printed_at: datetime.datetime | None = None, *,
                  confirmations: dict[str, str] | None = None, check: dict | None = None) -> dict[str, Any]:
    players = match.players
    page = match_page(match, printed_at=printed_at, chart_mm=(content_width(landscape=True), 50),
                      confirmations=confirmations, check=check)
    return page | {
        "title": registry.ruleset(match.envelope.ruleset).name,
        "widths": list_widths(FIXED_MM, len(players), PLAYER_MM, notes_max=NOTES_MAX_MM),
        **list_page(match, players, no_facts, [_("No.")]),
    }


def render_blank(ruleset: str, players: list[str], scorekeeper: str | None = None, games: int | None = None, *,
                 club: str = "", place: str = "", date: datetime.date | None = None,
                 printed_at: datetime.datetime | None = None) -> bytes:
    """The empty plain list of the game ``ruleset``: ``games`` rows (24 by default)."""
    return html_to_pdf(render_to_string("sheet/plain_blank.html", blank_context(
        ruleset, players, scorekeeper, games, club=club, place=place, date=date, printed_at=printed_at)))


def blank_context(ruleset: str, players: list[str], scorekeeper: str | None = None, games: int | None = None, *,
                  club: str = "", place: str = "", date: datetime.date | None = None,
                  printed_at: datetime.datetime | None = None) -> dict[str, Any]:
    rules = registry.ruleset(ruleset)
    names = blank_names(players or [""] * rules.min_players, rules.min_players, rules.max_players, scorekeeper)
    keeper = names.index(scorekeeper) if scorekeeper else None
    page = blank_page(names, keeper, club=club, place=place, date=date, printed_at=printed_at)
    return page | {
        "title": rules.name,
        "widths": blank_widths(FIXED_MM, len(names), BLANK_PLAYER_MM),
        "heads": [_("No.")],
        "fact_columns": 0,
        "rows": blank_rows(games, BLANK_GAMES, BLANK_MAX_GAMES),
    }
