"""``python manage.py render_sheet PROTOCOL.json OUT.pdf``: print a protocol file, no database.

So a club can print its JSON archive, of any ruleset: the Spielprotokollblatt of
Chaotentrumpf, the Doppelkopf list, the FFT Kontrollblatt of Tarot (``--table 7
--position 2 --numbers "Anna=12,Bernd=7"`` fill its boxes). ``--blank --players
"Anna,Bernd,Carla,Dieter" OUT.pdf`` prints an empty sheet instead (``--count 5`` for five
unnamed seats; ``--ruleset doppelkopf`` or ``tarot``, ``--games`` rows or deals,
``--rules tcg|ddv``, ``--positions 5`` Kontrollblätter). ``OUT.pdf`` may be ``-`` for
standard output.

Exit 1 when the protocol breaks a rule (every error printed, in German), exit 2 when the
file can't be read or is not JSON, as ``check_protocol`` does.
"""

import sys

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.utils import translation

from protocol import sheet
from protocol.protocol_file import UnreadableProtocol, check_document, load_document

BLANK_RULESETS = {"chaotentrumpf", "doppelkopf", "tarot"}


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
        parser.add_argument("--ruleset", default="chaotentrumpf", choices=sorted(BLANK_RULESETS),
                            help="blank sheet: the game (default chaotentrumpf)")
        parser.add_argument("--games", type=int, default=None,
                            help="blank sheet: rows (Chaotentrumpf 40, Doppelkopf 24; Tarot: deals per position, 4)")
        parser.add_argument("--rules", default=None, choices=["tcg", "ddv"], help="blank Doppelkopf list: the rule set")
        parser.add_argument("--positions", type=int, default=1, help="blank Kontrollblatt: one page per position")
        parser.add_argument("--table", default=None, help="Tarot: the table number of the Kontrollblatt")
        parser.add_argument("--position", type=int, default=None, help="Tarot: the (first) position")
        parser.add_argument("--numbers", default="", help='Tarot: the players\' numbers, "Anna=12,Bernd=7"')

    def handle(self, *args, paths, blank, **options):
        expected = 1 if blank else 2
        if len(paths) != expected:
            usage = "render_sheet --blank [--players ...] OUT.pdf" if blank else "render_sheet PROTOCOL.json OUT.pdf"
            raise CommandError(f"usage: {usage}")
        # The sheet is the club's German document, whatever the shell's locale says.
        with translation.override(settings.LANGUAGE_CODE):
            pdf = self._blank(options) if blank else self._filled(paths[0], options)
        self._write(paths[-1], pdf)

    def _filled(self, path, options) -> bytes:
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
        extra = _tarot_options(options)
        if extra and evaluation.match.envelope.ruleset != "tarot":
            raise CommandError("--table, --position und --numbers gibt es nur für das Kontrollblatt (Tarot).")
        return sheet.render_sheet(evaluation.match, **extra)

    def _blank(self, options) -> bytes:
        names = [n.strip() for n in options["players"].split(",") if n.strip()]
        if not names:
            names = [""] * (options["count"] or 4)
        ruleset = options["ruleset"]
        extra = {}
        if ruleset == "doppelkopf" and options["rules"]:
            extra["rules"] = options["rules"]
        if ruleset == "tarot":
            extra = _tarot_options(options) | {"positions": options["positions"]}
        try:
            return sheet.render_blank_sheet(names, options["scorekeeper"], options["games"], club=options["club"],
                                            place=options["place"], ruleset=ruleset, **extra)
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


def _tarot_options(options) -> dict:
    """The Kontrollblatt's boxes given on the command line (none: they stay to be written in)."""
    extra = {}
    if options["table"]:
        extra["table"] = options["table"]
    if options["position"] is not None:
        extra["position"] = options["position"]
    if options["numbers"]:
        numbers = {}
        for pair in options["numbers"].split(","):
            name, sep, number = pair.partition("=")
            if not sep or not name.strip() or not number.strip():
                raise CommandError(f'--numbers: "Name=Nummer", durch Kommas getrennt, nicht {pair!r}.')
            numbers[name.strip()] = number.strip()
        extra["numbers"] = numbers
    return extra


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
