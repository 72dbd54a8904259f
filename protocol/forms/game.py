"""What the entry form of every game shares (each game's own is its ``forms.GameForm`` in
protocol/games/<game>/forms.py): the players, the annulment, the stale-form and
double-tap guards, and the engine's errors put on the fields they concern."""

from __future__ import annotations

import uuid
from types import ModuleType

from django import forms
from django.utils.translation import gettext_lazy as _

from league.registry.texts import MultilineTextField


class GameEntryForm(forms.Form):
    """One game. ``players`` are those who play it (seating order), ``seats`` the whole table
    (fields are named by seat, so typed numbers stay with their player if the form is shown
    again: a stale save, a Stechen that began meanwhile).

    A subclass names ``first_field`` (the cursor starts there on a new entry) and ``mapping``
    (protocol/games/<game>/entry_form.py: the body from the fields, an error's field, the preview's slots),
    and calls :meth:`join_groups` once its inputs are made."""

    first_field = ""
    mapping: ModuleType  # the game's entry mapping (its entry_form.py): fields <-> the engine

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

    @staticmethod
    def annulment_initial(body: dict) -> dict:
        return {"annulled": bool(body.get("annulled")), "annul_reason": body.get("annul_reason", "")}

    # -- through protocol/entry_form/<game>.py (the same code the offline entry page runs) ------
    def entry_options(self) -> dict:
        """The match's options the game's entry mapping reads (Doppelkopf: its rules)."""
        return {}

    def body(self) -> dict:
        """The game in protocol/1 form. Call after is_valid()."""
        return self.mapping.body(self.cleaned_data, self.players, self.seats, **self.entry_options())

    @classmethod
    def initial_from(cls, body: dict, players: list[str], seats: list[str]) -> dict:
        """Form data for correcting a stored game."""
        return cls.mapping.initial(body, players, seats) | cls.annulment_initial(body)

    def slot_names(self) -> list[str]:
        """The fields whose errors the page shows in a slot of their own (live preview)."""
        return self.mapping.slot_names(self.players, self.seats, **self.entry_options())

    def groups(self) -> dict[str, list[str]]:
        """Group -> its inputs (a column of the lines, the special points): an engine's error of a
        whole group (a sum) sits in the group's slot and marks each of its inputs."""
        return self.mapping.groups(self.players, self.seats, **self.entry_options())

    def join_groups(self) -> None:
        """Each group gets a field that is never rendered as an input (it carries the group's
        errors) and each input of it names the group (``data-group``): the live check and the
        offline page mark the inputs by it when the group's slot fills (static/js/match.js)."""
        for group, names in self.groups().items():
            self.fields.setdefault(group, forms.CharField(required=False, widget=forms.HiddenInput))
            for name in names:
                attrs = self.fields[name].widget.attrs
                attrs["data-group"] = " ".join(filter(None, [attrs.get("data-group"), group]))

    def is_complete(self) -> bool:
        """Enough typed for the engine to score the game (the live preview waits till then)."""
        return self.mapping.is_complete(self.data, self.players, self.seats, **self.entry_options())

    # -- from the rules ---------------------------------------------------------------------
    def add_rule_errors(self, errors) -> None:
        """Put each RuleError next to the field it concerns (the form's top if none)."""
        for error in errors:
            self.add_error(self.field_for(error), error.message)
        for group, names in self.groups().items():
            if group in self.errors:  # a sum: each input of the group is marked and points to it
                for name in names:
                    attrs = self.fields[name].widget.attrs
                    attrs["aria-invalid"] = "true"
                    attrs["aria-describedby"] = " ".join(filter(None, [attrs.get("aria-describedby"), f"err-{group}"]))

    def field_for(self, error) -> str | None:
        return self.mapping.field_for(error, self.data, self.players, self.seats, **self.entry_options())
