"""The Zählspiel's entry form: a number per player; the engine checks them (rules.py)."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from protocol.forms.game import GameEntryForm

from . import entry_form


class GameForm(GameEntryForm):
    mapping = entry_form
    dealer = forms.ChoiceField(label=_("Dealer"), required=False)

    def __init__(self, *args, players: list[str], seats: list[str] | None = None, **kwargs):
        super().__init__(*args, players=players, seats=seats, **kwargs)
        self.fields["dealer"].choices = [("", "–")] + [(p, p) for p in players]
        for _seat, player in self.indexed():
            self.fields[entry_form.field_name(player, self.seats)] = forms.IntegerField(
                label=player, required=False, widget=forms.NumberInput(attrs={"inputmode": "numeric", "class": "num"}))
        self.first_field = entry_form.field_name(self.players[0], self.seats)
        self.join_groups()

    def point_fields(self):
        return [self[entry_form.field_name(player, self.seats)] for player in self.players]


