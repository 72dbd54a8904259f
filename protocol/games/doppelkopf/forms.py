"""The game entry of Doppelkopf: game type, dealer, the Re party, Re's card points, each
party's announcements and special points, a Verwurf, and the optional annulment
(protocol-format.md, "Doppelkopf").

The form checks only the shape of what was typed; the rules engine
(``protocol.games.doppelkopf.rules``) checks every rule, and its errors come back onto the fields.
A party's announcements are entered as the highest one it made: the format's list is the
prefix up to it ("keine 60" includes "Re" and "keine 90").
"""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from protocol.forms.game import GameEntryForm
from protocol.forms.settings import GameSettingsFields
from protocol.games.doppelkopf.rules.game import ABSAGEN, PARTIES, PARTY_NAMES, TYPES
from protocol.games.doppelkopf.rules.settings import DEFAULT_RULES, RULES

from . import entry_form

EXTRA_LABELS = {"doppelkopf": _("Doppelkopf"), "fuchs": _("Fox caught"), "karl": _("Karl (last trick)"),
                "herzstich": _("Pure heart trick")}


def announcement_choices(party: str) -> list[tuple[str, str]]:
    """``"n"``: the first n of [Re|Kontra, keine 90, keine 60, keine 30, schwarz]."""
    said = [PARTY_NAMES[party], *ABSAGEN]
    return [("", "–")] + [(str(n), said[n - 1]) for n in range(1, len(said) + 1)]


class GameForm(GameEntryForm):
    """One Doppelkopf game. ``players`` are those who may play (seating order), ``rules``
    the match's rule set (tcg | ddv)."""

    first_field = "re"
    mapping = entry_form

    type = forms.ChoiceField(label=_("Game type"), choices=list(TYPES.items()), initial="normal")
    dealer = forms.ChoiceField(label=_("Dealer"))
    re = forms.MultipleChoiceField(label=_("Re party"), required=False, widget=forms.CheckboxSelectMultiple,
                                   help_text=_("In a solo only the soloist."))
    re_points = forms.IntegerField(
        label=_("Card points of Re"), help_text=_("Kontra has 240 minus these."),
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "class": "num", "min": "0"}))
    schwarz = forms.ChoiceField(label=_("Party without a trick (schwarz)"), required=False,
                                choices=[("", "–")] + [(p, PARTY_NAMES[p]) for p in PARTIES])
    revoke = forms.ChoiceField(label=_("Verwurf (revoke) by"), required=False)

    def __init__(self, *args, players: list[str], seats: list[str] | None = None, rules: str = "tcg", **kwargs):
        super().__init__(*args, players=players, seats=seats, **kwargs)
        self.rules = rules
        choices = [(p, p) for p in players]
        self.fields["dealer"].choices = [("", "–")] + choices
        self.fields["re"].choices = choices
        self.fields["revoke"].choices = [("", "–")] + choices
        for party in PARTIES:
            self.fields[f"{party}_announcement"] = forms.ChoiceField(
                label=_("Highest announcement of %(party)s") % {"party": PARTY_NAMES[party]},
                choices=announcement_choices(party), required=False)
            for kind in self.extra_kinds():
                self.fields[f"{party}_{kind}"] = forms.IntegerField(
                    label=f"{EXTRA_LABELS[kind]} {PARTY_NAMES[party]}", required=False,
                    widget=forms.NumberInput(attrs={"inputmode": "numeric", "class": "num", "min": "0",
                                                    "placeholder": "0"}))
        self.join_groups()  # the announcements, the special points: their errors as a whole

    def extra_kinds(self) -> tuple[str, ...]:
        return entry_form.extra_kinds(self.rules)

    # -- rows for the template --------------------------------------------------------------
    def party_names(self) -> list[str]:
        return [PARTY_NAMES[party] for party in PARTIES]

    def announcement_fields(self):
        """One select per party (Re, Kontra): the highest announcement it made."""
        return [self[f"{party}_announcement"] for party in PARTIES]

    def extra_rows(self):
        """Per kind of special point: its name and the count inputs of Re and Kontra."""
        return [(EXTRA_LABELS[kind], [self[f"{party}_{kind}"] for party in PARTIES]) for kind in self.extra_kinds()]

    def entry_options(self) -> dict:
        return {"rules": self.rules}


class SettingsFields(GameSettingsFields):
    """The one setting of a Doppelkopf match: the rule set the table plays."""

    rules = forms.ChoiceField(label=_("Doppelkopf rules"), choices=list(RULES.items()),
                              initial=DEFAULT_RULES, widget=forms.RadioSelect,
                              help_text=_("TCG: the club tournament rules (40 cards); DDV: the German "
                                          "Doppelkopf federation's tournament rules (48 cards)."))

    @staticmethod
    def settings_of(data: dict, players: int) -> dict:
        return {"rules": data.get("rules") or DEFAULT_RULES}

    @staticmethod
    def initial_from(settings: dict, players: int) -> dict:
        return {"rules": DEFAULT_RULES} | settings
