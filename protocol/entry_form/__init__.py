"""The entry forms' data and the engine, both ways: pure Python (no Django), so the very same
code runs on the server (the Django forms, protocol/forms/ and protocol/games/<game>/forms.py)
and in the browser (Pyodide, the offline entry page, static/js/offline/).

Vocabulary:

- *fields*: the entry form's data by field name (``trump``, ``p{seat}_tricks``,
  ``inv{j}_player``, ``re`` …): the Django form's cleaned values or the browser's form data
  as typed (strings; a multiple choice a list). Numbers typed as text are read here.
- *seats*: the whole table in seating order (fields are named by seat); *players*: those
  who play this game (a Stechen plays only the tied players).
- *body*: the entry as the ``protocol/1`` format stores it (an event's value).
- *field* of an error: the name of the input a :class:`~protocol.rules.RuleError` marks
  (None: the form's top).

``game_body``/``game_field`` choose the game's ``entry_form.py`` (``protocol/games/<game>/``)
through the registry by the ruleset's key;
``sanction`` is the Strafe/Verwarnung/Disqualifikation form, ``state`` what the entry page
shows of a protocol document.
"""

from __future__ import annotations

from typing import Any

from protocol import games


def game_body(ruleset: str, fields: dict[str, Any], players: list[str], seats: list[str],
              **options: Any) -> dict[str, Any]:
    """The game's body from its form's fields (``options``: the match's, e.g. Doppelkopf's rules)."""
    return games.entry_form(ruleset).body(fields, players, seats, **options)


def game_field(ruleset: str, error, fields: dict[str, Any], players: list[str], seats: list[str],
               **options: Any) -> str | None:
    """The field a RuleError of the game marks (None: the form's top)."""
    return games.entry_form(ruleset).field_for(error, fields, players, seats, **options)


def is_complete(ruleset: str, fields: dict[str, Any], players: list[str], seats: list[str], **options: Any) -> bool:
    """Enough typed for the engine to score the game (the live preview waits till then)."""
    return games.entry_form(ruleset).is_complete(fields, players, seats, **options)
