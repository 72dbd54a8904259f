"""``python manage.py import_points_list FILE.xlsx --club NAME --game GAME [--season NAME] [--dry-run]``.

A club's own points list (a row per Spiel, a column per player; see
``league.spreadsheets.points_import``) into a club, all or nothing, with the mapping of the
page as options (``--header-row 3 --players B-E --date B1 --place C --number A --ignore F
--running-totals``; an option left out is guessed from each sheet). ``--guests``: a name
that is no member's becomes a guest. Exit 0 with each Partie's totals and winner (with
``--dry-run`` nothing saved); exit 1 when the list is refused (every problem on stderr, one
per line, at its cell: "Partie 2!C7: ..."), or club, season, game or mapping are unknown;
exit 2 when the file can't be read or is no .xlsx workbook.
"""

from argparse import BooleanOptionalAction

from django.core.management.base import BaseCommand, CommandError

from league.management.workbooks import club_and_season, reading
from league.spreadsheets.points_import import import_points_list
from league.spreadsheets.points_mapping import Mapping, MappingError, parse_columns, parse_spot
from protocol.rules import RULESETS


class Command(BaseCommand):
    help = "Import a club's own points list (.xlsx: a row per game, a column per player) into a club (all or nothing)."

    def add_arguments(self, parser):
        parser.add_argument("file", help="the workbook (.xlsx)")
        parser.add_argument("--club", required=True, help="the club's name or short name (slug)")
        parser.add_argument("--season", help="the season every match goes into (default: the club's season of its date)")
        parser.add_argument("--game", choices=sorted(RULESETS), help="the game (default: the season's)")
        parser.add_argument("--guests", action="store_true", help="create a name no member has as a guest")
        parser.add_argument("--header-row", type=int, help="the header row (default: the first row of names)")
        parser.add_argument("--players", default="", help="the players' columns, e.g. B-E (default: the header's names)")
        parser.add_argument("--date", default="", help="the date's column (A) or cell (B1)")
        parser.add_argument("--place", default="", help="the place's column or cell")
        parser.add_argument("--number", default="", help="the column of the game's number (- for none)")
        parser.add_argument("--ignore", default="", help="columns to ignore, e.g. F,H")
        parser.add_argument("--running-totals", action="store_true", help="each row holds the totals after the game")
        parser.add_argument("--dry-run", action="store_true", help="check everything, save nothing")
        parser.add_argument("--progress", action=BooleanOptionalAction, default=None,
                            help="draw a progress bar on stderr (default: when stderr is a terminal)")

    def handle(self, *args, **options):
        club, season = club_and_season(options["club"], options["season"])
        game = options["game"] or (season.ruleset if season else None)
        if game is None:
            raise CommandError("Bitte die Spielart angeben (--game) oder eine Saison (--season).", returncode=1)
        try:
            mapping = Mapping(header_row=options["header_row"], players=parse_columns(options["players"], "--players"),
                              date=parse_spot(options["date"], "--date"), place=parse_spot(options["place"], "--place"),
                              number=parse_spot(options["number"], "--number", none_allowed=True),
                              ignore=parse_columns(options["ignore"], "--ignore"),
                              running_totals=options["running_totals"])
        except MappingError as wrong:
            raise CommandError(str(wrong), returncode=1) from wrong
        with reading(self.stderr, options["progress"]) as progress:
            report = import_points_list(options["file"], club=club, game=game, season=season, mapping=mapping,
                                        guests=options["guests"], dry_run=options["dry_run"], progress=progress)
        for line in self._read(report):
            self.stdout.write(line)
        if report.problems:
            for problem in report.problems:
                self.stderr.write(str(problem))
            raise CommandError(f"Nicht importiert, nichts gespeichert: {len(report.problems)} Probleme in der Liste.",
                               returncode=1)
        self.stdout.write(f"Importiert in {club.name}." if report.saved else
                          f"Probelauf, nichts gespeichert. Der Import in {club.name} würde diese Partien speichern.")

    @staticmethod
    def _read(report):
        for mapping in report.mappings:
            yield (f"{mapping['sheet']}: Kopfzeile {mapping['header_row']}, Spieler {mapping['players'] or '–'}, "
                   f"Datum {mapping['date'] or '–'}, Ort {mapping['place'] or '–'}, Nr. {mapping['number'] or '–'}")
        for name in report.names:
            yield f"{name['written']} → {name['member']}: {name['how']}"
        for partie in report.partien:
            totals = ", ".join(f"{name} {total}" for name, total in partie["totals"])
            winner = f"; Sieger {partie['winner']}" if partie["winner"] else ""
            yield f"{partie['title']} ({partie['date']}, {partie['games']} Spiele): {totals or '–'}{winner}"
