"""What every printed sheet's templates are given: the context its game's sheet builds on.

A game's ``sheet.py`` (``protocol/games/<game>/sheet.py``) starts from :func:`match_page` (a
computed match) or :func:`blank_page` (the empty sheet) and adds only its own columns, rows
and boxes; ``templates/sheet/base.html`` and ``templates/sheet/includes/`` print these keys.
Nothing here decides a rule: totals, winner, sanctions and the end are the engine's.

The keys of both (a blank sheet's are empty where there is nothing to print yet):

``blank``
    False on a match's sheet, True on a blank one (lines to write on instead of values).
``landscape``
    A4 landscape, else portrait (``@page`` in base.html).
``club``, ``season``, ``place``
    The Partie's club, season and place as texts ("" none; a blank sheet has no season).
``date``
    The day of the Partie (a ``datetime.date``), None where it is to be written in.
``scorekeeper``
    The Protokollant's name ("" none yet).
``seats``
    The players in seating order (clockwise), each ``{number (1, 2 …), name ("" to write in),
    scorekeeper, disqualified, colour}``; ``colour`` is the player's on table, chart and results.
``columns``
    The players' columns of the list in the sheet's ``order``, each ``{name, colour, winner,
    disqualified}``.
``signers``
    One signature line each, the scorekeeper first, then the others in seating order:
    ``{name, role, confirmed}`` (``confirmed``: when he confirmed the result in the app, "" not).
``printed_at``, ``page_number``, ``page_count``
    The running foot: the print date (local time) and the page counter placeholders.
``sanction_rows``, ``sanction_mm``
    A blank sheet's lines for penalties, warnings and disqualifications
    (templates/sheet/includes/sanction_lines.html): how many, and the columns' widths in mm.

Only a match's sheet (:func:`match_page`):

``status``, ``winner``, ``ended_by``, ``annulment_reason``, ``disqualified``
    How the match stands or ended: running, finished or annulled; the winner (None: none or
    not yet), the end in words, why it was annulled, the disqualified players' names.
``counted_games``, ``annulled_games``
    How many games count, how many were annulled (struck through, they stay on the sheet).
``results``
    The final table, best first: ``{player, colour, total, negative, rank (None:
    disqualified), winner, disqualified, sanctions}`` (the player's penalties and warnings).
``chart``
    The running totals' chart (a data: URL), or None where the sheet has none.
``check``
    The check code of a stored match and its QR code (:mod:`protocol.sheet.check`:
    ``{code, address, qr}``), None on a sheet of a file.

A printed list (templates/sheet/includes/list_*.html) adds :func:`protocol.sheet.lists.list_page`'s
``heads``, ``fact_columns``, ``span``, ``rows``, ``totals`` (a blank list: ``heads``,
``fact_columns`` and ``rows``, the numbers of its empty rows) and ``widths`` (the game's own
columns and the notes in mm: ``lists.list_widths``, ``lists.blank_widths``); its templates set
``heading``, ``facts``, ``legend``, ``empty_text`` and ``total_label``. A game with no columns of
its own prints :mod:`protocol.sheet.plain`.
"""

from __future__ import annotations

import datetime
from typing import Any

from django.utils.translation import gettext as _

from .chart import sheet_chart
from .lists import results
from .printing import colour, parse_date, print_context

SANCTION_ROWS = 3
SANCTION_MM = (16, 40, 36, 20, 50)  # after game, player, kind, deduction, decided by


def match_page(match, *, printed_at: datetime.datetime | None = None, landscape: bool = True,
               order: list[str] | None = None, chart_mm: tuple[float, float] | None = None,
               confirmations: dict[str, str] | None = None, check: dict | None = None,
               counted_games: int | None = None) -> dict[str, Any]:
    """The shared context of a computed match's sheet (the keys of this module's docstring).

    ``order``: the players' columns of the list (seating order unless given); ``chart_mm``:
    the running totals' chart (width, height) where the sheet draws it; ``confirmations``:
    player -> when he confirmed the result in the app; ``check``: a stored match's check code;
    ``counted_games``: the games that count where the game counts them its own way (else the
    engine's ``counted_games``).
    """
    env, players = match.envelope, match.players
    order = list(players) if order is None else order
    seat_of = {p: i for i, p in enumerate(players)}
    return {
        "blank": False,
        "landscape": landscape,
        "club": env.club, "season": env.season, "date": parse_date(env.date), "place": env.place,
        "scorekeeper": env.scorekeeper,
        "seats": [{"number": i + 1, "name": p, "scorekeeper": p == env.scorekeeper,
                   "disqualified": p in match.disqualified, "colour": colour(i)} for i, p in enumerate(players)],
        "columns": [{"name": p, "colour": colour(seat_of[p]), "winner": p == match.winner,
                     "disqualified": p in match.disqualified} for p in order],
        "status": match.status,
        "winner": match.winner,
        "ended_by": match.ended_by_label,
        "annulment_reason": match.annulment_reason,
        "disqualified": list(match.disqualified),
        "counted_games": len(match.counted_games) if counted_games is None else counted_games,
        "annulled_games": sum(1 for g in match.games if g.annulled),
        "results": results(match, order, seat_of),
        "chart": sheet_chart(match, width_mm=chart_mm[0], height_mm=chart_mm[1]) if chart_mm else None,
        "signers": signers(players, players.index(env.scorekeeper) if env.scorekeeper in players else None,
                           confirmations),
        "check": check,
        **print_context(printed_at),
    }


def blank_page(names: list[str], keeper: int | None, *, landscape: bool = True, club: str = "",
               place: str = "", date: datetime.date | None = None,
               printed_at: datetime.datetime | None = None) -> dict[str, Any]:
    """The shared context of an empty sheet (the keys of this module's docstring): ``names`` in
    seating order ("" a line to write a name on), ``keeper`` the scorekeeper's seat (None: to
    be written in)."""
    return {
        "blank": True,
        "landscape": landscape,
        "club": club, "place": place, "date": date, "season": "",
        "scorekeeper": names[keeper] if keeper is not None else "",
        "seats": [{"number": i + 1, "name": n, "scorekeeper": i == keeper, "colour": colour(i)}
                  for i, n in enumerate(names)],
        "columns": [{"name": n, "colour": colour(i)} for i, n in enumerate(names)],
        "signers": signers(names, keeper),
        "sanction_rows": range(SANCTION_ROWS),
        "sanction_mm": SANCTION_MM,
        **print_context(printed_at),
    }


def signers(players: list[str], keeper: int | None, confirmations: dict[str, str] | None = None) -> list[dict]:
    """One line each: the scorekeeper (seat ``keeper``) first, he keeps the sheet, then the others
    in seating order; ``confirmations``: player -> when he confirmed the result in the app."""
    first = [keeper] if keeper is not None else []
    return [{"name": players[i], "role": _("Scorekeeper") if i == keeper else _("Player"),
             "confirmed": (confirmations or {}).get(players[i], "")}
            for i in first + [i for i in range(len(players)) if i != keeper]]
