"""``python manage.py check_protocol FILE.json``: check a protocol without the database.

Exit 0 with the match as the site computes it, exit 1 with every error found, exit 2 when
the file can't be read or is not JSON (docs/protocol-format.md). The same as the rules
engine's own ``python -m protocol.rules check FILE.json``, which needs no Django at all
(:mod:`protocol.rules.check`).
"""

import sys

from django.core.management.base import BaseCommand

from protocol.rules.check import check_file


class Command(BaseCommand):
    help = "Check a protocol/1 file against the rules and print the computed match as JSON."
    requires_system_checks: list = []
    requires_migrations_checks = False

    def add_arguments(self, parser):
        parser.add_argument("file", help="the protocol file (JSON, protocol/1)")

    def handle(self, *args, **options):
        status = check_file(options["file"], self.stdout, self.stderr)
        if status:
            sys.exit(status)
