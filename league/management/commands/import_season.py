"""``python manage.py import_season FILE.xlsx --club NAME [--season NAME] [--dry-run]``.

A season workbook (the layout the season export writes) into a club, all or nothing (see
``league.spreadsheets.imports``). Exit 0 with a summary of what was (or, with ``--dry-run``, would be)
saved; exit 1 when the workbook is refused (every problem on stderr, one per line, with its
sheet, row and column; nothing saved), larger than any season's workbook, or club or season
are unknown; exit 2 when the file can't be read or is no .xlsx workbook. On a terminal a
progress bar shows the Partien checked and saved (``--no-progress``: none).
"""

from argparse import BooleanOptionalAction

from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _

from league.management.workbooks import club_and_season, reading
from league.spreadsheets.imports import import_season


class Command(BaseCommand):
    help = "Import a season workbook (.xlsx, as the season export writes it) into a club (all or nothing)."

    def add_arguments(self, parser):
        parser.add_argument("file", help="the workbook (.xlsx)")
        parser.add_argument("--club", required=True, help="the club's name or short name (slug)")
        parser.add_argument("--season", help="the season every match goes into (default: the season each match "
                                             "names, created if missing, else the club's season of its date)")
        parser.add_argument("--dry-run", action="store_true", help="check everything, save nothing")
        parser.add_argument("--progress", action=BooleanOptionalAction, default=None,
                            help="draw a progress bar on stderr (default: when stderr is a terminal)")

    def handle(self, *args, **options):
        club, season = club_and_season(options["club"], options["season"])
        with reading(self.stderr, options["progress"]) as progress:
            report = import_season(options["file"], club=club, season=season, dry_run=options["dry_run"],
                                   progress=progress)
        if report.problems:
            for problem in report.problems:
                self.stderr.write(str(problem))
            raise CommandError(_("Not imported, nothing saved: %(n)s problems in the workbook.")
                               % {"n": len(report.problems)}, returncode=1)
        if report.saved:
            self.stdout.write(_("Imported into %(club)s:") % {"club": club.name})
        else:
            self.stdout.write(_("Dry run, nothing saved. The import into %(club)s would save:") % {"club": club.name})
        for line in report.summary():
            self.stdout.write(f"  {line}")
