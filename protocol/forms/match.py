"""The header of a new Partie: date, place, season, seating, Protokollant and settings."""

from __future__ import annotations

import copy

from django import forms
from django.utils.translation import gettext_lazy as _

from league.models import Season
from league.registry.fields import PlausibleDateField
from league.registry.texts import NameField, lookalike_member, names_problem
from protocol import games, rules
from protocol.forms.settings import GameSettingsFields
from protocol.rules import RULESETS
from protocol.rules.text import fold, lookalike_message, normalise

MAX_SEATS = max(r.max_players for r in RULESETS.values())

# A season that can't be chosen for a new Partie (a tournament's, or one posted by hand).
SEASON_REFUSED = _("This season can't be chosen: a match goes into a league season of its own game, "
                   "and a tournament's matches are the tables of its rounds.")


class SeasonSelect(forms.Select):
    """The seasons, each option naming its game (``data-ruleset``): match.js shows only the
    chosen game's. The server refuses a season of another game anyway (matches.create_match)."""

    def create_option(self, name, value, label, selected, index, subindex=None, attrs=None):
        option = super().create_option(name, value, label, selected, index, subindex, attrs)
        season = getattr(value, "instance", None)
        if season is not None:
            option["attrs"]["data-ruleset"] = season.ruleset
        return option


def league_seasons(field: forms.ModelChoiceField, club, game: str | None = None) -> None:
    """Offer the club's league seasons (of ``game`` only, if given) in ``field``, named with their game."""
    seasons = club.seasons.filter(mode=Season.Mode.LEAGUE)
    field.queryset = seasons.filter(ruleset=game) if game else seasons
    field.empty_label = "–"
    field.error_messages["invalid_choice"] = SEASON_REFUSED
    if game is None:
        names = {key: r.name for key, r in RULESETS.items()}
        field.label_from_instance = lambda season: f"{season.name} ({names.get(season.ruleset, season.ruleset)})"


def ruleset_table() -> list[tuple[str, str, int, int]]:
    """Per ruleset: key, name, fewest and most players (the engine's limits)."""
    return [(key, r.name, r.min_players, r.max_players)
            for key, r in RULESETS.items()]


class NewMatchForm(GameSettingsFields):
    """The header of a new Partie; the settings fields of every game that has any (only the
    chosen game's are asked: match.js hides the others, and only they are required)."""

    ruleset = forms.ChoiceField(label=_("Game"), choices=rules.choices,
                                initial=games.DEFAULT, widget=forms.RadioSelect, required=False)
    date = PlausibleDateField(label=_("Date"))
    place = NameField(label=_("Place"), required=False, max_length=80)
    season = forms.ModelChoiceField(label=_("Season"), queryset=None, required=False, widget=SeasonSelect)
    guests = forms.CharField(
        label=_("Guests"), required=False, max_length=300,
        help_text=_("Names separated by commas; they join the table after the chosen seats."))
    scorekeeper = forms.ChoiceField(label=_("Scorekeeper (Protokollant)"), required=False,
                                    help_text=_("One of the players (Art. 4). Empty: the first player."))

    field_order = ["ruleset", "date", "place", "season"]

    def __init__(self, *args, club, **kwargs):
        super().__init__(*args, **kwargs)
        self.club = club
        chosen = self.chosen_ruleset()
        for plugin in games.PLUGINS.values():
            for name, field in plugin.settings_form.base_fields.items() if plugin.has_settings else ():
                self.fields[name] = copy.deepcopy(field)
                if plugin.key != chosen:  # another game's settings are not asked
                    self.fields[name].required = False
        league_seasons(self.fields["season"], club)
        active = list(club.members.filter(active=True))
        self.fields["scorekeeper"].choices = [("", "–")] + [(m.name, m.name) for m in active]
        members = [("", "–")] + [(m.pk, m.name) for m in active]
        for i in range(MAX_SEATS):
            self.fields[f"seat{i}"] = forms.TypedChoiceField(
                label=_("Seat %(n)s") % {"n": i + 1}, choices=members, coerce=int, required=False, empty_value=None)

    def chosen_ruleset(self) -> str:
        return (self.data.get("ruleset") if self.is_bound else None) or self.fields["ruleset"].initial

    def game_settings(self) -> list:
        """The settings fields of each game that has any, as (plug-in, bound fields), for the page."""
        return [(plugin, [self[name] for name in plugin.settings_form.base_fields])
                for plugin in games.PLUGINS.values() if plugin.has_settings]

    def settings(self, players: int) -> dict:
        """The settings of the chosen game (its own fields say what is stored)."""
        plugin = games.plugin(self.cleaned_data.get("ruleset") or games.DEFAULT)
        return plugin.settings_form.settings_of(self.cleaned_data, players) if plugin.has_settings else {}

    def seat_fields(self):
        return [self[f"seat{i}"] for i in range(MAX_SEATS)]

    def clean(self):
        data = super().clean()
        data["ruleset"] = data.get("ruleset") or games.DEFAULT
        chosen = [data.get(f"seat{i}") for i in range(MAX_SEATS) if data.get(f"seat{i}")]
        if len(set(chosen)) != len(chosen):
            raise forms.ValidationError(_("Each member can sit at the table only once."))
        guests = [normalise(g.strip()) for g in (data.get("guests") or "").split(",") if g.strip()]
        self._check_guests(guests, chosen)
        data["guest_names"] = guests
        data["member_ids"] = chosen
        return data

    def _check_guests(self, guests: list[str], member_ids: list[int]) -> None:
        """Each guest name passes the text boundary (protocol.rules.text), no two guests and no
        guest and seated member look alike, and a guest is not a lookalike of a club member
        ("bernd" for Bernd): he would be a second Bernd in every table."""
        if problem := names_problem(guests, str(self.fields["guests"].label)):
            self.add_error("guests", problem)
            return
        seated = {fold(m.name): m.name for m in self.club.members.filter(pk__in=member_ids)}
        for guest in guests:
            if fold(guest) in seated:
                self.add_error("guests", lookalike_message(seated[fold(guest)], guest))
                return
            if (member := lookalike_member(self.club, guest)) is not None:
                self.add_error("guests", _("The club has a member “%(member)s”; “%(guest)s” can't be told apart "
                                           "from them. Choose the member as a seat or write the guest's name "
                                           "so that it differs, e.g. with an initial.")
                               % {"member": member.name, "guest": guest})
                return
