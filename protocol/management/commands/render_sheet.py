"""``python manage.py render_sheet PROTOCOL.json OUT.pdf``: print a protocol file, no database.

So a club can print its JSON archive, of any game: the printed sheet of the file's game
(protocol/games/<game>/sheet.py; a game's own boxes, e.g. a Kontrollblatt's ``--table 7
--position 2 --numbers "Anna=12,Bernd=7"``, are passed on to it, and refused by a sheet
that has none). ``--blank --players "Anna,Bernd,Carla,Dieter" OUT.pdf`` prints an empty
sheet instead (``--count 5`` for five unnamed seats; ``--ruleset`` the game, ``--games``
rows or deals, ``--rules`` a rule set, ``--positions 5`` pages). ``OUT.pdf`` may be ``-``
for standard output.

Exit 1 when the protocol breaks a rule (every error printed, in German), exit 2 when the
file can't be read or is not JSON, as ``check_protocol`` does.
"""

import inspect
import sys

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.utils import translation

from protocol import games, sheet
from protocol.rules.files import UnreadableProtocol, check_document, load_document


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
        parser.add_argument("--ruleset", default=games.DEFAULT, choices=sorted(games.PLUGINS),
                            help=f"blank sheet: the game (default {games.DEFAULT})")
        parser.add_argument("--games", type=int, default=None, help="blank sheet: rows (or deals per position)")
        parser.add_argument("--rules", default=None, help="blank sheet: the rule set, where the game has several")
        parser.add_argument("--positions", type=int, default=None, help="blank sheet: one page per position")
        parser.add_argument("--table", default=None, help="the table number, where the sheet has one")
        parser.add_argument("--position", type=int, default=None, help="the (first) position of a tournament")
        parser.add_argument("--numbers", default="", help='the players\' numbers, "Anna=12,Bernd=7"')

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
        extra = _table_options(options)
        _check_options(games.plugin(evaluation.match.envelope.ruleset), "render", extra)
        return sheet.render_sheet(evaluation.match, **extra)

    def _blank(self, options) -> bytes:
        names = [n.strip() for n in options["players"].split(",") if n.strip()]
        if not names:
            names = [""] * (options["count"] or 4)
        ruleset = options["ruleset"]
        extra = _table_options(options) | {key: options[key] for key in ("rules", "positions") if options[key]}
        _check_options(games.plugin(ruleset), "render_blank", extra)
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


def _check_options(game, function: str, extra: dict) -> None:
    """Refuse the options the game's sheet has no place for, naming the games whose sheets have."""
    def takes(other, name):
        printer = other.sheet.render if function == "render" else other.sheet.render_blank
        return name in inspect.signature(printer).parameters

    for name in extra:
        if not takes(game, name):
            having = " und ".join(g.name for g in games.PLUGINS.values() if takes(g, name)) or "kein Spiel"
            raise CommandError(f"--{name} gibt es nicht für das Blatt von {game.name}, nur für {having}.")


def _table_options(options) -> dict:
    """A table's boxes given on the command line (none: they stay to be written in)."""
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
