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

``game_body``/``game_field``/``is_complete`` choose the game's ``entry_form.py``
(``protocol/games/<game>/``) through the registry by the ruleset's key, and its mode: with the
switch ``points_only`` on (``points``) the Spiel is the points per player with the facts noted
beside them; the ``*_of`` functions do the same for a mapping in hand (the Django forms);
``sanction`` is the Strafe/Verwarnung/Disqualifikation form, ``state`` what the entry page
shows of a protocol document.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

from protocol import games

from . import points


def body_of(mapping: ModuleType, fields: dict[str, Any], players: list[str], seats: list[str],
            **options: Any) -> dict[str, Any]:
    """The game's body from its form's fields, in the mode the switch chose."""
    if points.chosen(mapping, fields):
        return points.body(mapping, fields, players, seats, **options)
    return mapping.body(fields, players, seats, **options)


def initial_of(mapping: ModuleType, body: dict[str, Any], players: list[str], seats: list[str]) -> dict[str, Any]:
    """The fields of a stored game, in the mode it was recorded in (a correction starts filled)."""
    if points.offered(mapping) and points.recorded(body):
        return points.initial(mapping, body, players, seats)
    return mapping.initial(body, players, seats)


def field_of(mapping: ModuleType, error, fields: dict[str, Any], players: list[str], seats: list[str],
             **options: Any) -> str | None:
    """The field a RuleError of the game marks (None: the form's top)."""
    if points.chosen(mapping, fields):
        return points.field_for(mapping, error, fields, players, seats, **options)
    return mapping.field_for(error, fields, players, seats, **options)


def complete_of(mapping: ModuleType, fields: dict[str, Any], players: list[str], seats: list[str],
                **options: Any) -> bool:
    if points.chosen(mapping, fields):
        return points.is_complete(fields, players, seats)
    return mapping.is_complete(fields, players, seats, **options)


def slots_of(mapping: ModuleType, players: list[str], seats: list[str], **options: Any) -> list[str]:
    """The fields whose errors the page shows in a slot of their own, of both modes (a switch
    clears the other mode's messages)."""
    names = mapping.slot_names(players, seats, **options)
    return names + (points.slot_names(players, seats) if points.offered(mapping) else [])


def groups_of(mapping: ModuleType, players: list[str], seats: list[str], **options: Any) -> dict[str, list[str]]:
    """Group -> its inputs, of both modes."""
    found = mapping.groups(players, seats, **options)
    return found | (points.groups(players, seats) if points.offered(mapping) else {})


def game_body(ruleset: str, fields: dict[str, Any], players: list[str], seats: list[str],
              **options: Any) -> dict[str, Any]:
    """The game's body from its form's fields (``options``: the match's, e.g. Doppelkopf's rules)."""
    return body_of(games.entry_form(ruleset), fields, players, seats, **options)


def game_field(ruleset: str, error, fields: dict[str, Any], players: list[str], seats: list[str],
               **options: Any) -> str | None:
    """The field a RuleError of the game marks (None: the form's top)."""
    return field_of(games.entry_form(ruleset), error, fields, players, seats, **options)


def game_initial(ruleset: str, body: dict[str, Any], players: list[str], seats: list[str]) -> dict[str, Any]:
    """The fields of a stored game (a correction starts filled, in the mode it was recorded in)."""
    return initial_of(games.entry_form(ruleset), body, players, seats)


def is_complete(ruleset: str, fields: dict[str, Any], players: list[str], seats: list[str], **options: Any) -> bool:
    """Enough typed for the engine to score the game (the live preview waits till then)."""
    return complete_of(games.entry_form(ruleset), fields, players, seats, **options)
