"""The Schriftführer's forms: members, seasons, the club's settings and its secretaries.

Each form knows its club, so that every "unique in the club" rule is checked here with a
German message at its field; the database constraints stay the last line of defence.
"""

from django import forms
from django.contrib.auth import get_user_model
from django.utils.translation import gettext_lazy as _

from .models import Club, Member, Season

DATE_INPUT = forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")
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

    field_order = ["name", "username", "is_guest", "active", "joined"]

    def __init__(self, *args, club, **kwargs):
        super().__init__(*args, **kwargs)
        self.club = club
        self.instance.club = club
        if self.instance.user_id:
            self.fields["username"].initial = self.instance.user.get_username()

    def clean_name(self):
        name = self.cleaned_data["name"]
        same = self.club.members.filter(name__iexact=name).exclude(pk=self.instance.pk).first()
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
        fields = ["name", "start", "end", "ranking_rule"]
        labels = {"name": _("Name"), "start": _("Start"), "end": _("End"),
                  "ranking_rule": _("Ranking rule")}
        help_texts = {
            "name": _("For example “2027” or “Winter 2026/27”."),
            "ranking_rule": _("How the table of this season is ordered."),
        }
        widgets = {"start": DATE_INPUT, "end": DATE_INPUT}

    def __init__(self, *args, club, **kwargs):
        super().__init__(*args, **kwargs)
        self.club = club
        self.instance.club = club

    def clean_name(self):
        name = self.cleaned_data["name"]
        same = self.club.seasons.filter(name__iexact=name).exclude(pk=self.instance.pk).first()
        if same is not None:
            raise forms.ValidationError(
                _("The club already has a season called “%(name)s”."),
                code="unique", params={"name": same.name})
        return name

    def clean(self):
        data = super().clean()
        start, end = data.get("start"), data.get("end")
        if start and end and end < start:
            # An error on `end` also keeps the model's own check (English) from repeating it.
            self.add_error("end", forms.ValidationError(
                _("The season cannot end before it starts."), code="end_before_start"))
        return data


class ClubSettingsForm(forms.ModelForm):
    class Meta:
        model = Club
        fields = ["name", "place", "standings_public"]
        labels = {"name": _("Name of the club"), "place": _("Town"),
                  "standings_public": _("Table public")}
        help_texts = {
            "standings_public": _(
                "If ticked, anyone – even without an account – can see the club's table on "
                "the club page, and the club is listed on the home page. Members, matches and "
                "score sheets stay visible to members only."),
        }
        error_messages = {"name": {"unique": _("Another club already has this name.")}}


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
