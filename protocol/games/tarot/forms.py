"""The deal entry of French Tarot: dealer, taker, contract, the called partner (five
players), the attack's oudlers and card points, petit au bout, the poignées shown, a chelem,
the deal declared null, and the optional annulment (protocol-format.md, "Tarot").

The form checks only the shape of what was typed (the points are a number, with a comma or
a point); the rules engine (``protocol.games.tarot.rules``) checks every rule, and its errors come
back onto the fields.
"""

from __future__ import annotations

import re

from django import forms
from django.utils.translation import gettext_lazy as _

from protocol.forms.game import GameEntryForm
from protocol.games.tarot.rules.scoring import CHELEM_NAMES, CONTRACT_NAMES, OUDLERS, POIGNEE_NAMES, POIGNEE_TRUMPS

from . import entry_form

SIDE_CHOICES = [("", _("nobody")), ("attack", _("the attack")), ("defence", _("the defence"))]
NUMBER = re.compile(r"^-?\d+(?:[.,]\d+)?$")


class HalfPointsField(forms.Field):
    """Card points as typed at the table: "49", "40,5" or "40.5" (the engine checks the range
    and the halves)."""

    widget = forms.TextInput
    default_error_messages = {"invalid": _("Enter the points as a number, e.g. 49 or 40.5.")}

    def to_python(self, value):
        value = str(value if value is not None else "").strip()
        if not value:
            return None
        if len(value) > 10 or not NUMBER.match(value):
            raise forms.ValidationError(self.error_messages["invalid"], code="invalid")
        number = float(value.replace(",", "."))
        return int(number) if number.is_integer() else number


class GameForm(GameEntryForm):
    """One deal. ``players`` are the players of the deal (seating order); fields per player
    are named by seat, so a choice stays with its player when the form is shown again."""

    first_field = "taker"
    mapping = entry_form

    dealer = forms.ChoiceField(label=_("Dealer"))
    taker = forms.ChoiceField(label=_("Taker"), required=False, widget=forms.RadioSelect)
    contract = forms.ChoiceField(label=_("Contract"), required=False, widget=forms.RadioSelect,
                                 choices=list(CONTRACT_NAMES.items()))
    oudlers = forms.ChoiceField(label=_("Oudlers (bouts) of the attack"), required=False, widget=forms.RadioSelect,
                                choices=[(str(n), str(n)) for n in range(OUDLERS + 1)])
    points = HalfPointsField(
        label=_("Card points of the attack"), required=False,
        help_text=_("Halves allowed, e.g. 40.5."),
        widget=forms.TextInput(attrs={"inputmode": "decimal", "class": "num", "autocomplete": "off"}))
    petit_au_bout = forms.ChoiceField(label=_("Petit au bout taken by"), required=False,
                                      widget=forms.RadioSelect, choices=SIDE_CHOICES, initial="")
    chelem = forms.ChoiceField(label=_("Chelem"), required=False,
                               choices=[("", "–")] + list(CHELEM_NAMES.items()))
    null = forms.BooleanField(label=_("The deal was declared null (scores 0)"), required=False)

    def __init__(self, *args, players: list[str], seats: list[str] | None = None, **kwargs):
        super().__init__(*args, players=players, seats=seats, **kwargs)
        choices = [(p, p) for p in players]
        self.fields["dealer"].choices = [("", "–")] + choices
        self.fields["taker"].choices = choices
        if self.with_partner:
            self.fields["partner"] = forms.ChoiceField(
                label=_("Partner (holds the called king)"), required=False,
                choices=[("", _("nobody (alone)"))] + choices)  # short: the select is narrow on a phone
        trumps = POIGNEE_TRUMPS.get(len(players), {})
        sizes = [("", "–")] + [(size, f"{name} ({trumps[size]})" if size in trumps else name)
                               for size, name in POIGNEE_NAMES.items()]
        for i, player in self.indexed():
            self.fields[f"p{i}_poignee"] = forms.ChoiceField(label=_("Poignée of %(player)s") % {"player": player},
                                                             choices=sizes, required=False)
        self.join_groups()  # the poignées together

    @property
    def with_partner(self) -> bool:
        """Only at a table of five the taker calls a king (the engine refuses a partner otherwise)."""
        return entry_form.with_partner(self.players)

    # -- rows for the template --------------------------------------------------------------
    def poignee_rows(self):
        return [(player, self[f"p{i}_poignee"]) for i, player in self.indexed()]

    def extras_given(self) -> bool:
        """A poignée or a chelem is entered (their panel then shows open)."""
        names = ["chelem"] + [f"p{i}_poignee" for i, _p in self.indexed()]
        return any(self[name].value() for name in names)
