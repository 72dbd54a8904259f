"""What the entry form of every game shares (each game's own is its ``forms.GameForm`` in
protocol/games/<game>/forms.py): the players, the annulment, the stale-form and
double-tap guards, the switch "points only" with a points input per player (for a game
whose entry mapping offers it, protocol/entry_form/points.py), and the engine's errors put
on the fields they concern."""

from __future__ import annotations

import functools
import uuid
from types import ModuleType

from django import forms
from django.forms.renderers import Jinja2
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from league.registry.texts import MultilineTextField
from protocol import entry_form
from protocol.entry_form import points

# Django's Jinja2 form renderer with Django's own widget templates, which write the same HTML
# (a quotation mark in a typed value escaped as &#34;, not &quot;):
# the Spiel form of four players has some 25 inputs, written before every Spiel, at every live
# check and for every correction, and the form page took 17 ms with the template language
# writing them, 10 ms with Jinja2. One instance, so that its environment is made once per process.
WIDGETS = Jinja2()


class FixedChoiceField(forms.ChoiceField):
    """A choice field whose options are fixed for the process (a module's list of pairs and
    groups): each form's copy of it shares them. Django's copy deep-copies every option, 0.1
    ms a form for the trump's thirty options in their groups, at every opening, live check and
    save of a Spiel. Nothing changes options in place (a form sets a new list instead), so the
    copy has a list of its own holding the same pairs and groups."""

    def __deepcopy__(self, memo):
        result = forms.Field.__deepcopy__(self, memo)  # its widget, error messages and validators its own
        result._choices = list(self._choices)
        return result


def shallow_copy(obj):
    """``copy.copy(obj)`` of a field or a widget, without the copy module's generic way (its
    reduction protocol: five times as long, for some sixty inputs a Spiel form)."""
    clone = object.__new__(type(obj))
    clone.__dict__.update(obj.__dict__)
    return clone


def fresh_copy(field: forms.Field) -> forms.Field:
    """``copy.deepcopy(field)`` as Django's field and widget copy themselves (``__deepcopy__``:
    the field, its widget and the widget's attributes, its messages and validators each its
    own), for a field whose widget has no options: a tenth of the time. A form's inputs made
    of its players are made once per process and language and copied so for each form (a
    Spiel form made its twenty anew every time)."""
    assert not hasattr(field.widget, "choices"), field
    clone = shallow_copy(field)
    clone.widget = shallow_copy(field.widget)
    clone.widget.attrs = dict(field.widget.attrs)
    clone.error_messages, clone.validators = dict(field.error_messages), list(field.validators)
    return clone


def _blank_is_empty(field: forms.Field) -> bool:
    """Whether ``field`` cleans a blank input to "" and no more: an optional text or choice of
    Django's own (a subclass may clean otherwise), read from the data by its name alone."""
    if field.required or field.disabled:
        return False
    kind = type(field)
    if not (kind is forms.ChoiceField or kind is FixedChoiceField or (kind is forms.CharField and field.empty_value == "")):
        return False
    reads = type(field.widget).value_from_datadict
    return (reads is forms.Widget.value_from_datadict or reads is forms.widgets.ChoiceWidget.value_from_datadict) \
        and not getattr(field.widget, "allow_multiple_selected", False)


@functools.lru_cache(maxsize=256)
def _points_fields(players: tuple[str, ...], seats: tuple[str, ...], language: str) -> dict[str, forms.Field]:
    """The points input of each player (``fresh_copy`` for each form), in ``language``."""
    # Read by the entry mapping: the engine names a wrong or missing number at its input.
    # A number input without inputmode: the phone's keyboard has the minus sign.
    return {points.field_name(player, list(seats)): forms.CharField(
        label=_("Points of %(player)s") % {"player": player}, required=False, max_length=12,
        widget=forms.NumberInput(attrs={"class": "num", "step": "1", "autocomplete": "off"})) for player in players}


class EntryTokens(forms.Form):
    """What an entry form carries of its own request: the version the save claims (a stale
    form is refused) and the save's one-time id (a double tap saves once). With the kept
    inputs of a new Spiel (protocol/forms/kept.py) the page needs no more of the form."""

    default_renderer = WIDGETS
    version = forms.IntegerField(widget=forms.HiddenInput)
    submission = forms.UUIDField(widget=forms.HiddenInput, required=False)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if not self.is_bound and not self.initial.get("submission"):
            self.initial["submission"] = uuid.uuid4()


class GameEntryForm(EntryTokens):
    """One game. ``players`` are those who play it (seating order), ``seats`` the whole table
    (fields are named by seat, so typed numbers stay with their player if the form is shown
    again: a stale save, a Stechen that began meanwhile).

    A subclass names ``first_field`` (the cursor starts there on a new entry) and ``mapping``
    (protocol/games/<game>/entry_form.py: the body from the fields, an error's field, the preview's slots),
    and calls :meth:`join_groups` once its inputs are made."""

    field_order = ["annulled", "annul_reason", "version", "submission", "points_only"]  # as before the tokens were shared
    first_field = ""
    mapping: ModuleType  # the game's entry mapping (its entry_form.py): fields <-> the engine

    annulled = forms.BooleanField(label=_("Annul this game"), required=False)
    annul_reason = MultilineTextField(label=_("Reason for the annulment"), required=False, max_length=300)
    # A switch the browser submits (no script needed); the page shows the inputs of its mode (site.css).
    points_only = forms.BooleanField(
        label=_("Points only"), required=False,
        help_text=_("Only the points per player were noted, not the facts behind them."),
        widget=forms.CheckboxInput(attrs={"role": "switch"}))

    def __init__(self, *args, players: list[str], seats: list[str] | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self.players = players
        self.seats = seats or players
        if self.offers_points:
            for name, field in _points_fields(tuple(self.players), tuple(self.seats), get_language()).items():
                self.fields[name] = fresh_copy(field)
            if not self.is_bound and self.points_mode:  # the cursor starts on the first player's points
                self.fields.get(self.first_field, forms.Field()).widget.attrs.pop("autofocus", None)
                self.fields[points.field_name(self.players[0], self.seats)].widget.attrs["autofocus"] = True
        else:
            del self.fields[points.SWITCH]
        # A new entry puts the cursor on its first field not pre-filled (a correction starts filled).
        if not self.is_bound and self.first_field in self.fields and not self.initial.get(self.first_field):
            self.fields[self.first_field].widget.attrs["autofocus"] = True

    @property
    def offers_points(self) -> bool:
        """The game takes a Spiel recorded as points only (its entry mapping names the facts noted)."""
        return points.offered(self.mapping)

    @property
    def points_mode(self) -> bool:
        """The switch is on: as typed, or as the form opened (a correction of such a Spiel, the
        Partie's last Spiel recorded so)."""
        if not self.offers_points:
            return False
        if self.is_bound:
            return points.chosen(self.mapping, {points.SWITCH: self.data.get(self.add_prefix(points.SWITCH))})
        return bool(self.initial.get(points.SWITCH))

    def point_rows(self):
        """(player, his points input) of each player of the Spiel (a Stechen: the tied players)."""
        return [(player, self[points.field_name(player, self.seats)]) for player in self.players]

    def _clean_fields(self):
        """Django's cleaning of each field, but an optional plain input left blank (the blank
        inversion rows of a Spiel, some forty inputs) is cleaned as Django cleans it without the
        steps between: a text or a choice left empty is "" (``to_python``; no validator runs on
        an empty value). Django made a bound field of each and ran them all, a third of a
        Spiel's check at every save and live check."""
        data = self.data
        for name, field in self.fields.items():
            if _blank_is_empty(field) and not data.get(self.add_prefix(name)) and not hasattr(self, f"clean_{name}"):
                self.cleaned_data[name] = ""
                continue
            try:
                self.cleaned_data[name] = field._clean_bound_field(self[name])
                if hasattr(self, f"clean_{name}"):
                    self.cleaned_data[name] = getattr(self, f"clean_{name}")()
            except forms.ValidationError as e:
                self.add_error(name, e)

    def full_clean(self):
        # Points only: what the mode does not ask for is not required, and what was typed in an
        # input it hides (before the switch) is not read, so it cannot hold the Spiel back.
        if not self.points_mode:
            return super().full_clean()
        for name, field in self.fields.items():
            if name not in ("version", "submission"):
                field.required = False
        super().full_clean()
        kept = points.kept_fields(self.mapping, self.players, self.seats) | {"version", "submission"}
        for name in [name for name in self._errors if name not in kept and name != "__all__"]:
            del self._errors[name]
        return None

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
        """The game in protocol/1 form, in the mode the switch chose. Call after is_valid()."""
        return entry_form.body_of(self.mapping, self.cleaned_data, self.players, self.seats, **self.entry_options())

    @classmethod
    def initial_from(cls, body: dict, players: list[str], seats: list[str]) -> dict:
        """Form data for correcting a stored game (in the mode it was recorded in)."""
        return entry_form.initial_of(cls.mapping, body, players, seats) | cls.annulment_initial(body)

    def slot_names(self) -> list[str]:
        """The fields whose errors the page shows in a slot of their own (live preview)."""
        return entry_form.slots_of(self.mapping, self.players, self.seats, **self.entry_options())

    def groups(self) -> dict[str, list[str]]:
        """Group -> its inputs (a column of the lines, the special points, the points): an engine's
        error of a whole group (a sum) sits in the group's slot and marks each of its inputs."""
        return entry_form.groups_of(self.mapping, self.players, self.seats, **self.entry_options())

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
        return entry_form.complete_of(self.mapping, self.data, self.players, self.seats, **self.entry_options())

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
        return entry_form.field_of(self.mapping, error, self.data, self.players, self.seats, **self.entry_options())
