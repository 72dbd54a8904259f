"""Chaotentrumpf's site plug-in: the Spiel form, the sheet with Mischer, trump and Stechen,
the Losentscheid, the paper protocol's transcription and the simulated table.

The rules are protocol/games/chaotentrumpf/rules/; this folder only lays out and asks them.
"""

from __future__ import annotations

from typing import Any

from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from protocol.plugin import Plugin, Wording
from protocol.sheet.rows import leader_fact

from . import forms, presentation


class Chaotentrumpf(Plugin):
    key = "chaotentrumpf"
    form_class = forms.GameForm
    settings_form = forms.SettingsFields
    wording = Wording(
        game_annulled=gettext_lazy("The game was annulled; it stays on the sheet, struck through (SV 4)."),
        annulled_game_explained=gettext_lazy(
            "An annulled game stays on the sheet, struck through, and counts for nothing (SV 4)."),
        annul_game=gettext_lazy("Annul this game (SV 4)"),
        match_annulled=gettext_lazy("The match was annulled (SV 4). It stays in the archive."),
        annul_match=gettext_lazy("Annul the whole match (SV 4)"),
        match_annulled_state=gettext_lazy("This match was annulled (SV 4) and counts for nothing."),
        end_title=gettext_lazy("End the match (Art. 17c)"),
        end_button=gettext_lazy("End by time (Art. 17c)"),
        end_explained=gettext_lazy("The highest total wins; a tie at the top is settled by a tie-break (Art. 17c)."),
        details_intro=gettext_lazy("How each score came about, according to Art. 16."),
        seating_help=gettext_lazy("Choose the players in their seating order. The player left of the "
                                  "scorekeeper shuffles first (Art. 5b)."),
    )
    end_choices = [("time", gettext_lazy("The agreed time is up")),
                   ("agreed", gettext_lazy("The players agreed to stop"))]  # Art. 17c
    fields_template = "chaotentrumpf/fields.html"
    preview_template = "chaotentrumpf/preview.html"
    sheet_heading = gettext_lazy("Shuffler · Trump")
    sheet_style = ""
    settings_template = "chaotentrumpf/settings.html"
    blank_sheet_template = "chaotentrumpf/blank_sheet.html"

    @property
    def notation(self):
        from . import notation
        return notation

    @property
    def lots(self):
        from . import lots
        return lots

    @property
    def transcription(self):
        from . import transcription
        return transcription

    @property
    def simulation(self):
        from . import simulation
        return simulation

    def workbook_columns(self):
        return self.part("workbook").columns()

    def workbook_rows(self, computed, game):
        return self.part("workbook").rows(computed, game)

    @property
    def decks_table(self) -> list[tuple[int, int]]:
        return forms.decks_table()

    # -- who plays: the stage under way (the Partie or a Stechen, Art. 17b) ---------------------
    def can_end(self, computed) -> bool:
        return computed.current_stage is not None

    def players_of(self, computed, game) -> list[str]:
        return game.players

    def new_initial(self, computed) -> dict:
        return self.mode_initial(computed)  # the Mischer is the page's to say (Art. 5b), not a field

    # -- the page -------------------------------------------------------------------------------
    def rows_after(self, computed, position: int):
        return presentation.stechen_rows(computed, position)

    def game_details(self, computed, rows, links) -> list[str]:
        return presentation.game_details(computed, rows, links)

    def standings(self, computed):
        return presentation.standings(computed)

    def status_headline(self, computed) -> str:
        stage = computed.current_stage
        if stage is None or not stage.depth:
            return ""
        return _("Tie-break: %(players)s play to %(limit)s (Art. 17b).") % {
            "players": ", ".join(stage.players), "limit": stage.limit}

    def status_facts(self, computed, standings) -> list[tuple[str, Any]]:
        leader = standings[0] if standings else None
        return [(_("Next game"), len(computed.games) + 1),
                (_("Shuffler"), format_html("<strong>{}</strong>", computed.next_shuffler)),
                (_("Leader"), leader_fact(standings)),
                (_("Still needed to win"), leader.to_limit if leader else "")]

    def standings_heading(self, computed) -> str:
        stage = computed.current_stage
        if stage is None:
            return ""
        return _("Tie-break standing") if stage.depth else _("Standing")

    def header_facts(self, computed) -> list[str]:
        settings = computed.settings
        return [f"{_('Upper limit')} {settings.limit}", f"{settings.decks} {_('decks')}",
                f"{settings.hand} {_('cards per hand')}"]

    def empty_sheet(self, computed) -> str:
        return f"{_('No game yet. The first shuffler is')} {computed.next_shuffler}."

    def entry_facts(self, computed) -> list[str]:
        facts = [format_html("{}: <strong>{}</strong>", _("Shuffler"), computed.next_shuffler)]
        stage = computed.current_stage
        if stage is not None and stage.depth:
            facts.append(_("Tie-break of %(players)s to %(limit)s") % {
                "players": ", ".join(stage.players), "limit": stage.limit})
        return facts


PLUGIN = Chaotentrumpf()
