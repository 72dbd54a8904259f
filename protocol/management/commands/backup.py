"""``python manage.py backup OUT.json``: everything in one file (see protocol/documents/backup.py).

Everything includes the password hashes, so that everyone can log in after a restore; keep
the file as safe as the database. ``--without-passwords`` leaves them out (for a copy to
hand on); after restoring such a file every user must set a new password.
"""

import argparse
import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from protocol.documents.backup import dump


class Command(BaseCommand):
    help = "Write clubs, members, seasons, users (with their password hashes) and every match to one file."

    def add_arguments(self, parser):
        parser.add_argument("out", help="the backup file to write (JSON)")
        parser.add_argument("--without-passwords", action="store_true",
                            help="leave the password hashes out; after a restore everyone must set a new password")
        # The former opt-in, now the default; still accepted so that existing cron lines keep working.
        parser.add_argument("--with-passwords", action="store_true", help=argparse.SUPPRESS)

    def handle(self, *args, **options):
        if options["with_passwords"] and options["without_passwords"]:
            raise CommandError("--with-passwords und --without-passwords schließen sich aus.")
        data = dump(with_passwords=not options["without_passwords"])
        Path(options["out"]).write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        matches = sum(len(c["matches"]) for c in data["clubs"])
        self.stdout.write(f"Sicherung geschrieben: {len(data['clubs'])} Vereine, {matches} Partien, "
                          f"{len(data['users'])} Benutzer -> {options['out']}")
        if options["without_passwords"]:
            self.stdout.write("Ohne Passwörter: nach dem Zurückspielen muss jeder Benutzer ein neues Passwort setzen.")
