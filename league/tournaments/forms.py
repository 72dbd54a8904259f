"""The tournament's forms: turning a season into a tournament (its game, rules and format)
and a new round (its date and the players present, checked against the tables the game seats).
"""

from django import forms
from django.utils.formats import date_format
from django.utils.translation import gettext_lazy as _

from league.forms import keeps_its_game
from league.models import Member, Season, tournament_formats
from league.registry.fields import PlausibleDateField
from league.tournaments.seating import NoSeating, table_sizes
from protocol import rules
from protocol.rules import DEFAULT as DEFAULT_RULESET
from protocol.rules import RULESETS


def game_fields() -> dict[str, tuple[str, ...]]:
    """game -> the tournament settings that are its own: "rules" where its rules have several
    sets (``Ruleset.rule_variants``), "tournament_format" where they fix positions and deals."""
    return {key: tuple(name for name, asked in (("rules", ruleset.rule_variants),
                                                ("tournament_format", ruleset.tournament_formats)) if asked)
            for key, ruleset in RULESETS.items()}


class TournamentForm(forms.ModelForm):
    """Turn a season into a tournament (or back): the game, its rules and format, the rule
    the table ranks by. Once a round has its matches, the game and its rules stay."""

    # The rules of a game with several sets (Ruleset.rule_variants): every table plays by them.
    rules = forms.ChoiceField(
        label=_("Rules"), widget=forms.RadioSelect,
        choices=lambda: [choice for ruleset in RULESETS.values() for choice in ruleset.rule_variants.items()])

    class Meta:
        model = Season
        fields = ["mode", "ruleset", "rules", "tournament_format", "ranking_rule", "two_agree", "round_minutes"]
        labels = {"mode": _("Mode"), "ruleset": _("Game"), "tournament_format": _("Positions and deals"),
                  "ranking_rule": _("Ranking rule"), "two_agree": _("Two at the table agree"),
                  "round_minutes": _("Minutes per round")}
        help_texts = {
            "mode": _("A tournament seats the players present at drawn tables, round by round, "
                      "and each table plays one match."),
            "ranking_rule": _("The TCG rule adds up each round's points per game × 100; the FFT rule adds "
                              "up the points."),
        }
        widgets = {"mode": forms.RadioSelect}

    GAME_SETTINGS = ("rules", "tournament_format")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        season = self.instance
        # Each game's own settings: only the chosen game's are asked for (and kept): the rules
        # it plays by where it has several, the positions and deals where its rules fix them.
        self.game_fields = game_fields()
        for name in self.GAME_SETTINGS:  # each for the games it is theirs
            games = [RULESETS[key].name for key, names in self.game_fields.items() if name in names]
            self.fields[name].help_text = (
                _("Only for %(games)s: every table of the tournament plays by them.") if name == "rules" else
                _("Only for %(games)s: the number of positions and the deals at each.")) % {"games": ", ".join(games)}
        self.initial_game = season.ruleset or DEFAULT_RULESET
        # A new tournament offers the first game a tournament asks something of.
        first = next((key for key, names in self.game_fields.items() if names), DEFAULT_RULESET)
        self.fields["ruleset"].choices = rules.choices
        self.fields["ruleset"].initial = season.ruleset or first
        self.fields["rules"].initial = season.game_settings.get("rules", next(
            (ruleset.default_variant for ruleset in RULESETS.values() if ruleset.rule_variants), ""))
        formats = tournament_formats()
        self.fields["tournament_format"].choices = formats
        self.fields["tournament_format"].initial = season.tournament_format or (formats[0][0] if formats else "")
        mode, game = self.data.get("mode"), self.data.get("ruleset")
        for name in ("ruleset", *self.GAME_SETTINGS):
            # asked for a tournament: its game, and that game's own settings
            self.fields[name].required = not self.is_bound or mode == Season.Mode.TOURNAMENT and (
                name == "ruleset" or name in self.game_fields.get(game, ()))
        self.played = season.pk is not None and season.rounds.filter(matches__isnull=False).exists()
        if self.played:  # the form shows why (templates/league/tournament_settings.html)
            for name in ("mode", "ruleset", "rules", "tournament_format"):
                self.fields[name].disabled = True
                self.fields[name].required = False

    def clean(self):
        data = super().clean()
        season = Season.objects.get(pk=self.instance.pk) if self.instance.pk else None  # as stored
        if data.get("mode") != Season.Mode.TOURNAMENT and season and season.rounds.exists():
            self.add_error("mode", forms.ValidationError(
                _("The season has rounds; it stays a tournament."), code="has_rounds"))
        if data.get("mode") == Season.Mode.TOURNAMENT and season and season.matches.filter(round=None).exists():
            self.add_error("mode", forms.ValidationError(
                _("The season has matches of its own; a tournament's matches are only the tables of its rounds."),
                code="has_matches"))
        if season and data.get("ruleset") and "ruleset" not in self.errors:
            try:
                keeps_its_game(season, data["ruleset"])
            except forms.ValidationError as error:
                self.add_error("ruleset", error)
        return data

    def save(self, commit=True):
        season, data = self.instance, self.cleaned_data
        if season.mode != Season.Mode.TOURNAMENT:
            # a league season keeps its game (every season has one); the tournament's settings go
            season.ruleset = data.get("ruleset") or self.initial_game
            season.tournament_format, season.game_settings = "", {}
        else:
            asked = self.game_fields.get(season.ruleset, ())
            season.game_settings = {"rules": data["rules"]} if "rules" in asked else {}
            if "tournament_format" not in asked:
                season.tournament_format = ""
        return super().save(commit)


SIZE_WORDS = {(4, 5): _("four or five"), (3, 4, 5): _("three, four or five")}
OTHER_SIZE_WORDS = {(5,): _("tables of five"), (5, 3): _("tables of five or three")}


class RoundForm(forms.Form):
    """A new round: its date and the players present, checked against the table sizes the
    game allows and the tournament's number of positions (where its rules fix them)."""

    date = PlausibleDateField(label=_("Date"))
    players = forms.ModelMultipleChoiceField(
        label=_("Players present"), queryset=Member.objects.none(), widget=forms.CheckboxSelectMultiple)

    def __init__(self, *args, season, **kwargs):
        super().__init__(*args, **kwargs)
        self.season = season
        others = tuple(RULESETS[season.ruleset].table_sizes[1:])  # the sizes after the preferred four
        self.fields["players"].help_text = _(
            "Tables of four; when the number present is no multiple of four, as few %(tables)s as possible."
        ) % {"tables": OTHER_SIZE_WORDS.get(others, ", ".join(map(str, others)))}
        self.fields["players"].queryset = season.club.members.filter(active=True).order_by("name")

    def clean_date(self):
        date = self.cleaned_data["date"]
        if not self.season.start <= date <= self.season.end:
            raise forms.ValidationError(
                _("The round is played in the season, between %(start)s and %(end)s."), code="outside",
                params={"start": date_format(self.season.start, "SHORT_DATE_FORMAT"),
                        "end": date_format(self.season.end, "SHORT_DATE_FORMAT")})
        return date

    def clean_players(self):
        players = self.cleaned_data["players"]
        sizes = RULESETS[self.season.ruleset].table_sizes
        try:
            table_sizes(len(players), sizes)
        except NoSeating:
            raise forms.ValidationError(
                _("%(n)s players cannot be seated at tables of %(sizes)s. Please add or remove a player."),
                code="no_seating", params={"n": len(players), "sizes": SIZE_WORDS[tuple(sorted(sizes))]}) from None
        return players

    def clean(self):
        data = super().clean()
        limit = self.season.format_positions_deals
        if limit and self.season.rounds.count() >= limit[0]:
            raise forms.ValidationError(
                _("The tournament has %(n)s positions, and all of them are drawn."),
                code="all_drawn", params={"n": limit[0]})
        return data
