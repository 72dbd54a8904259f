"""The paper sheet of a Partie: the rows of the match page and the printed sheets.

- :mod:`.rows`: the engine's answer laid out as rows, one shape for every game (the match page);
- :mod:`.lists`: what the printed lists of the games without an Obergrenze share;
- :mod:`.page`: the context every printed sheet's templates are given (header, seats, result,
  signatures, check code, page), each key documented there;
- :mod:`.plain`: the plain list, the printed sheet of a game with no columns of its own;
- :mod:`.printing`: HTML to PDF, the print date, page sizes;
- :mod:`.chart`: every chart of the site (the sheets' running totals, a member's season);
- :mod:`.check`: the signed check code a stored Partie's sheet prints, for its public check page.

Each game's printed sheet is its own (``protocol/games/<game>/sheet.py``: ``render`` and
``render_blank``); :func:`render_sheet` and :func:`render_blank_sheet` pick the one of the
match's game, so callers need not know which it is; :func:`blank_seats` says for how many
players a game's blank sheet is. They only lay out what the rules engine computed.
"""

from __future__ import annotations

import datetime

from .printing import html_to_pdf


def render_sheet(match_result, *, printed_at: datetime.datetime | None = None, **options) -> bytes:
    """The printed sheet of a computed match (running, finished or annulled) as PDF bytes, by
    its game; ``options`` are the game's own (a table's ``table``, ``numbers``, ``position``)."""
    from protocol import games  # the registry imports the games, whose code imports this package

    return games.plugin(match_result.envelope.ruleset).sheet.render(match_result, printed_at=printed_at, **options)


def render_blank_sheet(players: list[str], scorekeeper: str | None = None, games: int | None = None, *,
                       ruleset: str | None = None, **options) -> bytes:
    """An empty sheet of the game ``ruleset`` (the registry's default game if None) as PDF
    bytes: ``players`` in seating order (an empty name leaves its line to be written in),
    ``games`` rows; ``options`` are the game's own (``club``, ``place``, ``date``,
    ``printed_at`` for every game)."""
    from protocol import games as registry

    key = ruleset or registry.DEFAULT
    if key not in registry.PLUGINS:
        known = ", ".join(registry.PLUGINS)
        raise ValueError(f"Ein leeres Blatt gibt es für {known}, nicht für {key!r}.")
    return registry.plugin(key).sheet.render_blank(players, scorekeeper, games, **options)


def blank_seats(ruleset: str) -> tuple[int, int]:
    """The fewest and most players of the game's blank sheet: its rules' (``min_players``,
    ``max_players``), narrowed where its sheet has room for fewer (the sheet module's
    ``BLANK_MIN_PLAYERS`` and ``BLANK_MAX_PLAYERS``, where it has them)."""
    from protocol import games as registry

    rules, printed = registry.ruleset(ruleset), registry.plugin(ruleset).sheet
    return (max(rules.min_players, getattr(printed, "BLANK_MIN_PLAYERS", rules.min_players)),
            min(rules.max_players, getattr(printed, "BLANK_MAX_PLAYERS", rules.max_players)))


__all__ = ["blank_seats", "html_to_pdf", "render_blank_sheet", "render_sheet"]
