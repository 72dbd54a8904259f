"""``python manage.py check_protocol FILE.json``: check a protocol without the database.

Exit 0 with the match as the site computes it, exit 1 with every error found, exit 2 when
the file can't be read or is not JSON (docs/protocol-format.md).
"""

import sys

from django.core.management.base import BaseCommand

from protocol.documents.protocol_file import UnreadableProtocol, check_document, dumps, load_document


class Command(BaseCommand):
    help = "Check a protocol/1 file against the rules and print the computed match as JSON."
    requires_system_checks: list = []
    requires_migrations_checks = False

    def add_arguments(self, parser):
        parser.add_argument("file", help="the protocol file (JSON, protocol/1)")

    def handle(self, *args, **options):
        try:
            document = load_document(options["file"])
        except UnreadableProtocol as exc:
            self.stderr.write(str(exc))
            sys.exit(2)
        evaluation = check_document(document)
        self.stdout.write(dumps(evaluation.as_json()))
        if not evaluation.ok:
            sys.exit(1)
