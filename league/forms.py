"""The Schriftführer's forms: members, seasons, the club's settings and its secretaries.

Each form knows its club, so that every "unique in the club" rule is checked here with a
German message at its field; the database constraints stay the last line of defence.
"""

import datetime

from django import forms
from django.contrib.auth import get_user_model
from django.utils.translation import gettext_lazy as _

from protocol import rules

from .models import LONGEST_CORRECTION_WINDOW, Club, Member, Season
from .registry.fields import DATE_INPUT, PlausibleDateField
from .registry.texts import NameField, lookalike, lookalike_member

# Phones capitalise the first letter; user names are typed exactly as they are.
USERNAME_ATTRS = {"autocapitalize": "none", "autocomplete": "off", "spellcheck": "false"}


def find_user(username):
    """The account with this user name; a differently capitalised name is accepted when
    it matches exactly one account. None if there is none."""
    User = get_user_model()
    exact = User.objects.filter(username=username).first()
    if exact is not None:
        return exact
    matches = list(User.objects.filter(username__iexact=username)[:2])
    return matches[0] if len(matches) == 1 else None


class MemberForm(forms.ModelForm):
    username = forms.CharField(
        label=_("User account"),
        required=False,
        max_length=150,
        widget=forms.TextInput(attrs=USERNAME_ATTRS),
        help_text=_("The user name of the member's login, if they have one. "
                    "Empty: the member has no account."),
    )

    class Meta:
        model = Member
        fields = ["name", "is_guest", "active", "joined"]
        labels = {"name": _("Name"), "is_guest": _("Guest"), "active": _("Active member"),
                  "joined": _("Member since")}
        help_texts = {
            "is_guest": _("Plays with the club without being a member."),
            "active": _("Former members stay in old protocols but are no longer offered "
                        "for new matches."),
        }
        widgets = {"joined": DATE_INPUT}
        field_classes = {"name": NameField, "joined": PlausibleDateField}

    field_order = ["name", "username", "is_guest", "active", "joined"]

    def __init__(self, *args, club, **kwargs):
        super().__init__(*args, **kwargs)
        self.club = club
        self.instance.club = club
        if self.instance.user_id:
            self.fields["username"].initial = self.instance.user.get_username()

    def clean_name(self):
        name = self.cleaned_data["name"]
        # the same name, or one that differs only by case or lookalike letters (protocol.rules.text.fold)
        same = (self.club.members.filter(name=name).exclude(pk=self.instance.pk).first()
                or lookalike_member(self.club, name, exclude_pk=self.instance.pk))
        if same is not None:
            raise forms.ValidationError(
                _("The club already has a member called “%(name)s”. Please choose a name "
                  "that tells them apart, e.g. with an initial."),
                code="unique", params={"name": same.name})
        return name

    def clean_username(self):
        username = self.cleaned_data["username"]
        if not username:
            return None
        user = find_user(username)
        if user is None:
            raise forms.ValidationError(
                _("There is no user account “%(username)s”."),
                code="unknown", params={"username": username})
        other = self.club.members.filter(user=user).exclude(pk=self.instance.pk).first()
        if other is not None:
            raise forms.ValidationError(
                _("The account “%(username)s” already belongs to the member “%(name)s” "
                  "of this club."),
                code="taken", params={"username": user.get_username(), "name": other.name})
        return user

    def save(self, commit=True):
        self.instance.user = self.cleaned_data["username"]
        return super().save(commit)


class SeasonForm(forms.ModelForm):
    class Meta:
        model = Season
        fields = ["name", "start", "end", "ruleset", "ranking_rule"]
        labels = {"name": _("Name"), "start": _("Start"), "end": _("End"), "ruleset": _("Game"),
                  "ranking_rule": _("Ranking rule")}
        help_texts = {
            "name": _("For example “2027” or “Winter 2026/27”."),
            "ruleset": _("Every match of the season is of this game."),
            "ranking_rule": _("How the table of this season is ordered."),
        }
        widgets = {"start": DATE_INPUT, "end": DATE_INPUT}
        field_classes = {"name": NameField, "start": PlausibleDateField, "end": PlausibleDateField}

    def __init__(self, *args, club, **kwargs):
        super().__init__(*args, **kwargs)
        self.club = club
        self.instance.club = club
        self.fields["ruleset"].required = False
        self.fields["ruleset"].choices = rules.choices  # no empty choice: every season has its game
        if self.instance.is_tournament:  # its game goes with its rules and format: the tournament's page
            self.fields["ruleset"].disabled = True
            self.fields["ruleset"].help_text = _("A tournament's game is set in its tournament settings.")

    def clean_name(self):
        name = self.cleaned_data["name"]
        same = self.club.seasons.filter(name__iexact=name).exclude(pk=self.instance.pk).first()
        if same is not None:
            raise forms.ValidationError(
                _("The club already has a season called “%(name)s”."),
                code="unique", params={"name": same.name})
        return name

    def clean_ruleset(self):
        # a browser always sends the chosen game; without one (a script) the season keeps its own
        game = self.cleaned_data["ruleset"] or self.instance.ruleset
        return keeps_its_game(self.instance, game)

    def clean(self):
        data = super().clean()
        start, end = data.get("start"), data.get("end")
        if start and end and end < start:
            # An error on `end` also keeps the model's own check (English) from repeating it.
            self.add_error("end", forms.ValidationError(
                _("The season cannot end before it starts."), code="end_before_start"))
        return data


def keeps_its_game(season: Season, game: str) -> str:
    """A season's game changes only while it has no match of the game it had."""
    if season.pk is not None and game != season.ruleset and season.matches.exclude(ruleset=game).exists():
        raise forms.ValidationError(
            _("The season has matches of %(game)s; it stays a season of %(game)s."),
            code="has_matches", params={"game": season.get_ruleset_display()})
    return game


# The units the correction window is typed in.
WINDOW_UNITS = {"days": datetime.timedelta(days=1), "hours": datetime.timedelta(hours=1),
                "minutes": datetime.timedelta(minutes=1)}


def window_unit(window: datetime.timedelta) -> str:
    """The unit a stored window is shown in: whole days beyond two days, whole hours up to
    there ("24 Stunden", "48 Stunden", as clubs say it), else minutes ("90 Minuten")."""
    if window % WINDOW_UNITS["hours"]:
        return "minutes"
    if window % WINDOW_UNITS["days"] or window <= 2 * WINDOW_UNITS["days"]:
        return "hours"
    return "days"


class ClubSettingsForm(forms.ModelForm):
    """The club's name, town, public table and correction window (a number and its unit:
    "30 Minuten", "48 Stunden"; ``league.registry.correction_window``)."""

    correction_window = forms.IntegerField(
        label=_("Correction window"),
        error_messages={"invalid": _("Please enter the correction window as a whole number, e.g. 24."),
                        "required": _("Please enter the correction window (0 for none).")},
        help_text=_("How long after the end of a match its scorekeeper may still correct the result "
                    "(bridge clubs: 30 minutes to 48 hours). Until then the result is provisional; "
                    "afterwards, or once every player has confirmed it, it is final and only a "
                    "secretary corrects it. From 0 minutes to 14 days."))
    correction_window_unit = forms.ChoiceField(
        label=_("Unit of the correction window"),
        choices=[("minutes", _("minutes")), ("hours", _("hours")), ("days", _("days"))])

    class Meta:
        model = Club
        fields = ["name", "place", "standings_public", "ratings_show_guests"]
        labels = {"name": _("Name of the club"), "place": _("Town"),
                  "standings_public": _("Table public")}
        help_texts = {
            "standings_public": _(
                "If ticked, anyone – even without an account – can see the club's table on "
                "the club page, and the club is listed on the home page. Members, matches and "
                "score sheets stay visible to members only."),
        }
        error_messages = {"name": {"unique": _("Another club already has this name.")}}
        field_classes = {"name": NameField, "place": NameField}

    def clean_name(self):
        name = self.cleaned_data["name"]
        # only by case or lookalike letters (protocol.rules.text.fold), as a member's name;
        # the same name exactly: the unique index's message above
        same = lookalike(Club.objects.all(), name, exclude_pk=self.instance.pk)
        if same is not None:
            raise forms.ValidationError(
                _("Another club is called “%(name)s”; this name can hardly be told from it. Please choose "
                  "a name that tells the clubs apart."),
                code="unique", params={"name": same.name})
        return name

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        window = self.instance.correction_window
        unit = window_unit(window)
        self.initial.setdefault("correction_window", window // WINDOW_UNITS[unit])
        self.initial.setdefault("correction_window_unit", unit)

    def clean(self):
        data = super().clean()
        amount, unit = data.get("correction_window"), data.get("correction_window_unit")
        if amount is None or unit is None:
            return data
        if amount < 0 or amount * WINDOW_UNITS[unit] > LONGEST_CORRECTION_WINDOW:
            self.add_error("correction_window", forms.ValidationError(
                _("The correction window must lie between 0 minutes and 14 days (entered: %(amount)s %(unit)s)."),
                code="out_of_bounds", params={"amount": amount, "unit": dict(self.fields["correction_window_unit"]
                                                                              .choices)[unit]}))
        else:
            self.instance.correction_window = amount * WINDOW_UNITS[unit]
        return data


class SecretaryAddForm(forms.Form):
    username = forms.CharField(label=_("User name"), max_length=150,
                               widget=forms.TextInput(attrs=USERNAME_ATTRS),
                               help_text=_("The person needs a user account on Trumpfbuch."))

    def __init__(self, *args, club, **kwargs):
        super().__init__(*args, **kwargs)
        self.club = club

    def clean_username(self):
        username = self.cleaned_data["username"]
        user = find_user(username)
        if user is None:
            raise forms.ValidationError(
                _("There is no user account “%(username)s”."),
                code="unknown", params={"username": username})
        if self.club.secretaries.filter(pk=user.pk).exists():
            raise forms.ValidationError(
                _("%(username)s is already a secretary of this club."),
                code="already", params={"username": user.get_username()})
        return user
