"""What the site needs of a game to keep its protocol: the interface of a game's site plug-in.

A game's site code sits in its own folder ``protocol/games/<game>/``: ``forms.py`` (the
entry form and the settings form), ``presentation.py`` (its rows on the match page),
``sheet.py`` (the printed sheet: ``render(match, ...)`` and ``render_blank(players, ...)``, on
protocol/sheet/page.py's context; protocol/sheet/plain.py's for a game with no columns of its own)
and ``templates/<game>/``. Its ``plugin.py`` makes the plug-in ``PLUGIN``, a :class:`Plugin`, and
``protocol/games/__init__.py`` lists the games. The views, the templates and the
commands ask the plug-in and never name a game:

- ``form(...)``: the entry form (POST data -> a ``protocol/1`` game body; the engine's
  errors -> form errors), ``initial_from`` for a correction, ``complete`` (is there enough
  for the live preview to ask the engine?);
- the templates it fills: ``fields_template`` (the entry form's inputs),
  ``preview_template`` (the live preview), ``settings_template`` (before its settings on the new-match page), ``blank_sheet_template``
  (what its blank sheet holds, beside the form that prints the blank sheet of any game);
- ``game_details`` (its games in "Games in detail", compact HTML: protocol/sheet/markup.py);
- ``entry_rows`` (``rows``)/``standings``/``ended_by`` (the engine's answer laid out, protocol/sheet/rows.py),
  ``status_headline``/``status_facts``/``standings_heading`` (what the match page says of it);
- ``is_open``, ``can_end``, ``next_players``, ``players_of`` (who plays the next or a stored game);
- the words that differ between games (``wording``) and what only some games have
  (``settings_form``, ``lots``, ``transcription``, ``simulation``: None where a game has none);
- the season workbook's Spiele sheet (league/spreadsheets/exports.py): ``workbook_columns``
  (the game's own columns, a :class:`Column` each) and ``workbook_rows`` (their values): by
  default none, so that the sheet holds each player's score and total of each Spiel; a Spiel
  recorded as points only has :data:`POINTS_ONLY` where its facts would stand.

The defaults are those of a game the table plays until it ends it (no Obergrenze);
a game with more (a Mischer, an Obergrenze and its Stechen) overrides them.
Nothing here knows a rule: every check and every score is the engine's.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from importlib import import_module
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from protocol.entry_form import points
from protocol.entry_form import state as entry_state
from protocol.rules import get_ruleset
from protocol.sheet import markup
from protocol.sheet import rows as layout


@dataclass(frozen=True)
class Wording:
    """The sentences of the pages that differ between games (each cites its game's rule, or none)."""

    game_annulled: Promise = _("The game was annulled; it stays on the sheet, struck through.")
    annulled_game_explained: Promise = _("An annulled game stays on the sheet, struck through, and counts for nothing.")
    annul_game: Promise = _("Annul this game")
    match_annulled: Promise = _("The match was annulled. It stays in the archive.")
    annul_match: Promise = _("Annul the whole match")
    match_annulled_state: Promise = _("This match was annulled and counts for nothing.")
    end_title: Promise = _("End the match")
    end_button: Promise = _("End the match")
    end_explained: Promise = _("The highest total wins; with a tie at the top there is no winner.")
    details_intro: Promise = _("How each score came about, according to the rules.")
    seating_help: Promise = _("Choose the players in their seating order (clockwise).")
    preview_hint: Promise = _("Fill in the game to see the scores.")


# Number formats of a workbook's column (league.spreadsheets.exports writes them)
DATE = "DD.MM.YYYY"
INTEGER = "#,##0"
SIGNED = "#,##0;[Red]-#,##0"  # negative scores in red
TEXT = None  # no number format
# What a Spiel recorded as points only (protocol/rules/scores.py) has in the columns of its facts:
# its score stands in the score's column, the facts behind it are unknown. Read back by the importer.
POINTS_ONLY = _("points only")


@dataclass(frozen=True)
class Column:
    """A column of the season workbook: its header, width and number format, and the key the
    importer (league.spreadsheets.imports) knows it by, wherever it stands."""

    header: str
    width: float
    number_format: str | None = TEXT
    key: str = ""


class Plugin:
    """One game's site plug-in. Subclass it in ``protocol/games/<game>/plugin.py``."""

    key: str = ""  # the ruleset's key (protocol/rules)
    form_class: type  # the entry form of one game
    settings_form: type | None = None  # the match settings' fields (None: the game has none)
    wording = Wording()
    end_choices: list[tuple[str, Any]] = [
        ("time", _("The agreed time is up")), ("agreed", _("The players agreed to stop")),
        ("games", _("The round's number of games is reached"))]
    fields_template: str = ""
    preview_template: str = "protocol/includes/preview.html"
    sheet_heading: Promise = _("Dealer · game")  # the first column of the sheet on the match page
    sheet_style: str = "sheet--list"
    settings_template: str = ""  # shown before the settings on the new-match page ("" none)
    blank_sheet_template: str = ""  # what its blank sheet holds, said beside the blank sheet's form ("" nothing)
    pdf_name: str = "spielprotokoll"  # the PDF's file name starts so
    lots = None  # the Losentscheid's module, where the game decides by lot (LE)
    notation = None  # the written Spiel's grammar (transcription and spreadsheet cells), if the game has one
    transcription = None  # the paper protocol's module ("Protokoll nachtragen"), if the game has one
    simulation = None  # the module that deals games a real table could play, if the game has one

    def __repr__(self) -> str:
        return f"<Plugin {self.key}>"

    def part(self, name: str):
        """The module ``name`` of the game's folder (the plug-in's own package)."""
        return import_module(f"{type(self).__module__.rpartition('.')[0]}.{name}")

    @property
    def ruleset(self):
        return get_ruleset(self.key)

    @property
    def name(self) -> str:
        return self.ruleset.name

    @property
    def sheet(self):
        """The printed sheet's module (imported when a sheet is asked for: it loads WeasyPrint)."""
        return self.part("sheet")

    @property
    def has_settings(self) -> bool:
        return self.settings_form is not None

    # -- who plays ----------------------------------------------------------------------------
    def is_open(self, computed) -> bool:
        """Can another game be entered? (protocol/entry_form/state.py, the same offline)"""
        return entry_state.is_open(self.key, computed)

    def can_end(self, computed) -> bool:
        """May the scorekeeper end the match now?"""
        return computed.status == "running"

    def next_players(self, computed) -> list[str]:
        return entry_state.next_players(self.key, computed)

    def players_of(self, computed, game) -> list[str]:
        return layout.active_at(computed, game.event)

    def next_dealer(self, computed) -> str | None:
        """Who deals next (Chaotentrumpf: the Mischer, Art. 5b; the others a suggestion by
        rotation): protocol/entry_form/state.py, the same offline."""
        return entry_state.next_dealer(self.key, computed)

    # -- the entry form -----------------------------------------------------------------------
    def form(self, computed, data=None, *, initial=None, players=None):
        arguments = self.form_arguments(computed)
        if players is not None:  # a Spiel already recorded: its own players
            arguments["players"] = players
        return self.form_class(data, initial=initial, **arguments)

    def form_arguments(self, computed) -> dict[str, Any]:
        """What a new entry's form is made of besides its data and initial values: the next
        game's players, the table's seats and the game's options (protocol/forms/kept.py keeps
        its inputs by these)."""
        return {"players": self.next_players(computed), "seats": computed.players, **self.form_options(computed)}

    def form_options(self, computed) -> dict[str, Any]:
        return {}

    def new_initial(self, computed) -> dict[str, Any]:
        """Values a new game's form starts with: the dealer, and the mode of the Partie's last
        Spiel (points only, if it was recorded so)."""
        dealer = self.next_dealer(computed)
        return ({"dealer": dealer} if dealer else {}) | self.mode_initial(computed)

    def mode_initial(self, computed) -> dict[str, Any]:
        """The mode a new game's form opens in: that of the Partie's last recorded Spiel."""
        return {points.SWITCH: True} if points.remembered(computed) else {}

    def initial_from(self, computed, body: dict, game) -> dict[str, Any]:
        return self.form_class.initial_from(body, self.players_of(computed, game), computed.players)

    def complete(self, form) -> bool:
        """Is enough typed for the engine to score the game?"""
        return form.is_complete()

    # -- the page -----------------------------------------------------------------------------
    def rows(self, computed) -> list[layout.Row]:
        """Every entry's rows in order (the printed sheet, the transcription): :meth:`entry_rows`'."""
        return layout.sheet_rows(computed, self)

    def entry_rows(self, computed, start: int = 0) -> list[list[layout.Row]]:
        """The rows of each entry from position ``start`` on (the match page writes a new entry's
        only, protocol.sheet.kept_rows): made of its ``game_row`` and ``rows_after``."""
        return layout.entry_rows(computed, self, start)

    def game_row(self, computed, game) -> layout.Row:
        """One game's row on the match page (its own ``presentation.game_row``)."""
        return self.part("presentation").game_row(computed, game)

    def game_details(self, computed, rows: list[layout.Row], links) -> list[str]:
        """The games among ``rows`` in "Games in detail" (HTML, joined by the caller): each in a
        few words and how it scored, with its buttons (``links``: protocol.sheet.markup.EntryLinks,
        None where the user may not correct). One game's part is the same whatever follows it
        (protocol.sheet.kept_rows); the sanctions and the end are written by markup.entry_lines."""
        return markup.dealt_details(computed, rows, links)

    def rows_after(self, computed, position: int) -> list[layout.Row]:
        """Rows the sheet shows after the event at ``position`` besides its own."""
        return []

    def standings(self, computed) -> list[layout.Standing]:
        return layout.totals_standings(computed)

    def ended_by(self, computed) -> str:
        return self.ruleset.ended_by_label(computed.ended_by)

    def status_headline(self, computed) -> str:
        """What the status panel of a running match says first ("" nothing)."""
        return ""

    def status_facts(self, computed, standings) -> list[tuple[str, Any]]:
        """The facts of a running match: (label, value)."""
        return [(_("Next game"), len(computed.games) + 1), (_("Games counted"), len(computed.counted_games)),
                (_("Leader"), layout.leader_fact(standings))]

    def standings_heading(self, computed) -> str:
        """The heading of the standing below the sheet ("": no standing shown)."""
        return "" if computed.status == "annulled" else _("Running totals")

    def header_facts(self, computed) -> list[str]:
        """The match's settings as the page's header names them (none: the game has none)."""
        return []

    def empty_sheet(self, computed) -> str:
        """What the sheet says before the first game."""
        return str(_("No game yet."))

    def entry_facts(self, computed) -> list[str]:
        """What the entry page says under "Game N"."""
        return [self.name, *self.header_facts(computed)]

    # -- the season workbook (league/spreadsheets/exports.py) ----------------------------------
    def workbook_columns(self) -> tuple[list[Column], list[Column]]:
        """The Spiele sheet's columns only this game has, asked when a workbook is written (in
        its language): those before the scores (what each player's line records) and those
        after "Annulliert" (what the Spiel records once). None: the scores say it all."""
        return [], []

    def workbook_rows(self, computed, game) -> Iterator[tuple[str, list, list]]:
        """The rows of one computed Spiel: (player, the values of the columns before the
        scores, those after them), as :meth:`workbook_columns` orders them."""
        for player in computed.players:
            yield player, [], []

    def pdf_options(self, match) -> dict[str, Any]:
        """The stored match's facts its printed sheet shows besides the engine's answer: the
        confirmations given in the app (player -> when), printed on the signature lines."""
        from django.utils.formats import date_format
        from django.utils.timezone import localtime

        from protocol import confirmations

        return {"confirmations": {name: date_format(localtime(given.at), "SHORT_DATETIME_FORMAT")
                                  for name, given in confirmations.confirmed_names(match).items()}}
