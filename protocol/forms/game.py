"""What the entry form of every game shares (each game's own is its ``forms.GameForm`` in
protocol/games/<game>/forms.py): the players, the annulment, the stale-form and
double-tap guards, and the engine's errors put on the fields they concern."""

from __future__ import annotations

import uuid

from django import forms
from django.utils.translation import gettext_lazy as _

from league.registry.texts import MultilineTextField


class GameEntryForm(forms.Form):
    """One game. ``players`` are those who play it (seating order), ``seats`` the whole table
    (fields are named by seat, so typed numbers stay with their player if the form is shown
    again: a stale save, a Stechen that began meanwhile).

    A subclass names ``first_field`` (the cursor starts there on a new entry) and
    ``error_fields`` (the engine's error fields that are its own field names)."""

    first_field = ""
    error_fields: tuple[str, ...] = ("annul_reason",)

    annulled = forms.BooleanField(label=_("Annul this game"), required=False)
    annul_reason = MultilineTextField(label=_("Reason for the annulment"), required=False, max_length=300)
    version = forms.IntegerField(widget=forms.HiddenInput)
    submission = forms.UUIDField(widget=forms.HiddenInput, required=False)

    def __init__(self, *args, players: list[str], seats: list[str] | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self.players = players
        self.seats = seats or players
        # A new entry puts the cursor on its first field not pre-filled (a correction starts filled).
        if not self.is_bound and self.first_field in self.fields and not self.initial.get(self.first_field):
            self.fields[self.first_field].widget.attrs["autofocus"] = True
        if not self.is_bound and not self.initial.get("submission"):
            self.initial["submission"] = uuid.uuid4()

    def indexed(self) -> list[tuple[int, str]]:
        """(seat, player) of the players of this game."""
        return [(self.seats.index(player), player) for player in self.players]

    def annulment(self) -> dict:
        """The annulment's part of the game body (nothing if the game counts). Call after is_valid()."""
        data = self.cleaned_data
        if not data.get("annulled"):
            return {}
        return {"annulled": True, "annul_reason": data.get("annul_reason", "").strip()}

    @staticmethod
    def annulment_initial(body: dict) -> dict:
        return {"annulled": bool(body.get("annulled")), "annul_reason": body.get("annul_reason", "")}

    # -- from the rules ---------------------------------------------------------------------
    def add_rule_errors(self, errors) -> None:
        """Put each RuleError next to the field it concerns (the form's top if none)."""
        for error in errors:
            self.add_error(self.field_for(error), error.message)

    def field_for(self, error) -> str | None:
        return error.field if error.field in self.error_fields else None
