"""``python manage.py check_texts [--repair]``: the stored texts the site would now refuse.

One line per finding (model, id, field, club, what is wrong, where the secretary fixes it;
see ``protocol.records.text_audit``). Exit 1 if there is any, 0 if none. ``--repair`` first removes
NUL, lone surrogates and control characters from every stored text (what the migration
``protocol 0005`` did once), noting it in each repaired Partie's history.
"""

import sys

from django.core.management.base import BaseCommand
from django.db import transaction

from protocol.records.text_audit import repair_stored_texts, stored_text_problems


class Command(BaseCommand):
    help = "List the stored texts (names, places, reasons) the site's text checks would now refuse."

    def add_arguments(self, parser):
        parser.add_argument("--repair", action="store_true",
                            help="remove NUL, surrogates and control characters from the stored texts first")

    def handle(self, *args, **options):
        if options["repair"]:
            with transaction.atomic():
                for line in repair_stored_texts():
                    self.stdout.write(f"Repariert: {line}")
        findings = 0
        for finding in stored_text_problems():
            self.stdout.write(finding.line())
            findings += 1
        if findings:
            self.stderr.write(f"{findings} gespeicherte Texte würden heute abgelehnt.")
            sys.exit(1)
        self.stdout.write("Alle gespeicherten Texte sind in Ordnung.")
