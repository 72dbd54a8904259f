"""The game entry of Doppelkopf: game type, dealer, the Re party, Re's card points, each
party's announcements and special points, a Verwurf, and the optional annulment
(protocol-format.md, "Doppelkopf").

The form checks only the shape of what was typed; the rules engine
(``protocol.rules.doppelkopf``) checks every rule, and its errors come back onto the fields.
A party's announcements are entered as the highest one it made: the format's list is the
prefix up to it ("keine 60" includes "Re" and "keine 90").
"""

from __future__ import annotations

import uuid

from django import forms
from django.utils.translation import gettext_lazy as _

from league.registry.texts import MultilineTextField
from protocol.rules.doppelkopf.game import ABSAGEN, PARTIES, PARTY_NAMES, TYPES

EXTRA_KINDS = ("doppelkopf", "fuchs", "karl", "herzstich")
EXTRA_LABELS = {"doppelkopf": _("Doppelkopf"), "fuchs": _("Fox caught"), "karl": _("Karl (last trick)"),
                "herzstich": _("Pure heart trick")}
TCG_ONLY_EXTRAS = {"herzstich"}  # the engine refuses it under DDV rules
# Errors of a group of inputs (not of one of them) go to a slot of the group's name.
GROUPS = ("announcements", "extras")
FIELDS = ("type", "dealer", "re", "re_points", "schwarz", "revoke", "annul_reason")


def announcement_choices(party: str) -> list[tuple[str, str]]:
    """``"n"``: the first n of [Re|Kontra, keine 90, keine 60, keine 30, schwarz]."""
    said = [PARTY_NAMES[party], *ABSAGEN]
    return [("", "–")] + [(str(n), said[n - 1]) for n in range(1, len(said) + 1)]


class GameForm(forms.Form):
    """One Doppelkopf game. ``players`` are those who may play (seating order), ``rules``
    the match's rule set (tcg | ddv)."""

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
    annulled = forms.BooleanField(label=_("Annul this game"), required=False)
    annul_reason = MultilineTextField(label=_("Reason for the annulment"), required=False, max_length=300)
    # never rendered as inputs: they carry the engine's errors of a whole group
    announcements = forms.CharField(required=False, widget=forms.HiddenInput)
    extras = forms.CharField(required=False, widget=forms.HiddenInput)
    version = forms.IntegerField(widget=forms.HiddenInput)
    submission = forms.UUIDField(widget=forms.HiddenInput, required=False)

    def __init__(self, *args, players: list[str], seats: list[str] | None = None, rules: str = "tcg", **kwargs):
        super().__init__(*args, **kwargs)
        self.players = players
        self.seats = seats or players
        # A new entry puts the cursor on its first field not pre-filled (a correction starts filled).
        if not self.is_bound and "re" in self.fields and not self.initial.get("re"):
            self.fields["re"].widget.attrs["autofocus"] = True
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
        if not self.is_bound and not self.initial.get("submission"):
            self.initial["submission"] = uuid.uuid4()

    def extra_kinds(self) -> tuple[str, ...]:
        return tuple(k for k in EXTRA_KINDS if self.rules == "tcg" or k not in TCG_ONLY_EXTRAS)

    # -- rows for the template --------------------------------------------------------------
    def party_names(self) -> list[str]:
        return [PARTY_NAMES[party] for party in PARTIES]

    def announcement_fields(self):
        """One select per party (Re, Kontra): the highest announcement it made."""
        return [self[f"{party}_announcement"] for party in PARTIES]

    def extra_rows(self):
        """Per kind of special point: its name and the count inputs of Re and Kontra."""
        return [(EXTRA_LABELS[kind], [self[f"{party}_{kind}"] for party in PARTIES]) for kind in self.extra_kinds()]

    def slot_names(self) -> list[str]:
        """The fields whose errors the page shows in a slot of their own (live preview)."""
        counts = [f"{party}_{kind}" for kind in self.extra_kinds() for party in PARTIES]
        return ["__all__", *FIELDS, *GROUPS, *counts]

    def is_complete(self) -> bool:
        """Enough typed for the engine to score the game (the live preview waits till then)."""
        data = self.data
        chosen = data.getlist("re") if hasattr(data, "getlist") else data.get("re")
        return all(str(data.get(k, "")).strip() for k in ("type", "dealer", "re_points")) and bool(chosen)

    # -- to the rules -----------------------------------------------------------------------
    def body(self) -> dict:
        """The game in protocol/1 form. Call after is_valid()."""
        data = self.cleaned_data
        chosen = set(data.get("re") or [])
        body: dict = {"type": data["type"], "dealer": data["dealer"],
                      "re": [p for p in self.players if p in chosen], "re_points": data["re_points"]}
        if data.get("schwarz"):
            body["schwarz"] = data["schwarz"]
        announcements = {}
        for party in PARTIES:
            level = int(data.get(f"{party}_announcement") or 0)
            if level:
                announcements[party] = [party, *ABSAGEN][:level]
        if announcements:
            body["announcements"] = announcements
        extras = {party: {kind: data.get(f"{party}_{kind}") or 0 for kind in self.extra_kinds()} for party in PARTIES}
        if any(n for counts in extras.values() for n in counts.values()):
            body["extras"] = extras
        if data.get("revoke"):
            body["revoke"] = data["revoke"]
        if data.get("annulled"):
            body["annulled"] = True
            body["annul_reason"] = data.get("annul_reason", "").strip()
        return body

    @classmethod
    def initial_from(cls, body: dict, players: list[str], seats: list[str]) -> dict:
        """Form data for correcting a stored game."""
        initial: dict = {key: body.get(key) for key in ("type", "dealer", "re", "re_points", "schwarz", "revoke")}
        initial["re"] = list(body.get("re") or [])
        for party in PARTIES:
            said = (body.get("announcements") or {}).get(party) or []
            initial[f"{party}_announcement"] = str(len(said)) if said else ""
            for kind, count in ((body.get("extras") or {}).get(party) or {}).items():
                initial[f"{party}_{kind}"] = count or None
        initial["annulled"] = bool(body.get("annulled"))
        initial["annul_reason"] = body.get("annul_reason", "")
        return initial

    # -- from the rules ---------------------------------------------------------------------
    def add_rule_errors(self, errors) -> None:
        """Put each RuleError next to the field (or the group of fields) it concerns."""
        for error in errors:
            self.add_error(self.field_for(error), error.message)

    def field_for(self, error) -> str | None:
        if error.field in FIELDS or error.field in GROUPS:
            return error.field
        return None
