"""``python manage.py render_sheet PROTOCOL.json OUT.pdf``: print a protocol file, no database.

So a club can print its JSON archive. ``--blank --players "Anna,Bernd,Carla,Dieter" OUT.pdf``
prints an empty sheet instead (``--count 5`` for five unnamed seats). ``OUT.pdf`` may be
``-`` for standard output.

Exit 1 when the protocol breaks a rule (every error printed, in German), exit 2 when the
file can't be read or is not JSON, as ``check_protocol`` does.
"""

import sys

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.utils import translation

from protocol import sheet
from protocol.protocol_file import UnreadableProtocol, check_document, load_document


class Command(BaseCommand):
    help = "Render the Spielprotokollblatt of a protocol/1 file (or a blank one) as PDF."
    requires_system_checks: list = []
    requires_migrations_checks = False

    def add_arguments(self, parser):
        parser.add_argument("paths", nargs="+", metavar="FILE",
                            help="PROTOCOL.json OUT.pdf, or with --blank only OUT.pdf")
        parser.add_argument("--blank", action="store_true", help="print an empty sheet")
        parser.add_argument("--players", default="", help='blank sheet: names clockwise, "Anna,Bernd,Carla"')
        parser.add_argument("--count", type=int, default=None, help="blank sheet: number of unnamed seats (2-8)")
        parser.add_argument("--scorekeeper", default=None, help="blank sheet: the Protokollant (default: first player)")
        parser.add_argument("--club", default="", help="blank sheet: the club's name for the masthead")
        parser.add_argument("--place", default="", help="blank sheet: the place")

    def handle(self, *args, paths, blank, **options):
        expected = 1 if blank else 2
        if len(paths) != expected:
            usage = "render_sheet --blank [--players ...] OUT.pdf" if blank else "render_sheet PROTOCOL.json OUT.pdf"
            raise CommandError(f"usage: {usage}")
        # The sheet is the club's German document, whatever the shell's locale says.
        with translation.override(settings.LANGUAGE_CODE):
            pdf = self._blank(options) if blank else self._filled(paths[0])
        self._write(paths[-1], pdf)

    def _filled(self, path) -> bytes:
        try:
            document = load_document(path)
        except UnreadableProtocol as exc:
            self.stderr.write(str(exc))
            sys.exit(2)
        evaluation = check_document(document)
        if not evaluation.ok:
            for error in evaluation.errors:
                self.stderr.write(_describe(error))
            sys.exit(1)
        return sheet.render_sheet(evaluation.match)

    def _blank(self, options) -> bytes:
        names = [n.strip() for n in options["players"].split(",") if n.strip()]
        if not names:
            names = [""] * (options["count"] or 4)
        try:
            return sheet.render_blank_sheet(names, options["scorekeeper"], club=options["club"],
                                            place=options["place"])
        except ValueError as exc:
            raise CommandError(str(exc)) from None

    def _write(self, target, pdf: bytes) -> None:
        if target == "-":
            sys.stdout.buffer.write(pdf)
            sys.stdout.buffer.flush()
            return
        try:
            with open(target, "wb") as out:
                out.write(pdf)
        except OSError as exc:
            raise CommandError(f"Die Datei {target} kann nicht geschrieben werden: {exc.strerror or exc}.") from None


def _describe(error) -> str:
    """One line per error: where it is (event, player, field), then the German message."""
    where = []
    if error.event is not None:
        where.append(f"Ereignis {error.event}")
    if error.player:
        where.append(error.player)
    if error.field:
        where.append(error.field)
    return f"{', '.join(where)}: {error.message}" if where else error.message
