"""The Spiel entry of Chaotentrumpf: trump (directly or by the Trumpfwahl), inversions, a
line per player, and the optional annulment."""

from __future__ import annotations

import functools

from django import forms
from django.template.loader import render_to_string
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from protocol.forms.game import FixedChoiceField, GameEntryForm, fresh_copy, shallow_copy
from protocol.forms.settings import GameSettingsFields
from protocol.games.chaotentrumpf.rules.cards import RANK_NAMES, decks_for_players
from protocol.games.chaotentrumpf.rules.inversion import KIND_NAMES, KINDS
from protocol.games.chaotentrumpf.rules.settings import MAX_PLAYERS, default_settings
from protocol.games.chaotentrumpf.rules.trump import LEVEL_NAMES, LEVEL_VALUES

from . import entry_form
from .entry_form import LINE_FIELDS, MAX_INVERSIONS

LINE_LABELS = {"tricks": _("Tricks"), "points": _("Card points"), "trumps": _("Trumps")}


def _value_label(level: str, value: str) -> str:
    return RANK_NAMES[value] if level == "rank" else value


TRUMP_CHOICES = [("", "–")] + [
    (LEVEL_NAMES[level], [(f"{level}:{v}", _value_label(level, v)) for v in values])
    for level, values in LEVEL_VALUES.items()
]
TARGET_CHOICES = TRUMP_CHOICES + [(LEVEL_NAMES["card"], [("card", _("A single card …"))])]
# Art. 11b: each kind in plain words, what it needs and where it leads (the name alone says little).
KIND_WORDS = {
    "normal": _("Normal: to the opposite (6 cards in a row)"),
    "total": _("Total: any trump of the same level (8 cards in a row)"),
    "ultra": _("Ultra: any trump of any level (6 of one suit)"),
    "totalultra": _("Total-ultra: also a single card (8 of one suit)"),
}
KIND_CHOICES = [("", "–")] + [(k, KIND_WORDS.get(k, KIND_NAMES[k])) for k in KINDS]
INVERSION_FIELDS = ("player", "declared", "target", "card")
INVERSIONS_TEMPLATE = "chaotentrumpf/inversions.html"
# The blank inversion panel of these players in this language, as written (GameForm.inversions_panel).
_BLANK_PANELS: dict[tuple, str] = {}
BLANK_PANELS = 256


@functools.lru_cache(maxsize=64)
def _inversion_fields(players: tuple[str, ...]) -> dict[str, forms.Field]:
    """The fields of the inversion rows for these players, made once per process: Django
    normalizes a field's choices whenever it is made or deep-copied, 40 fields of nested
    choices per form, two thirds of a Spiel form's making. Each form gets shallow
    copies: they share the choices, widgets and messages, which a form only reads (the labels
    are lazy, so the same fields serve every language)."""
    player_choices = [("", "–")] + [(p, p) for p in players]
    fields: dict[str, forms.Field] = {}
    for j in range(MAX_INVERSIONS):
        fields[f"inv{j}_player"] = forms.ChoiceField(label=_("Who inverts"), choices=player_choices, required=False)
        fields[f"inv{j}_declared"] = forms.ChoiceField(label=_("With which inversion"), choices=KIND_CHOICES, required=False)
        fields[f"inv{j}_target"] = forms.ChoiceField(label=_("To which trump"), choices=TARGET_CHOICES, required=False)
        fields[f"inv{j}_card"] = forms.CharField(
            label=_("Card"), required=False, max_length=3,
            widget=forms.TextInput(attrs={"size": 3, "autocapitalize": "characters", "placeholder": "KD"}))
    return fields


@functools.lru_cache(maxsize=256)
def _line_fields(indexed: tuple[tuple[int, str], ...], language: str) -> dict[str, forms.Field]:
    """Each player's line (Stiche, Augen, Trümpfe) by seat, labelled in ``language``: made
    once per process, each form gets copies of its own (``fresh_copy``: it marks them)."""
    return {f"p{i}_{name}": forms.IntegerField(
        label=f"{LINE_LABELS[name]} {player}", required=True,
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "class": "num", "min": "0"}))
        for i, player in indexed for name in LINE_FIELDS}


class GameForm(GameEntryForm):
    """One Spiel. ``players`` are the players of the Spiel (the stage's, in seating order)."""

    first_field = "trump"
    mapping = entry_form

    trump_mode = FixedChoiceField(
        label=_("Trump"), choices=[("direct", _("Choose directly")), ("selection", _("From the revealed cards"))],
        initial="direct", widget=forms.RadioSelect)
    # Large buttons grouped by level (radio inputs styled as buttons): one tap, no list to open.
    trump = FixedChoiceField(label=_("Trump"), choices=TRUMP_CHOICES, required=False, widget=forms.RadioSelect)
    selection_cards = forms.CharField(
        label=_("Revealed cards"), required=False, max_length=200,
        help_text=_("In order, e.g. “X8 H8 P7” (X Kreuz, P Pik, H Herz, K Karo; A K D B 10 9 8 7)."),
        widget=forms.TextInput(attrs={"autocapitalize": "characters", "autocomplete": "off", "spellcheck": "false"}))
    selection_agreed = forms.BooleanField(label=_("The players agreed on the last card"), required=False)

    def __init__(self, *args, players: list[str], seats: list[str] | None = None, **kwargs):
        super().__init__(*args, players=players, seats=seats, **kwargs)
        # A new entry puts the cursor on its first field not pre-filled (a correction starts filled):
        # the first trump button (fields.html).
        self.focus_trump = not self.is_bound and not self.initial.get("trump") and not self.points_mode
        for name, field in _line_fields(tuple(self.indexed()), get_language()).items():
            self.fields[name] = fresh_copy(field)
        for name, field in _inversion_fields(tuple(players)).items():
            self.fields[name] = shallow_copy(field)
        self.join_groups()  # the columns: a sum's error marks every player's input of it

    # -- rows for the template --------------------------------------------------------------
    def player_rows(self):
        return [(i, player, [self[f"p{i}_{name}"] for name in LINE_FIELDS]) for i, player in self.indexed()]

    def trump_groups(self) -> list[tuple[str, list]]:
        """The trump buttons by level (Farbe, Spielfarbe, Wert): ``[(level name, [radio, ...])]``."""
        groups: dict[str, list] = {}
        for radio in self["trump"]:
            level, _sep, value = str(radio.data["value"]).partition(":")
            if value:
                groups.setdefault(level, []).append(radio)
        return [(LEVEL_NAMES[level], radios) for level, radios in groups.items()]

    def inversion_rows(self):
        return [[self[f"inv{j}_{name}"] for name in INVERSION_FIELDS] for j in range(MAX_INVERSIONS)]

    def inversions_blank(self) -> bool:
        """No inversion typed, pre-filled or refused: the panel is the same for every Spiel of these players."""
        names = [f"inv{j}_{name}" for j in range(MAX_INVERSIONS) for name in INVERSION_FIELDS]
        return not any(self[name].value() for name in names) and not any(name in self.errors for name in names)

    def inversions_panel(self) -> str:
        """The inversion rows (chaotentrumpf/inversions.html). Blank, as on every new Spiel, the
        panel is the same HTML for these players in this language: written once per process
        (its 40 inputs with their option lists and slots were a third of a Spiel page's
        rendering); a deploy starts new processes, so it is never an old template's."""
        if not self.inversions_blank():
            return render_to_string(INVERSIONS_TEMPLATE, {"form": self})
        key = (tuple(self.players), get_language(), self.prefix, self.auto_id)
        html = _BLANK_PANELS.get(key)
        if html is None:
            html = render_to_string(INVERSIONS_TEMPLATE, {"form": self})
            if len(_BLANK_PANELS) >= BLANK_PANELS:
                _BLANK_PANELS.clear()
            _BLANK_PANELS[key] = html
        return html


# -- the settings of a Partie ------------------------------------------------------------------

SETTING_FIELDS = ("limit", "cards_per_deal", "decks", "no_trump_points", "no_trick_points",
                  "scorekeeper_skips_shuffling", "max_games")


def decks_table() -> list[tuple[int, int]]:
    """Art. 3b for the page: players -> Blätter."""
    return [(n, decks_for_players(n)) for n in range(2, MAX_PLAYERS + 1)]


class SettingsFields(GameSettingsFields):
    """The match settings with the Regelwerk's defaults; the rules engine checks them."""

    limit = forms.IntegerField(label=_("Upper limit (Obergrenze)"), initial=1000,
                               help_text=_("At least 1000; with more than 4 players at least 750 (Art. 17a)."))
    cards_per_deal = forms.TypedChoiceField(
        label=_("Cards per deal"), coerce=int, initial=5, choices=[(5, "5"), (4, "4"), (3, "3")],
        help_text=_("Dealt twice, so a hand holds twice as many (Art. 7, NÜV 2)."))
    decks = forms.IntegerField(label=_("Decks (Blätter)"), required=False,
                               help_text=_("Empty: as many as Art. 3b prescribes for the players; fewer by NÜV 1."))
    no_trump_points = forms.IntegerField(label=_("No trump in the tricks"), initial=-100,
                                         help_text=_("Art. 16a; other values by NÜV 5."))
    no_trick_points = forms.IntegerField(label=_("No trick"), initial=-200, help_text=_("Art. 16a; NÜV 5."))
    scorekeeper_skips_shuffling = forms.BooleanField(
        label=_("The scorekeeper does not shuffle"), required=False,
        help_text=_("Only with more than 3 players (Art. 5c)."))
    max_games = forms.IntegerField(label=_("Limit to a number of games"), required=False,
                                   help_text=_("Empty: no limit (Art. 17c)."))

    @staticmethod
    def settings_of(data: dict, players: int) -> dict:
        """Only what differs from the Regelwerk is stored; the rest stays the default."""
        defaults = default_settings(players)
        chosen = {k: data.get(k) for k in SETTING_FIELDS}
        if chosen["decks"] is None:
            chosen["decks"] = defaults["decks"]
        return {k: v for k, v in chosen.items() if v != defaults[k]}

    @staticmethod
    def initial_from(settings: dict, players: int) -> dict:
        return default_settings(players) | settings
