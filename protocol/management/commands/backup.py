"""``python manage.py backup OUT.json``: everything in one file (see protocol/backup.py)."""

import json
from pathlib import Path

from django.core.management.base import BaseCommand

from protocol.backup import dump


class Command(BaseCommand):
    help = "Write clubs, members, seasons, users (no password hashes unless asked) and every match to one file."

    def add_arguments(self, parser):
        parser.add_argument("out", help="the backup file to write (JSON)")
        parser.add_argument("--with-passwords", action="store_true", help="include the password hashes")

    def handle(self, *args, **options):
        data = dump(with_passwords=options["with_passwords"])
        Path(options["out"]).write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        matches = sum(len(c["matches"]) for c in data["clubs"])
        self.stdout.write(f"Sicherung geschrieben: {len(data['clubs'])} Vereine, {matches} Partien, "
                          f"{len(data['users'])} Benutzer -> {options['out']}")
