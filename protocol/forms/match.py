"""The header of a new Partie: date, place, season, seating, Protokollant and settings."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from league.models import Season
from league.registry.fields import PlausibleDateField
from league.registry.texts import NameField, lookalike_member, names_problem
from protocol.rules import RULESETS
from protocol.rules.chaotentrumpf.cards import decks_for_players
from protocol.rules.chaotentrumpf.settings import MAX_PLAYERS, default_settings
from protocol.rules.doppelkopf.settings import DEFAULT_RULES as DOPPELKOPF_DEFAULT_RULES
from protocol.rules.doppelkopf.settings import RULES as DOPPELKOPF_RULES
from protocol.rules.text import fold, lookalike_message, normalise

SETTING_FIELDS = ("limit", "cards_per_deal", "decks", "no_trump_points", "no_trick_points",
                  "scorekeeper_skips_shuffling", "max_games")


def decks_table() -> list[tuple[int, int]]:
    """Art. 3b for the page: players -> Blätter."""
    return [(n, decks_for_players(n)) for n in range(2, MAX_PLAYERS + 1)]


class SettingsFields(forms.Form):
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

    def settings(self, players: int) -> dict:
        """Only what differs from the Regelwerk is stored; the rest stays the default."""
        defaults = default_settings(players)
        chosen = {k: self.cleaned_data.get(k) for k in SETTING_FIELDS}
        if chosen["decks"] is None:
            chosen["decks"] = defaults["decks"]
        return {k: v for k, v in chosen.items() if v != defaults[k]}

    @staticmethod
    def initial_from(settings: dict, players: int) -> dict:
        return default_settings(players) | settings

    def add_rule_errors(self, errors) -> None:
        for error in errors:
            name = (error.field or "").removeprefix("settings.")
            self.add_error(name if name in self.fields else None, error.message)


class DoppelkopfSettingsFields(forms.Form):
    """The one setting of a Doppelkopf match: the rule set the table plays."""

    rules = forms.ChoiceField(label=_("Doppelkopf rules"), choices=list(DOPPELKOPF_RULES.items()),
                              initial=DOPPELKOPF_DEFAULT_RULES, widget=forms.RadioSelect,
                              help_text=_("TCG: the club tournament rules (40 cards); DDV: the German "
                                          "Doppelkopf federation's tournament rules (48 cards)."))

    def settings(self, players: int) -> dict:
        return {"rules": self.cleaned_data["rules"]}

    @staticmethod
    def initial_from(settings: dict, players: int) -> dict:
        return {"rules": DOPPELKOPF_DEFAULT_RULES} | settings

    def add_rule_errors(self, errors) -> None:
        for error in errors:
            name = (error.field or "").removeprefix("settings.")
            self.add_error(name if name in self.fields else None, error.message)


# A season that can't be chosen for a new Partie (a tournament's, or one posted by hand).
SEASON_REFUSED = _("This season can't be chosen: a match goes into a league season of its own game, "
                   "and a tournament's matches are the tables of its rounds.")


class SeasonSelect(forms.Select):
    """The seasons, each option naming its game (``data-ruleset``): match.js shows only the
    chosen game's. The server refuses a season of another game anyway (services.create_match)."""

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


class NewMatchForm(SettingsFields):
    ruleset = forms.ChoiceField(label=_("Game"), choices=[(key, r.name) for key, r in RULESETS.items()],
                                initial="chaotentrumpf", widget=forms.RadioSelect, required=False)
    rules = DoppelkopfSettingsFields.base_fields["rules"]
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
        if chosen != "chaotentrumpf":
            for name in SETTING_FIELDS:  # the Chaotentrumpf settings are not asked then
                self.fields[name].required = False
        if self.is_bound and chosen != "doppelkopf":
            self.fields["rules"].required = False
        league_seasons(self.fields["season"], club)
        active = list(club.members.filter(active=True))
        self.fields["scorekeeper"].choices = [("", "–")] + [(m.name, m.name) for m in active]
        members = [("", "–")] + [(m.pk, m.name) for m in active]
        for i in range(MAX_PLAYERS):
            self.fields[f"seat{i}"] = forms.TypedChoiceField(
                label=_("Seat %(n)s") % {"n": i + 1}, choices=members, coerce=int, required=False, empty_value=None)

    def chosen_ruleset(self) -> str:
        return (self.data.get("ruleset") if self.is_bound else None) or self.fields["ruleset"].initial

    def settings(self, players: int) -> dict:
        """The settings of the chosen ruleset (Chaotentrumpf: only what differs from the Regelwerk)."""
        ruleset = self.cleaned_data.get("ruleset")
        if ruleset == "doppelkopf":
            return {"rules": self.cleaned_data.get("rules") or DOPPELKOPF_DEFAULT_RULES}
        if ruleset != "chaotentrumpf":
            return {}
        return super().settings(players)

    def seat_fields(self):
        return [self[f"seat{i}"] for i in range(MAX_PLAYERS)]

    def clean(self):
        data = super().clean()
        data["ruleset"] = data.get("ruleset") or "chaotentrumpf"
        chosen = [data.get(f"seat{i}") for i in range(MAX_PLAYERS) if data.get(f"seat{i}")]
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
