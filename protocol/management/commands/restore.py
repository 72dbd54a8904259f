"""``python manage.py restore BACKUP.json``: fill an empty database from a backup."""

from django.core.management.base import BaseCommand, CommandError

from protocol.documents.backup import RestoreRefused, load
from protocol.rules.files import UnreadableProtocol, load_document


class Command(BaseCommand):
    help = "Restore a backup written by `manage.py backup` into an empty database."

    def add_arguments(self, parser):
        parser.add_argument("file", help="the backup file (JSON)")

    def handle(self, *args, **options):
        try:
            data = load_document(options["file"])
            counts = load(data)
        except (UnreadableProtocol, RestoreRefused) as refused:
            raise CommandError(str(refused), returncode=1) from refused
        self.stdout.write(self.style.SUCCESS(
            "Zurückgespielt: {clubs} Vereine, {members} Mitglieder, {seasons} Saisons, {matches} Partien, "
            "{users} Benutzer.".format(**counts)))
        if counts["without_password"]:
            self.stdout.write(self.style.WARNING(
                f"Achtung: Die Sicherung enthält keine Passwörter (mit --without-passwords geschrieben). "
                f"{counts['without_password']} Benutzer können sich erst wieder anmelden, wenn sie ein neues "
                f"Passwort gesetzt haben („Passwort vergessen“ oder `manage.py changepassword NAME`)."))
