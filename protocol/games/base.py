"""What the site needs of each ruleset to keep its protocol: the site's side of
``protocol.rules.RULESETS``.

``kind_of(match)`` gives the :class:`GameKind` of a match's ruleset; the views dispatch on
it and stay the same for every game:

- ``form(...)``: the game entry form (POST data -> a ``protocol/1`` game body; the engine's
  errors -> form errors), ``initial_from`` for a correction, ``complete`` (is there enough
  for the live preview to ask the engine?);
- ``fields_template`` (the entry form's inputs), ``preview_template`` (the live preview),
  ``sheet_template`` (the sheet on the match page), ``settings_form`` (the match settings'
  fields, None when the ruleset has none);
- ``rows``/``standings``/``ended_by`` (the engine's answer laid out, protocol/presentation.py);
- ``is_open``, ``next_players``, ``players_of`` (who plays the next or a stored game).

Nothing here knows a rule: every check and every score is the engine's.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from protocol import presentation
from protocol.forms import chaotentrumpf, doppelkopf, tarot
from protocol.forms.match import DoppelkopfSettingsFields, SettingsFields
from protocol.rules import get_ruleset

LINE_FIELDS = chaotentrumpf.LINE_FIELDS


@dataclass(frozen=True)
class GameKind:
    key: str
    form_class: type
    fields_template: str
    preview_template: str
    sheet_template: str
    settings_form: type | None = None

    tally = False

    @property
    def ruleset(self):
        return get_ruleset(self.key)

    @property
    def has_settings(self) -> bool:
        return self.settings_form is not None

    # -- who plays ----------------------------------------------------------------------------
    def is_open(self, computed) -> bool:
        """Can another game be entered?"""
        return computed.current_stage is not None

    def next_players(self, computed) -> list[str]:
        return computed.next_players

    def players_of(self, computed, game) -> list[str]:
        return game.players

    # -- the entry form -----------------------------------------------------------------------
    def form(self, computed, data=None, *, initial=None, players=None):
        players = players if players is not None else self.next_players(computed)
        return self.form_class(data, initial=initial, players=players, seats=computed.players,
                               **self.form_options(computed))

    def form_options(self, computed) -> dict[str, Any]:
        return {}

    def new_initial(self, computed) -> dict[str, Any]:
        """Values a new game's form starts with."""
        return {}

    def initial_from(self, computed, body: dict, game) -> dict[str, Any]:
        return self.form_class.initial_from(body, self.players_of(computed, game), computed.players)

    def complete(self, form) -> bool:
        """Every tricks, points and trumps field filled: the engine can score the game."""
        return all(str(form.data.get(f"p{i}_{n}", "")).strip() for i, _p in form.indexed() for n in LINE_FIELDS)

    # -- the page -----------------------------------------------------------------------------
    def rows(self, computed):
        return presentation.sheet_rows(computed)

    def standings(self, computed):
        return presentation.standings(computed)

    def ended_by(self, computed) -> str:
        return presentation.ended_by_text(computed)


@dataclass(frozen=True)
class TallyKind(GameKind):
    """A ruleset without an Obergrenze (protocol/rules/tally.py): the games the table plays,
    then the end."""

    describe: Callable | None = None  # (game, players) -> the game in a few words, for the sheet
    tally = True

    def is_open(self, computed) -> bool:
        return computed.status == "running" and len(computed.active_players) >= self.ruleset.min_players

    def next_players(self, computed) -> list[str]:
        return computed.active_players

    def players_of(self, computed, game) -> list[str]:
        return presentation.active_at(computed, game.event)

    def new_initial(self, computed) -> dict[str, Any]:
        dealer = next_dealer(computed)
        return {"dealer": dealer} if dealer else {}

    def complete(self, form) -> bool:
        return form.is_complete()

    def rows(self, computed):
        return presentation.tally_rows(computed, self.describe)

    def standings(self, computed):
        return presentation.tally_standings(computed)

    def ended_by(self, computed) -> str:
        return computed.ended_by_label


@dataclass(frozen=True)
class DoppelkopfKind(TallyKind):
    def form_options(self, computed) -> dict[str, Any]:
        return {"rules": computed.settings.rules}


def next_dealer(computed) -> str | None:
    """A suggestion for the form, not a rule (the rulesets don't enforce the rotation): the
    player after the last game's dealer, clockwise, among those still playing; for game 1
    the first seat."""
    last = next((g.data["dealer"] for g in reversed(computed.games)
                 if isinstance(g.data, dict) and g.data.get("dealer")), None)
    players, active = computed.players, computed.active_players
    if not active:
        return None
    if last not in players:  # game 1: the first seat deals, as the sheet's seating starts there
        return next((p for p in players if p in active), None)
    start = players.index(last)
    for step in range(1, len(players) + 1):
        candidate = players[(start + step) % len(players)]
        if candidate in active:
            return candidate
    return None


KINDS: dict[str, GameKind] = {
    "chaotentrumpf": GameKind(
        "chaotentrumpf", chaotentrumpf.GameForm, "protocol/includes/game_fields_chaotentrumpf.html",
        "protocol/includes/game_preview.html", "protocol/includes/sheet.html", SettingsFields),
    "doppelkopf": DoppelkopfKind(
        "doppelkopf", doppelkopf.GameForm, "protocol/includes/game_fields_doppelkopf.html",
        "protocol/includes/tally_preview.html", "protocol/includes/tally_sheet.html", DoppelkopfSettingsFields,
        describe=presentation.describe_doppelkopf),
    "tarot": TallyKind(
        "tarot", tarot.GameForm, "protocol/includes/game_fields_tarot.html",
        "protocol/includes/tally_preview.html", "protocol/includes/tally_sheet.html",
        describe=presentation.describe_tarot),  # Tarot has no settings (FFT: the same for every table)
}


def kind_of(match) -> GameKind:
    """The GameKind of a match (or of a ruleset key)."""
    return KINDS[match if isinstance(match, str) else match.ruleset]
