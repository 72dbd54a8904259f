"""``python manage.py create_club "NAME" --secretary USER``: a club and its Schriftführer.

For a site that the operator sets up from the shell (or a federation that adds clubs). A new
secretary account gets no password here: the command prints a one-time link with which the
secretary sets it (Django's password-reset token, valid for PASSWORD_RESET_TIMEOUT, three
days by default). The link starts with SITE_URL or --base-url. An existing account becomes
the club's secretary and keeps its password. Exit 1 when the club exists or a value is bad.
"""

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError

from league.accounts.first_run import found_club, password_link
from league.accounts.forms import username_field
from league.models import Club
from league.registry.texts import NameField, lookalike


class Command(BaseCommand):
    help = "Create a club and its secretary; print a one-time link to set the secretary's password."

    def add_arguments(self, parser):
        parser.add_argument("name", help="the club's name")
        parser.add_argument("--secretary", required=True, help="the secretary's user name (new or existing)")
        parser.add_argument("--place", default="", help="the club's town")
        parser.add_argument("--base-url", default=None,
                            help="the site's address for the link, e.g. https://trumpfbuch.example (default: SITE_URL)")

    def handle(self, *args, **options):
        base_url = (options["base_url"] or settings.SITE_URL).rstrip("/")
        if not base_url.startswith(("http://", "https://")):
            raise CommandError("Die Adresse der Seite fehlt: SITE_URL setzen oder --base-url "
                               "https://trumpfbuch.example angeben.", returncode=1)
        try:  # the same checks as the site's forms
            name = NameField(label="Vereinsname", max_length=120).clean(options["name"])
            place = NameField(label="Ort", max_length=80, required=False).clean(options["place"])
            username = username_field().clean(options["secretary"])
        except ValidationError as error:
            raise CommandError(" ".join(error.messages), returncode=1) from None
        if Club.objects.filter(name=name).exists():
            raise CommandError(f"Es gibt schon einen Verein {name!r}.", returncode=1)
        if (same := lookalike(Club.objects.all(), name)) is not None:  # case or lookalike letters
            raise CommandError(f"Es gibt schon einen Verein {same.name!r}; {name!r} ist davon kaum zu unterscheiden. "
                               "Bitte einen Namen wählen, der die Vereine unterscheidet.", returncode=1)
        existing = get_user_model().objects.filter(username=username).first()
        club, user = found_club(name, place=place, secretary=username, display_name="")
        self.stdout.write(f"Verein {club.name!r} angelegt: {base_url}{club.get_absolute_url()}")
        if existing is not None and existing.has_usable_password():
            self.stdout.write(f"{username} ist Schriftführer und meldet sich mit dem bisherigen Passwort an.")
            return
        days = settings.PASSWORD_RESET_TIMEOUT // (24 * 60 * 60)
        self.stdout.write(f"Schriftführer {username}: Passwort setzen mit diesem Link (einmal gültig, {days} Tage):")
        self.stdout.write(password_link(user, base_url))
