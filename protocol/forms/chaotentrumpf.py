"""The Spiel entry of Chaotentrumpf: trump (directly or by the Trumpfwahl), inversions, a
line per player, and the optional annulment."""

from __future__ import annotations

import re
import uuid

from django import forms
from django.utils.translation import gettext_lazy as _

from league.registry.texts import MultilineTextField
from protocol.rules.chaotentrumpf.cards import RANK_NAMES
from protocol.rules.chaotentrumpf.inversion import KIND_NAMES, KINDS
from protocol.rules.chaotentrumpf.trump import LEVEL_NAMES, LEVEL_VALUES

LINE_FIELDS = ("tricks", "points", "trumps")
LINE_LABELS = {"tricks": _("Tricks"), "points": _("Card points"), "trumps": _("Trumps")}


def _value_label(level: str, value: str) -> str:
    return RANK_NAMES[value] if level == "rank" else value


TRUMP_CHOICES = [("", "–")] + [
    (LEVEL_NAMES[level], [(f"{level}:{v}", _value_label(level, v)) for v in values])
    for level, values in LEVEL_VALUES.items()
]
TARGET_CHOICES = TRUMP_CHOICES + [(LEVEL_NAMES["card"], [("card", "Einzelne Karte …")])]
KIND_CHOICES = [("", "–")] + [(k, KIND_NAMES[k]) for k in KINDS]
MAX_INVERSIONS = 10


def trump_json(code: str) -> dict | None:
    level, _, value = code.partition(":")
    return {"level": level, "value": value} if value else None


def trump_code(trump: dict | None) -> str:
    return f"{trump['level']}:{trump['value']}" if isinstance(trump, dict) and "level" in trump else ""


class GameForm(forms.Form):
    """One Spiel. ``players`` are the players of the Spiel (the stage's, in seating order)."""

    trump_mode = forms.ChoiceField(
        label=_("Trump"), choices=[("direct", _("Choose directly")), ("selection", _("From the revealed cards"))],
        initial="direct", widget=forms.RadioSelect)
    trump = forms.ChoiceField(label=_("Trump"), choices=TRUMP_CHOICES, required=False)
    selection_cards = forms.CharField(
        label=_("Revealed cards"), required=False, max_length=200,
        help_text=_("In order, e.g. “X8 H8 P7” (X Kreuz, P Pik, H Herz, K Karo; A K D B 10 9 8 7)."),
        widget=forms.TextInput(attrs={"autocapitalize": "characters", "autocomplete": "off", "spellcheck": "false"}))
    selection_agreed = forms.BooleanField(label=_("The players agreed on the last card"), required=False)
    annulled = forms.BooleanField(label=_("Annul this game"), required=False)
    annul_reason = MultilineTextField(label=_("Reason for the annulment"), required=False, max_length=300)
    version = forms.IntegerField(widget=forms.HiddenInput)
    submission = forms.UUIDField(widget=forms.HiddenInput, required=False)

    def __init__(self, *args, players: list[str], seats: list[str] | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self.players = players
        # Fields are named by seat, so typed numbers stay with their player if the form is
        # shown again (a stale save, a Stechen that began meanwhile).
        self.seats = seats or players
        # A new entry puts the cursor on its first field not pre-filled (a correction starts filled).
        if not self.is_bound and "trump" in self.fields and not self.initial.get("trump"):
            self.fields["trump"].widget.attrs["autofocus"] = True
        for i, player in self.indexed():
            for name in LINE_FIELDS:
                self.fields[f"p{i}_{name}"] = forms.IntegerField(
                    label=f"{LINE_LABELS[name]} {player}", required=True,
                    widget=forms.NumberInput(attrs={"inputmode": "numeric", "class": "num", "min": "0"}))
        player_choices = [("", "–")] + [(p, p) for p in players]
        for j in range(MAX_INVERSIONS):
            self.fields[f"inv{j}_player"] = forms.ChoiceField(label=_("Player"), choices=player_choices, required=False)
            self.fields[f"inv{j}_declared"] = forms.ChoiceField(label=_("Inversion"), choices=KIND_CHOICES, required=False)
            self.fields[f"inv{j}_target"] = forms.ChoiceField(label=_("New trump"), choices=TARGET_CHOICES, required=False)
            self.fields[f"inv{j}_card"] = forms.CharField(
                label=_("Card"), required=False, max_length=3,
                widget=forms.TextInput(attrs={"size": 3, "autocapitalize": "characters", "placeholder": "KD"}))
        if not self.is_bound and not self.initial.get("submission"):
            self.initial["submission"] = uuid.uuid4()

    def indexed(self) -> list[tuple[int, str]]:
        return [(self.seats.index(player), player) for player in self.players]

    # -- rows for the template --------------------------------------------------------------
    def player_rows(self):
        return [(i, player, [self[f"p{i}_{name}"] for name in LINE_FIELDS]) for i, player in self.indexed()]

    def inversion_rows(self):
        return [[self[f"inv{j}_{name}"] for name in ("player", "declared", "target", "card")]
                for j in range(MAX_INVERSIONS)]

    def slot_names(self) -> list[str]:
        """The fields whose errors the page shows in a slot of their own (live preview)."""
        names = ["__all__", "trump", "selection_cards", "annul_reason"]
        names += [f"p{i}_{n}" for i, _ in self.indexed() for n in LINE_FIELDS]
        return names + [f"inv{j}_{n}" for j in range(MAX_INVERSIONS) for n in ("player", "declared", "target", "card")]

    # -- to the rules -----------------------------------------------------------------------
    def body(self) -> dict:
        """The Spiel in protocol/1 form. Call after is_valid()."""
        data = self.cleaned_data
        body: dict = {}
        if data.get("trump_mode") == "selection" and data.get("selection_cards"):
            cards = [c for c in re.split(r"[\s,;]+", data["selection_cards"].strip().upper()) if c]
            body["selection"] = {"cards": cards, "agreed": bool(data.get("selection_agreed"))}
        elif data.get("trump"):
            body["trump"] = trump_json(data["trump"])
        else:
            body["trump"] = None
        inversions = []
        for j in range(MAX_INVERSIONS):
            player, declared, target = (data.get(f"inv{j}_{n}") for n in ("player", "declared", "target"))
            if not (player or declared or target):
                continue
            if target == "card":
                target_json = {"level": "card", "value": (data.get(f"inv{j}_card") or "").strip().upper()}
            else:
                target_json = trump_json(target or "")
            inversions.append({"player": player, "declared": declared, "target": target_json})
        if inversions:
            body["inversions"] = inversions
        body["results"] = {
            player: {name: data[f"p{i}_{name}"] for name in LINE_FIELDS}
            for i, player in self.indexed()
        }
        if data.get("annulled"):
            body["annulled"] = True
            body["annul_reason"] = data.get("annul_reason", "").strip()
        return body

    @classmethod
    def initial_from(cls, body: dict, players: list[str], seats: list[str]) -> dict:
        """Form data for correcting a stored Spiel."""
        initial: dict = {"trump_mode": "direct", "trump": trump_code(body.get("trump"))}
        selection = body.get("selection")
        if selection:
            initial |= {"trump_mode": "selection", "selection_cards": " ".join(selection.get("cards", [])),
                        "selection_agreed": selection.get("agreed", False)}
        for j, inv in enumerate(body.get("inversions") or []):
            target = inv.get("target") or {}
            initial[f"inv{j}_player"] = inv.get("player")
            initial[f"inv{j}_declared"] = inv.get("declared")
            initial[f"inv{j}_target"] = "card" if target.get("level") == "card" else trump_code(target)
            if target.get("level") == "card":
                initial[f"inv{j}_card"] = target.get("value")
        for player in players:
            i = seats.index(player)
            line = (body.get("results") or {}).get(player) or {}
            for name in LINE_FIELDS:
                initial[f"p{i}_{name}"] = line.get(name)
        initial["annulled"] = bool(body.get("annulled"))
        initial["annul_reason"] = body.get("annul_reason", "")
        return initial

    # -- from the rules ---------------------------------------------------------------------
    def add_rule_errors(self, errors) -> None:
        """Put each RuleError next to the field it concerns."""
        for error in errors:
            self.add_error(self.field_for(error), error.message)

    def field_for(self, error) -> str | None:
        if error.player in self.players and error.field in LINE_FIELDS:
            return f"p{self.seats.index(error.player)}_{error.field}"
        if error.player in self.players and error.field is None:
            return f"p{self.seats.index(error.player)}_tricks"
        if error.field == "trump":
            return "selection_cards" if self.data.get("trump_mode") == "selection" else "trump"
        if error.field == "selection":
            return "selection_cards"
        if error.field == "annul_reason":
            return "annul_reason"
        if error.field == "inversions":
            for j in range(MAX_INVERSIONS):
                if error.player and self.data.get(f"inv{j}_player") == error.player:
                    return f"inv{j}_target"
        return None
