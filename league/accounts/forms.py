"""The forms of the account pages. Free text goes through the one validator
(:class:`league.texts.NameField`); passwords through Django's validators (settings)."""

from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import SetPasswordMixin
from django.contrib.auth.validators import UnicodeUsernameValidator
from django.utils.text import slugify
from django.utils.translation import gettext_lazy as _

from league.forms import USERNAME_ATTRS
from league.models import Club
from league.registry.texts import NameField


def username_field(**extra):
    return forms.CharField(
        label=_("User name"), max_length=150, validators=[UnicodeUsernameValidator()],
        widget=forms.TextInput(attrs={**USERNAME_ATTRS, "autocomplete": "username"}),
        help_text=_("For logging in: letters, digits and @ . + - _ only, no spaces."), **extra)


def clean_new_username(username):
    """A user name nobody has, in any capitalisation ("Anna" beside "anna" would be a trap)."""
    if get_user_model().objects.filter(username__iexact=username).exists():
        raise forms.ValidationError(_("The user name “%(username)s” is taken. Please choose another."),
                                    code="taken", params={"username": username})
    return username


def suggested_username(name: str) -> str:
    """A free user name made from a member's name ("Anna-Lena Groß" -> "anna-lena-gross")."""
    base = slugify(name.replace("ß", "ss"))[:140] or "mitglied"
    candidate, number = base, 1
    while get_user_model().objects.filter(username__iexact=candidate).exists():
        number += 1
        candidate = f"{base}{number}"
    return candidate


class FirstRunForm(SetPasswordMixin, forms.Form):
    """The site's first club and its secretary."""

    club_name = NameField(label=_("Name of the club"), max_length=120)
    place = NameField(label=_("Town"), max_length=80, required=False)
    display_name = NameField(label=_("Your name"), max_length=80,
                             help_text=_("As the club knows you, e.g. “Sabine” or “Sabine S.”."))
    plays = forms.BooleanField(label=_("I play in the club myself"), required=False, initial=True,
                               help_text=_("Then you appear in the club's tables, under your name."))
    username = username_field()
    password1, password2 = SetPasswordMixin.create_password_fields(label1=_("Password"),
                                                                   label2=_("Password (again)"))

    def clean_club_name(self):
        name = self.cleaned_data["club_name"]
        if Club.objects.filter(name=name).exists():
            raise forms.ValidationError(_("Another club already has this name."), code="unique")
        return name

    def clean_username(self):
        return clean_new_username(self.cleaned_data["username"])

    def clean(self):
        self.validate_passwords()
        user = get_user_model()(username=self.cleaned_data.get("username", ""),
                                first_name=self.cleaned_data.get("display_name", ""))
        self.validate_password_for_user(user)
        return super().clean()


class NewAccountForm(SetPasswordMixin, forms.Form):
    """An invited member without an account: a user name and a password."""

    username = username_field()
    password1, password2 = SetPasswordMixin.create_password_fields(label1=_("Password"),
                                                                   label2=_("Password (again)"))

    def __init__(self, *args, member, **kwargs):
        super().__init__(*args, **kwargs)
        self.member = member
        self.fields["username"].initial = suggested_username(member.name)

    def clean_username(self):
        return clean_new_username(self.cleaned_data["username"])

    def clean(self):
        self.validate_passwords()
        self.validate_password_for_user(self.new_user())
        return super().clean()

    def new_user(self):
        return get_user_model()(username=self.cleaned_data.get("username", ""), first_name=self.member.name)

    def save(self):
        """The account, saved and linked to the member (the caller holds the transaction)."""
        user = self.set_password_and_save(self.new_user())
        self.member.user = user
        self.member.save(update_fields=["user"])
        return user


class ProfileForm(forms.ModelForm):
    """A person's own name on the site and the address for "Passwort vergessen?" mails."""

    first_name = NameField(label=_("First name"), max_length=150)
    last_name = NameField(label=_("Last name"), max_length=150, required=False)

    class Meta:
        model = get_user_model()
        fields = ["first_name", "last_name", "email"]
        labels = {"email": _("Email address")}
        help_texts = {"email": _("Only for a link when you forget your password. Nobody else sees it.")}
