"""``python manage.py export_season CLUB SEASON OUT.xlsx``: a season as a spreadsheet.

CLUB is the club's short name in addresses (slug) or its name; SEASON is the season's name
(or number), or ``alle`` for every season and the all-time table. The workbook is the one
"Saison exportieren" gives on the site. Exit 1 when the club, the season or the file is
wrong. On a terminal a progress bar shows the Partien written (``--no-progress``: none).
"""

from argparse import BooleanOptionalAction

from django.core.management.base import BaseCommand, CommandError
from django.db.models import Q

from jobs.terminal import TerminalProgress
from league.models import Club
from league.spreadsheets.exports import write_season

ALL_SEASONS = ("alle", "all")


class Command(BaseCommand):
    help = "Write a season of a club (or all seasons) as an .xlsx workbook."

    def add_arguments(self, parser):
        parser.add_argument("club", help="the club's short name (slug) or name")
        parser.add_argument("season", help='the season\'s name or number, or "alle" for all seasons')
        parser.add_argument("output", help="the .xlsx file to write")
        parser.add_argument("--progress", action=BooleanOptionalAction, default=None,
                            help="draw a progress bar on stderr (default: when stderr is a terminal)")

    def handle(self, *args, **options):
        club = Club.objects.filter(Q(slug=options["club"]) | Q(name=options["club"])).first()
        if club is None:
            raise CommandError(f"Es gibt keinen Verein {options['club']!r}.", returncode=1)
        season = None
        if options["season"].lower() not in ALL_SEASONS:
            wanted = options["season"]
            season = club.seasons.filter(name=wanted).first()  # a name first: "2026" is a name
            if season is None and wanted.isascii() and wanted.isdigit():
                season = club.seasons.filter(pk=int(wanted)).first()
            if season is None:
                known = ", ".join(club.seasons.values_list("name", flat=True)) or "keine"
                raise CommandError(f"Der Verein {club.name} hat keine Saison {wanted!r} "
                                   f"(vorhanden: {known}; alle Saisons: alle).", returncode=1)
        try:  # opened first: a wrong path fails at once, before the season is read
            output = open(options["output"], "wb")
        except OSError as exc:
            raise CommandError(f"Die Datei {options['output']} kann nicht geschrieben werden: "
                               f"{exc.strerror or exc}.", returncode=1) from exc
        shown = options["progress"]
        if shown is None:
            shown = self.stderr.isatty()
        progress = TerminalProgress(self.stderr) if shown else None
        with output:
            write_season(club, season, output, progress=progress)
        if progress:
            progress.finish()
        what = f"Saison {season.name}" if season else "Alle Saisons"
        self.stdout.write(f"{what} von {club.name} nach {options['output']} geschrieben.")
