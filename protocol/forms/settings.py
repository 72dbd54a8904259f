"""What the settings fields of every game share: the settings dict, the initial values, the
engine's errors on their fields. Each game's own fields are its ``forms.SettingsFields``
(protocol/games/<game>/forms.py)."""

from __future__ import annotations

from django import forms


class GameSettingsFields(forms.Form):
    """A game's match settings; the rules engine checks them."""

    def settings(self, players: int) -> dict:
        return self.settings_of(self.cleaned_data, players)

    @staticmethod
    def settings_of(data: dict, players: int) -> dict:
        """The settings to store, from the cleaned data of these fields."""
        raise NotImplementedError

    @staticmethod
    def initial_from(settings: dict, players: int) -> dict:
        """The fields' values for stored settings."""
        raise NotImplementedError

    def add_rule_errors(self, errors) -> None:
        for error in errors:
            name = (error.field or "").removeprefix("settings.")
            self.add_error(name if name in self.fields else None, error.message)
