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
from django.db.models import Q
from django.utils.translation import gettext as _

from jobs.terminal import TerminalProgress
from league.models import Club
from league.spreadsheets.imports import WorkbookTooLarge, WorkbookUnreadable, import_season


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
        club = Club.objects.filter(Q(name=options["club"]) | Q(slug=options["club"])).first()
        if club is None:
            raise CommandError(_("There is no club “%(name)s” (name or short name).") % {"name": options["club"]},
                               returncode=1)
        season = None
        if options["season"]:
            season = club.seasons.filter(name=options["season"]).first()
            if season is None:
                raise CommandError(_("The club “%(club)s” has no season “%(season)s”.")
                                   % {"club": club.name, "season": options["season"]}, returncode=1)
        shown = self.stderr.isatty() if options["progress"] is None else options["progress"]
        progress = TerminalProgress(self.stderr) if shown else None
        try:
            report = import_season(options["file"], club=club, season=season, dry_run=options["dry_run"],
                                   progress=progress)
        except WorkbookTooLarge as too_large:  # read, but larger than any season's: refused
            raise CommandError(str(too_large), returncode=1) from too_large
        except WorkbookUnreadable as unreadable:
            raise CommandError(str(unreadable), returncode=2) from unreadable
        finally:
            if progress:
                progress.finish()
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
